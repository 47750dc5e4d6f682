// JSON merge patches (RFC 7386) between versions of an object, and the canonical JSON both sides of a
// recording agree on. An update is stored as the patch from the previous version (a few fields for a
// status update) instead of the whole object; keys are sorted so that applying the patch on read
// yields the very text the writer had, byte for byte, which the next version's dictionary needs.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` with object keys sorted, recursively; metadata.managedFields of the top object left out. */
export function canonicalize(value: unknown): Json {
  if (!isObject(value)) return canonicalMember(value);
  const result: JsonObject = {};
  for (const key of sortedKeys(value)) {
    const member = value[key];
    if (member === undefined) continue;
    result[key] =
      key === 'metadata' && isObject(member)
        ? canonicalObject(member, 'managedFields')
        : canonicalMember(member);
  }
  return result;
}

// Performance-sensitive: the recorder canonicalizes every version it writes (and the one before it).
function canonicalMember(value: unknown): Json {
  if (typeof value !== 'object' || value === null) return value as Json;
  if (!Array.isArray(value)) return canonicalObject(value as JsonObject);
  const result = new Array<Json>(value.length);
  for (let index = 0; index < value.length; index++) result[index] = canonicalMember(value[index]);
  return result;
}

function canonicalObject(value: JsonObject, leftOut?: string): JsonObject {
  const result: JsonObject = {};
  for (const key of sortedKeys(value)) {
    const member = value[key];
    if (member !== undefined && key !== leftOut) result[key] = canonicalMember(member);
  }
  return result;
}

/** The keys of `value` in sorted order, sorting only when they are out of order (often they are not). */
function sortedKeys(value: JsonObject): string[] {
  const keys = Object.keys(value);
  for (let index = 1; index < keys.length; index++) if (keys[index - 1] > keys[index]) return keys.sort();
  return keys;
}

/** The canonical JSON text of a Kubernetes object (sorted keys, no managedFields). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonicalize(value));
}

/**
 * The merge patch turning canonical `from` into canonical `to`, or undefined when none can: a merge
 * patch cannot set a member of an object to null (null means "remove"), and Kubernetes objects do
 * carry nulls (lastProbeTime: null); those versions are stored whole instead.
 */
export function createMergePatch(from: Json, to: Json): Json | undefined {
  if (!isObject(from) || !isObject(to)) return undefined;
  const patch: JsonObject = {};
  // for...in, not Object.keys: the recorder diffs every change, and these loops allocate nothing.
  for (const key in from) if (!(key in to)) patch[key] = null;
  for (const key in to) {
    const next = to[key];
    const previous = from[key];
    if (key in from && deepEqual(previous, next)) continue;
    if (isObject(previous) && isObject(next)) {
      const nested = createMergePatch(previous, next);
      if (nested === undefined) return undefined;
      patch[key] = nested;
    } else {
      if (next === null || hasNullMember(next)) return undefined;
      patch[key] = next;
    }
  }
  return patch;
}

/**
 * RFC 7386 MergePatch(target, patch), keeping a canonical target canonical: members added by the
 * patch take their sorted place. Subtrees the patch does not touch are shared with `target`, so
 * neither may be mutated afterwards.
 */
export function applyMergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return patch;
  const base = isObject(target) ? target : {};
  const patchKeys = Object.keys(patch);
  const keys = patchKeys.some((key) => !(key in base))
    ? [...new Set([...Object.keys(base), ...patchKeys])].sort()
    : Object.keys(base);
  const result: JsonObject = {};
  for (const key of keys) {
    if (!(key in patch)) {
      result[key] = base[key];
      continue;
    }
    const value = patch[key];
    if (value !== null) result[key] = applyMergePatch(key in base ? base[key] : null, value);
  }
  return result;
}

/** True when applying `value` as a patch would drop something: an object member that is null. */
function hasNullMember(value: Json): boolean {
  if (!isObject(value)) return false;
  for (const key in value) {
    const member = value[key];
    if (member === null || hasNullMember(member)) return true;
  }
  return false;
}

function deepEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const array = Array.isArray(a);
  if (array !== Array.isArray(b)) return false;
  if (array) {
    const other = b as Json[];
    if (a.length !== other.length) return false;
    for (let index = 0; index < a.length; index++) if (!deepEqual(a[index], other[index])) return false;
    return true;
  }
  const object = a as JsonObject;
  const otherObject = b as JsonObject;
  let count = 0;
  for (const key in object) {
    if (!(key in otherObject) || !deepEqual(object[key], otherObject[key])) return false;
    count++;
  }
  // b has no key a lacks when it has no more keys than a (all of a's are in b): counted, not listed.
  for (const _key in otherObject) if (--count < 0) return false;
  return true;
}

export type { Json };
