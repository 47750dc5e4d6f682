// Chooses how the writer stores each version of an object: a chained patch on the hot path (a status
// update), else a merge patch against the previous version's canonical JSON, the text against a
// sibling's for a new object, or the whole version. Holds no state of its own: what it needs of the
// object's past (ObjectVersions) and of its siblings is the writer's, passed in.
import type { KubeObject } from '../../shared/kube/object';
import type { Json } from './merge-patch';
import { canonicalize, createMergePatch } from './merge-patch';
import { VersionEncoding, encodeChainedPatch, encodeSiblingText, encodeVersion } from './object-codec';

/** What encoding the next version of an object needs to know of the versions before it. */
export interface ObjectVersions {
  lastChange: number;
  /** The version stored by lastChange, kept as the cache's own (immutable) object, not its JSON. */
  lastObject: KubeObject | undefined;
  /** lastObject in canonical form, kept only until the end of the batch that wrote it. */
  lastCanonical: Canonical | undefined;
  /**
   * What lastChange's payload held (its merge patch, or its JSON when whole), the dictionary of a
   * chainedPatch on it; undefined until a version is written, and when memory ran over the bound.
   */
  lastStored: Buffer | undefined;
  /**
   * The depth of the last version: how many versions reading it decodes first, through its base and
   * its hint, recursively. Kept below fullVersionEvery.
   */
  chain: number;
}

export interface Canonical {
  readonly tree: Json;
  readonly json: string;
}

function canonical(object: KubeObject | undefined): Canonical {
  const tree = object ? canonicalize(object) : null;
  return { tree, json: JSON.stringify(tree) };
}

/** A version as the changes table stores it. */
export interface Encoded {
  readonly base: number | null;
  readonly hint?: number;
  /** A VersionEncoding, possibly flagged (storedRaw, storedDelta). */
  readonly encoding: number;
  readonly payload: Buffer | null;
  /** What the payload holds: the next chainedPatch's dictionary (undefined: as before, for a repeat). */
  readonly stored: Buffer | undefined;
}

/** A version a new object can be deflated against: pods of one ReplicaSet differ in a few fields. */
export interface Sibling {
  readonly change: number;
  readonly object: KubeObject;
  /**
   * The object's canonical JSON: kept from its write when that computed it, until the batch ends,
   * else computed when first needed (most siblings never serve).
   */
  json: string | undefined;
  /** Its depth: versions to decode before it (see ObjectVersions.chain). */
  readonly chain: number;
}

/** Patches shorter than this (in JSON characters) are not deflated against a sibling's version. */
const hintWorthyPatchLength = 256;

function siblingJson(sibling: Sibling): string {
  return (sibling.json ??= canonical(sibling.object).json);
}

/** What objects made from the same template share: their controller, else their generateName. */
export function templateOf(object: KubeObject): string {
  const controller = object.metadata.ownerReferences?.find((owner) => owner.controller);
  return controller?.uid ?? object.metadata.generateName ?? '';
}

/**
 * How `object`, the next version after `state`'s, is stored, with a full version at least every
 * `fullVersionEvery` links; updates `state`'s chain depth (and canonical form) to the new version's.
 */
export function encodeNextVersion(
  state: ObjectVersions,
  object: KubeObject | undefined,
  siblings: ReadonlyMap<string, Sibling>,
  fullVersionEvery: number,
): Encoded {
  return (
    encodeChained(state, object, fullVersionEvery) ??
    encodeAgainstJson(state, object, siblings, fullVersionEvery)
  );
}

/**
 * The hot path: `object` as a merge patch from the object's previous version, computed on the cache's
 * objects as they are (key order does not matter to a diff; only the small patch is canonicalized)
 * and compressed against the previous payload's text. Undefined when it does not apply: no previous
 * version or text, a chain at its limit, or a change a merge patch cannot express.
 */
function encodeChained(
  state: ObjectVersions,
  object: KubeObject | undefined,
  fullVersionEvery: number,
): Encoded | undefined {
  const previous = state.lastObject;
  const dictionary = state.lastStored;
  if (!object || !previous || !dictionary || state.chain >= fullVersionEvery) return undefined;
  const patch = createMergePatch(previous as unknown as Json, object as unknown as Json);
  if (patch === undefined) return undefined;
  // canonicalize leaves out metadata.managedFields, as it does for whole versions.
  const text = JSON.stringify(canonicalize(patch));
  const base = state.lastChange;
  state.chain++;
  state.lastCanonical = undefined;
  if (text === '{}')
    return { base, encoding: VersionEncoding.chainedPatch, payload: null, stored: undefined };
  const stored = Buffer.from(text);
  const { encoding, payload } = encodeChainedPatch(stored, dictionary);
  return { base, encoding, payload, stored };
}

/**
 * The encoding of a version the hot path cannot take: against the object's previous version (a
 * merge patch, else the text), or for a new object against a sibling's; a full version every
 * fullVersionEvery links.
 */
function encodeAgainstJson(
  state: ObjectVersions,
  object: KubeObject | undefined,
  siblings: ReadonlyMap<string, Sibling>,
  limit: number,
): Encoded {
  const next = canonical(object);
  // The previous version's canonical form only when a version can build on it (not at the chain's
  // limit, where a full version is due): it is the costliest part of a full version's encoding.
  const previous =
    state.chain < limit
      ? (state.lastCanonical ?? (state.lastObject ? canonical(state.lastObject) : undefined))
      : undefined;
  state.lastCanonical = next;
  const sibling = object ? siblings.get(templateOf(object)) : undefined;
  if (previous) {
    const base = state.lastChange;
    if (next.json === previous.json) {
      state.chain++;
      return { base, encoding: VersionEncoding.patch, payload: null, stored: undefined };
    }
    const patch = createMergePatch(previous.tree, next.tree);
    const encoding = patch === undefined ? VersionEncoding.text : VersionEncoding.patch;
    const text = patch === undefined ? next.json : JSON.stringify(patch);
    // A hint deepens the chain to the sibling's depth, which soon forces full versions: worth it
    // only for a change bringing much that the object's own past lacks (a pod scheduled, started).
    const worthHinting = text.length >= hintWorthyPatchLength && sibling && sibling.change !== base;
    const hinted = worthHinting && sibling.chain < limit ? sibling : undefined;
    state.chain = 1 + Math.max(state.chain, hinted?.chain ?? 0);
    return {
      base,
      hint: hinted?.change,
      encoding,
      payload: encodeVersion(text, previous.json, hinted && siblingJson(hinted)),
      stored: Buffer.from(text),
    };
  }
  if (state.lastChange === 0 && sibling && sibling.chain < limit) {
    state.chain = sibling.chain + 1;
    const stored = Buffer.from(next.json);
    return { base: sibling.change, ...encodeSiblingText(stored, siblingJson(sibling)), stored };
  }
  state.chain = 0;
  return {
    base: null,
    encoding: VersionEncoding.full,
    payload: encodeVersion(next.json),
    stored: Buffer.from(next.json),
  };
}
