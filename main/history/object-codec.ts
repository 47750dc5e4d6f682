// How recorded objects and keyframes are stored. A version is an object's JSON as it was captured
// (managedFields stripped), stored in one of four encodings (VersionEncoding). The writer stores an
// update as a text delta against the object's previous version's text: a status update of a 3 KB pod
// rewrites a few values in place, so its delta is a few dozen bytes, mostly copies. Recordings
// written before held canonical JSON (keys sorted) and merge patches between versions; they read as
// before. Reading a version decodes its chain back to the last full version, so the writer stores a
// full one every few changes per object.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Json } from './merge-patch';
import { applyMergePatch } from './merge-patch';
import { decodeTextDelta, encodeTextDelta } from './text-delta';
import { VarintCursor, writeVarint } from './varint';

/**
 * - full: the JSON text, deflated alone (base is NULL);
 * - text: the JSON text, against the base's: an update against the object's previous version (what
 *   the writer stores), a new object against a sibling from the same template, and in recordings
 *   written before, updates a merge patch could not express;
 * - patch (read only): the merge patch from the base's canonical JSON, deflated against it;
 * - chainedPatch (read only, but for the re-encoding of an export's standalone versions): the merge
 *   patch from the base's version, compressed against the text the base's own payload held (its
 *   patch, or its JSON when it is whole).
 * - block (format 7 on): the JSON text, in a block of a list's versions deflated as one stream; the
 *   payload says where (see change-blocks.ts), base and hint are NULL. Read by VersionDecoder, which
 *   holds the blocks, never by decodeVersion.
 * A NULL payload, whatever the encoding, means "the same version as the base". With storedRaw set in
 * the encoding (format 2 on) the payload is the text itself, not deflated: for a short patch, zlib's
 * set-up costs more time than its few bytes save. With storedDelta set (format 5 on) the payload is a
 * text delta (text-delta.ts) against the very dictionary it would have been deflated against.
 */
export const VersionEncoding = { full: 0, text: 1, patch: 2, chainedPatch: 3, block: 4 } as const;
export type VersionEncoding = (typeof VersionEncoding)[keyof typeof VersionEncoding];

/** Flag in the stored encoding: the payload is the UTF-8 text, not deflated. */
export const storedRaw = 8;

/** Flag in the stored encoding: the payload is a text delta against the version's dictionary. */
export const storedDelta = 16;

/** The encoding without its storage flags. */
export function encodingKind(encoding: number): number {
  return encoding & ~(storedRaw | storedDelta);
}

/** Texts shorter than this (in bytes) are stored raw: deflating them saves a few dozen bytes at most. */
export const rawStorageLimit = 64;

/**
 * The longest text delta kept for a text of `length` bytes; a longer one is deflated instead. A
 * delta is mostly copies when the text repeats its dictionary (an update against the object's
 * previous version, a pod against its sibling): then it is about as small as deflate's output, for
 * a fraction of the time. When it is mostly inserts (an object rewritten), deflate's entropy coding
 * halves them, and the delta, abandoned as soon as it passes this, costs little. On the history
 * bench's pods (2.2 KB of JSON): every status update a delta, 38 bytes on average; new pods against
 * a sibling 141 bytes as deltas, and the 3% over this 241 bytes deflated.
 *
 * A quarter, not an eighth: the ui bench's churn (recording-profile --churn broad) rewrites whole
 * stretches of status (a pod into CrashLoopBackOff inserts ~470 bytes of reasons and messages, a
 * Deployment's and a ReplicaSet's conditions, an Event's message against its sibling's): at an
 * eighth 40% of its versions went to deflate, each a zlib stream set up with a dictionary (~30 us
 * and its 16 KB of output buffer) after the abandoned delta. At a quarter most stay deltas, for 14%
 * less of the recording worker's CPU per change (75.1 against 87.6 us, interleaved in one process)
 * and 10% more payload bytes (136 against 124 per change); a delta also decodes without zlib.
 */
function textDeltaLimit(length: number): number {
  return Math.max(rawStorageLimit, length / 4);
}

/**
 * Whole versions (full, text, patch against the base's JSON): zlib's default level and window, with a
 * hash table of 4,096 entries instead of 32,768. zlib allocates and clears that table on every call,
 * which for a pod's 2-4 KB of JSON cost more than the compression itself: the same bytes for about
 * 15% less time with a dictionary and 30% less without (medians of 1,440 calls, caches cleared
 * between calls as the recorder's own work clears them). Inflating does not depend on it.
 */
