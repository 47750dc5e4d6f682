// A keyframe's members as two sorted columns (object ids ascending, the change holding each one's
// version beside it), looked up by binary search: what KeyframeMembers keeps of a keyframe, where a
// Map of 150,000 members cost 88-101 ms of CPU to decode (its hashing) and left a table the collector
// copied and promoted, at a travel's critical path; the columns cost 5-53 ms decoded and looked up.
import { inflateRawSync } from 'node:zlib';
import { VarintCursor } from './varint';

/** A keyframe's members, read only: object -> the change holding its version. */
export interface KeyframeSet {
  readonly size: number;
  get(object: number): number | undefined;
  has(object: number): boolean;
  /** Calls `visit` with each member's change and object. */
  forEach(visit: (change: number, object: number) => void): void;
}

/**
 * A keyframe's members as columns in object order (see decodeMemberColumns), looked up by binary
 * search (17 steps at 150,000 members). Maps of every member were 1.4 s of the travel worker's
 * decoding in session 14's ui-bench profile at 150,000 pods, with its collections beside.
 */
export class SortedMembers implements KeyframeSet {
  readonly size: number;

  constructor(
    private readonly objects: Float64Array,
    private readonly changes: Float64Array,
  ) {
    this.size = objects.length;
  }

  get(object: number): number | undefined {
    const objects = this.objects;
    let low = 0;
    let high = objects.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const found = objects[middle];
      if (found === object) return this.changes[middle];
      if (found < object) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }

  has(object: number): boolean {
    return this.get(object) !== undefined;
  }

  forEach(visit: (change: number, object: number) => void): void {
    const { objects, changes } = this;
    for (let index = 0; index < objects.length; index++) visit(changes[index], objects[index]);
  }
}

/**
 * A keyframe's members as two columns in object order (encodeMembers writes them sorted): no Map of
 * 150,000 entries made (the decode's hashing, and a table the collector then copies and promotes), for
 * readers that only look members up (see KeyframeMembers). The objects are written as steps from
 * the one before, so they ascend; undefined if one repeats (a step of 0, never written so): then read
 * them with decodeMembers, whose Map keeps the last.
 */
export function decodeMemberColumns(
  blob: Uint8Array,
): { readonly objects: Float64Array; readonly changes: Float64Array } | undefined {
  const bytes = inflateRawSync(blob);
  // Each member takes two bytes at least: this many at most.
  let objects = new Float64Array(bytes.length >> 1);
  let changes = new Float64Array(bytes.length >> 1);
  let count = 0;
  const cursor = new VarintCursor(bytes, 'keyframe members');
  let object = 0;
  while (!cursor.atEnd) {
    const step = cursor.read();
    // A repeated object (a step of 0 after the first) would not be a lookup's one answer.
    if (step === 0 && count > 0) return undefined;
    object += step;
    objects[count] = object;
    changes[count++] = cursor.read();
  }
  objects = objects.slice(0, count);
  changes = changes.slice(0, count);
  return { objects, changes };
}
