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
  for (const key of Object.keys(from)) if (!(key in to)) patch[key] = null;
  for (const key of Object.keys(to)) {
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
  return Object.values(value).some((member) => member === null || hasNullMember(member));
}

function deepEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) if (!deepEqual(a[index], b[index])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  let count = 0;
  for (const key in a) {
    if (!(key in b) || !deepEqual(a[key], b[key])) return false;
    count++;
  }
  return count === Object.keys(b).length;
}

export type { Json };