const wholeVersionZlib = { level: 6, memLevel: 4 } as const;

/**
 * Output chunks when deflating a whole version (its text alone, or against its base when a text
 * delta would be mostly inserts): zlib's default (16 KB) allocated a buffer four to sixteen times
 * what a pod's version deflates to on every call, outside the heap, which the recording worker's
 * collector then chased (allocating them was 7% of its profile under the ui bench's churn). A longer
 * output takes more chunks, as before; the bytes are the same.
 */
const wholeVersionChunk = 4096;
const textVersionChunk = 1024;

/**
 * chainedPatch payloads are deflated with a 4 KB window, the smallest hash table and 1 KB output
 * chunks: a patch and its dictionary, the previous patch, fit in them, and zlib sets up (allocates,
 * clears) far less per call, which is most of what deflating a few hundred bytes costs. Readers
 * inflate with the same window. Level 3 (greedy matching) finds the long runs a patch shares with
 * the previous one about as well as level 6 does. Measured on the bench's pod status patches (median
 * of 5,320 calls, caches cleared between calls): 69.6 bytes (69.1 at level 6), 7.7 us against 10.7 at
 * memory level 4 and 10.0 at level 6 with memory level 4.
 */
const chainedPatchZlib = { level: 3, windowBits: 12, memLevel: 1, chunkSize: 1024 } as const;

/**
 * Output chunks when inflating a whole version (full, text, patch): one 4 KB chunk holds a pod's 2-3
 * KB of JSON, where zlib's default (16 KB) allocated four times that per call. A longer version
 * takes more chunks, as before. Measured on a pod's text against a sibling's (20,000 calls): about
 * 20% less time per call, which a moment of 150,000 pods makes about 150,000 times.
 */
const wholeVersionInflateChunk = 4096;

/**
 * Deflates `text` against `baseJson` when given, preceded in the dictionary by `hintJson` (a sibling's
 * version that likely went through the same change: pods of one ReplicaSet are scheduled, started and
 * made ready with the same conditions, images and messages). Decoding needs the same two texts.
 */
export function encodeVersion(text: string | Buffer, baseJson?: string, hintJson?: string): Buffer {
  const input = typeof text === 'string' ? Buffer.from(text) : text;
  if (baseJson === undefined)
    return deflateRawSync(input, { ...wholeVersionZlib, chunkSize: wholeVersionChunk });
  return deflateRawSync(input, { ...wholeVersionZlib, dictionary: Buffer.from((hintJson ?? '') + baseJson) });
}

/**
 * A version's JSON (UTF-8) against `dictionary`, the JSON of its base (VersionEncoding.text): a text
 * delta when it is mostly copies (the returned encoding carries storedDelta), else deflated against
 * it. The writer's hot path: a status update against the object's previous version rewrites a few
 * values (times, counts, the resourceVersion) in place; a new pod against its sibling's differs in its
 * names, uids, addresses and times. A delta inserts those as they are.
 */
export function encodeTextVersion(input: Buffer, dictionary: Buffer): { encoding: number; payload: Buffer } {
  const delta = encodeTextDelta(input, dictionary, textDeltaLimit(input.length));
  if (delta !== undefined) return { encoding: VersionEncoding.text | storedDelta, payload: delta };
  return {
    encoding: VersionEncoding.text,
    payload: deflateRawSync(input, { ...wholeVersionZlib, dictionary, chunkSize: textVersionChunk }),
  };
}

/**
 * A full version written when what it was stored against goes (an export's versions live at its
 * start, tens of thousands at once), at zlib's fastest level: on the travel bench's pods, 15% less
 * time rewriting them for 4% more bytes per version (1,042 against 1,001). Decoded like any full
 * version: inflating does not depend on the level.
 */
export function encodeRewrittenVersion(text: string): Buffer {
  return deflateRawSync(Buffer.from(text), { ...wholeVersionZlib, level: 1 });
}

/**
 * A chainedPatch payload: `patch` (UTF-8) raw when short (the returned encoding carries storedRaw),
 * else a text delta against `dictionary`, the base's stored text as bytes (kept as a Buffer by the
 * writer so that no per-version conversion is needed), when mostly copies (storedDelta), else
 * deflated against it.
 */
