// Chooses how the writer stores each version of an object, from texts alone: against the object's
// previous version's text (a status update rewrites a few values in place, so its text delta is mostly
// copies), for a new object against a sibling's text, or whole. Nothing is parsed or diffed as a tree:
// a version decodes to the very text that was captured. Holds no state of its own: what it needs of
// the object's past (ObjectVersions) and of its siblings is the writer's, passed in.
import type { CapturedObject } from './captured-object';
import { VersionEncoding, encodeTextVersion, encodeVersion } from './object-codec';

/** What encoding the next version of an object needs to know of the versions before it. */
export interface ObjectVersions {
  lastChange: number;
  /**
   * The text lastChange's version decodes to, the base of the next version; undefined before the
   * object's first version in this session, and once memory ran over the writer's bound.
   */
  lastText: Buffer | undefined;
  /**
   * The depth of the last version: how many versions reading it decodes first, through its base,
   * recursively. Kept below fullVersionEvery.
   */
  chain: number;
}

/** A version as the changes table stores it. */
export interface Encoded {
  readonly base: number | null;
  /** A VersionEncoding, possibly flagged (storedDelta). */
  readonly encoding: number;
  /** NULL: the same version as the base. */
  readonly payload: Buffer | null;
}

/** A version a new object can be stored against: pods of one ReplicaSet differ in a few fields. */
export interface Sibling {
  readonly change: number;
  readonly text: Buffer;
  /** Its depth: versions to decode before it (see ObjectVersions.chain). */
  readonly chain: number;
}

/** The text a deletion with no known state stores when the object's past is unknown too. */
const noState = 'null';

/**
 * How `object`, the next version after `state`'s, is stored, with a full version at least every
 * `fullVersionEvery` links; updates `state`'s chain depth to the new version's. `object` undefined is
 * a deletion with no known state: it repeats the last version.
 */
export function encodeNextVersion(
  state: ObjectVersions,
  object: CapturedObject | undefined,
  sibling: Sibling | undefined,
  fullVersionEvery: number,
): Encoded {
  const base = state.lastChange;
  if (object === undefined) {
    if (base === 0) {
      state.chain = 0;
      return { base: null, encoding: VersionEncoding.full, payload: encodeVersion(noState) };
    }
    state.chain++;
    return { base, encoding: VersionEncoding.text, payload: null };
  }
  const previous = state.lastText;
  if (base !== 0 && previous !== undefined && state.chain < fullVersionEvery) {
    state.chain++;
    if (object.text.equals(previous)) return { base, encoding: VersionEncoding.text, payload: null };
    return { base, ...encodeTextVersion(object.text, previous) };
  }
  if (base === 0 && sibling !== undefined && sibling.chain < fullVersionEvery) {
    state.chain = sibling.chain + 1;
    return { base: sibling.change, ...encodeTextVersion(object.text, sibling.text) };
  }
  state.chain = 0;
  return { base: null, encoding: VersionEncoding.full, payload: encodeVersion(object.text) };
}
