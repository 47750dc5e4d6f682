// How recorded objects and keyframes are stored. A version is the object's canonical JSON
// (managedFields stripped, keys sorted), stored in one of three encodings (VersionEncoding), each
// deflated with the base version's JSON as zlib's preset dictionary when there is a base: a status
// update of a 3.5 KB pod shrinks to a merge patch of a few fields, itself mostly back-references into
// the previous version. Reading a version decodes its chain back to the last full version, so the
// writer stores a full one every few changes per object.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Json } from './merge-patch';
import { applyMergePatch } from './merge-patch';

/**
 * - full: the JSON text, deflated alone (base is NULL);
 * - text: the JSON text, deflated against the base's (new objects, against a sibling from the same
 *   template; updates a merge patch cannot express);
 * - patch: the merge patch from the base's version, deflated against the base's JSON.
 * A NULL payload, whatever the encoding, means "the same version as the base".
 */
export const VersionEncoding = { full: 0, text: 1, patch: 2 } as const;
export type VersionEncoding = (typeof VersionEncoding)[keyof typeof VersionEncoding];

/** zlib's window: a dictionary beyond it is only partly used, which costs bytes, never correctness. */
const compressionLevel = 6;

/**
 * Deflates `text` against `baseJson` when given, preceded in the dictionary by `hintJson` (a sibling's
 * version that likely went through the same change: pods of one ReplicaSet are scheduled, started and
 * made ready with the same conditions, images and messages). Decoding needs the same two texts.
 */
export function encodeVersion(text: string, baseJson?: string, hintJson?: string): Buffer {
  const input = Buffer.from(text);
  if (baseJson === undefined) return deflateRawSync(input, { level: compressionLevel });
  return deflateRawSync(input, {
    level: compressionLevel,
    dictionary: Buffer.from((hintJson ?? '') + baseJson),
  });
}

/** A decoded version: its JSON text, and its parsed form once a patch needed it (never mutated). */
export interface DecodedVersion {
  readonly json: string;
  tree?: Json;
}

/** The version stored as `payload` in `encoding` over the base version `base` (and `hintJson`). */
export function decodeVersion(
  encoding: number,
  payload: Uint8Array,
  base?: DecodedVersion,
  hintJson?: string,
): DecodedVersion {
  if (encoding === VersionEncoding.full) return { json: inflateRawSync(payload).toString() };
  if (base === undefined) throw new Error(`a version in encoding ${encoding} needs its base`);
  const text = inflateRawSync(payload, { dictionary: Buffer.from((hintJson ?? '') + base.json) }).toString();
  if (encoding === VersionEncoding.text) return { json: text };
  if (encoding !== VersionEncoding.patch) throw new Error(`unknown version encoding ${encoding}`);
  base.tree ??= JSON.parse(base.json) as Json;
  // Both sides are canonical and the patch keeps key order, so the text is the writer's, byte for byte.
  const tree = applyMergePatch(base.tree, JSON.parse(text) as Json);
  return { json: JSON.stringify(tree), tree };
}

/**
 * A keyframe's members: which change holds the current version of each object of a stream. Stored
 * as varint pairs (object id as the difference from the previous one, sorted; change id as is),
 * deflated: a few bytes per object, so a keyframe of 150,000 pods stays well under a megabyte.
 */
export function encodeMembers(members: ReadonlyMap<number, number>): Buffer {
  const objects = [...members.keys()].sort((a, b) => a - b);
  const bytes: number[] = [];
  let previous = 0;
  for (const object of objects) {
    writeVarint(bytes, object - previous);
    writeVarint(bytes, members.get(object)!);
    previous = object;
  }
  return deflateRawSync(Buffer.from(bytes));
}

export function decodeMembers(blob: Uint8Array): Map<number, number> {
  const bytes = inflateRawSync(blob);
  const members = new Map<number, number>();
  let offset = 0;
  let object = 0;
  const read = (): number => {
    let value = 0;
    let factor = 1;
    for (;;) {
      if (offset >= bytes.length) throw new Error('keyframe members end mid-number');
      const byte = bytes[offset++];
      value += (byte & 0x7f) * factor;
      if (byte < 0x80) return value;
      factor *= 128;
    }
  };
  while (offset < bytes.length) {
    object += read();
    members.set(object, read());
  }
  return members;
}

function writeVarint(bytes: number[], value: number): void {
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 128) | 0x80);
    rest = Math.floor(rest / 128);
  }
  bytes.push(rest);
}