export function encodeChainedPatch(patch: Buffer, dictionary: Buffer): { encoding: number; payload: Buffer } {
  if (patch.length < rawStorageLimit)
    return { encoding: VersionEncoding.chainedPatch | storedRaw, payload: patch };
  const delta = encodeTextDelta(patch, dictionary, textDeltaLimit(patch.length));
  if (delta !== undefined) return { encoding: VersionEncoding.chainedPatch | storedDelta, payload: delta };
  return {
    encoding: VersionEncoding.chainedPatch,
    payload: deflateRawSync(patch, { ...chainedPatchZlib, dictionary }),
  };
}

/**
 * A decoded version: its JSON text and its parsed form, each computed from the other on first use
 * (a chain of patches is applied tree to tree, and only the version asked for is serialized), and the
 * text its payload held, which a chainedPatch built on it was deflated against. Never mutated.
 */
export class DecodedVersion {
  private text: string | undefined;
  private parsed: Json | undefined;

  constructor(
    version: { readonly json: string } | { readonly tree: Json },
    /** What the payload inflated to: the merge patch, or the JSON of a whole version. */
    readonly stored: string,
  ) {
    if ('json' in version) this.text = version.json;
    else this.parsed = version.tree;
  }

  get json(): string {
    return (this.text ??= JSON.stringify(this.parsed));
  }

  get tree(): Json {
    if (this.parsed === undefined) this.parsed = JSON.parse(this.text!) as Json;
    return this.parsed;
  }
}

/** A version stored whole, as the base of others. */
export function wholeVersion(json: string): DecodedVersion {
  return new DecodedVersion({ json }, json);
}

/** The version stored as `payload` in `encoding` over the base version `base` (and `hintJson`). */
export function decodeVersion(
  encoding: number,
  payload: Uint8Array,
  base?: DecodedVersion,
  hintJson?: string,
): DecodedVersion {
  const kind = encodingKind(encoding);
  if (kind === VersionEncoding.full) {
    if ((encoding & storedDelta) !== 0)
      throw new Error(`a full version (encoding ${encoding}) is never a delta`);
    return wholeVersion(
      (encoding & storedRaw) !== 0
        ? textOf(payload)
        : inflateRawSync(payload, { chunkSize: wholeVersionInflateChunk }).toString(),
    );
  }
  if (base === undefined) throw new Error(`a version in encoding ${encoding} needs its base`);
  const text = payloadText(encoding, payload, base, hintJson);
  if (kind === VersionEncoding.text) return wholeVersion(text);
  if (kind !== VersionEncoding.patch && kind !== VersionEncoding.chainedPatch)
    throw new Error(`unknown version encoding ${encoding}`);
  // Both sides are canonical and the patch keeps key order, so the text is the writer's, byte for byte.
  return new DecodedVersion({ tree: applyMergePatch(base.tree, JSON.parse(text) as Json) }, text);
}

/**
 * The text a payload holds: stored raw, or a delta or deflated against its dictionary (a
 * chainedPatch's: the base's stored text; the others': the hint's JSON, then the base's).
 */
function payloadText(encoding: number, payload: Uint8Array, base: DecodedVersion, hintJson?: string): string {
  if ((encoding & storedRaw) !== 0) return textOf(payload);
  const chained = encodingKind(encoding) === VersionEncoding.chainedPatch;
  const dictionary = Buffer.from(chained ? base.stored : (hintJson ?? '') + base.json);
  if ((encoding & storedDelta) !== 0) return decodeTextDelta(payload, dictionary).toString();
  if (!chained)
    return inflateRawSync(payload, { chunkSize: wholeVersionInflateChunk, dictionary }).toString();
  return inflateRawSync(payload, {
    windowBits: chainedPatchZlib.windowBits,
    chunkSize: chainedPatchZlib.chunkSize,
    dictionary,
  }).toString();
}

function textOf(payload: Uint8Array): string {
  return Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength).toString();
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
  const cursor = new VarintCursor(bytes, 'keyframe members');
  let object = 0;
  while (!cursor.atEnd) {
    object += cursor.read();
    members.set(object, cursor.read());
  }
  return members;
}
