// A moment's table rows from row frames: which change holds each object's version (the keyframe and
// the changes after it, as for any moment), the rows of those changes the frames hold (or the moment
// before kept), and for the others (the changes since the last frame, rows a frame could not keep)
// their change rows, to be decoded and projected as without frames. Ordered by key with the latest
// object of a name winning, as momentAt orders a moment: a kind is namespaced or not, so its keys
// ("namespace/name" or "name") order and compare as momentAt's "namespace/name" does.
import { parseGvrKey } from '../../shared/kube/object';
import { printerFor } from '../../shared/kinds/columns';
import { objectKey } from '../../shared/protocol/row';
import type { RecordingMark } from './recorded-change';
import type { ChangeRow, RecordingReader } from './recording-reader';
import { printerSignature } from './row-frame-codec';
import type { DecodedRowFrame } from './row-frame-decoder';
import type { FramedRows, RowFrameReader } from './row-frame-reader';
import { printerKeepsRows } from './row-frame-writer';
import type { StateQuery } from './state-at';
import { changeRows, gapAt, streamMembers, streamsOf } from './state-at';
import { lastChangeAt } from './stream-state';

/** A row of a moment as JSON text, kept for the moment asked next (see MomentRows). */
export interface KnownRow {
  readonly key: string;
  readonly namespace: string;
  /** JSON.stringify of the Row: one string, or a slice of the text of the chunk that sent it. */
  text: string;
}

/**
 * One row of a moment: known (from a frame, or kept from the moment before), or else its change row,
 * to decode and project.
 */
export interface MomentEntry {
  readonly key: string;
  readonly change: number;
  readonly known: KnownRow | undefined;
  readonly changeRow: ChangeRow | undefined;
}

export interface FramedMoment {
  /** In the moment's order, one per namespace/name. */
  readonly entries: MomentEntry[];
  readonly gap: RecordingMark | undefined;
}

/**
 * The moment of `query` from its streams' row frames, with rows `known` by change id (the moment
 * before's); undefined when a stream has no frame before the moment to read (the caller rebuilds the
 * moment from its versions).
 */
export function framedMoment(
  reader: RecordingReader,
  frames: RowFrameReader,
  query: StateQuery,
  known: ReadonlyMap<number, KnownRow>,
): FramedMoment | undefined {
  const printer = printerFor(parseGvrKey(query.gvr));
  if (!printerKeepsRows(printer)) return undefined;
  const signature = printerSignature(printer);
  const streams = streamsOf(reader, query);
  if (streams.length === 0) return undefined;
  let lastChange: number;
  try {
    lastChange = lastChangeAt(reader.database, query.time);
  } catch {
    return undefined;
  }
  const chains: FramedRows[] = [];
  for (const stream of streams) {
    const chain = frames.rowsAt(reader, stream.id, lastChange, signature);
    if (chain === undefined) return undefined;
    chains.push(chain);
  }
  const gap = gapAt(reader, new Set(streams.map((stream) => stream.id)), query.time);
  const namespace = query.namespace;
  const entries: MomentEntry[] = [];
  for (const [position, stream] of streams.entries()) {
    const members = streamMembers(reader, stream, query.time).members;
    // Each frame row whose change is still its object's at the moment is the object's row; taken
    // once (the object leaves `members`), whichever frame of the chain holds it.
    for (const frame of chains[position]) takeRows(frame, members, known, namespace, entries);
    // The changes since the chain's last frame, and rows a frame could not keep.
    const missing: number[] = [];
    for (const change of members.values()) {
      const kept = known.get(change);
      if (kept === undefined) missing.push(change);
      else if (namespace === undefined || kept.namespace === namespace)
        entries.push(entry(kept.key, change, kept, undefined));
    }
    for (const changeRow of changeRows(reader, stream, missing)) {
      if (namespace !== undefined && changeRow.namespace !== namespace) continue;
      const key = objectKey(changeRow.namespace, changeRow.name);
      entries.push(entry(key, changeRow.id, undefined, changeRow));
    }
  }
  entries.sort(byKeyThenChange);
  return { entries: latestPerKey(entries), gap };
}

/**
 * Adds to `entries` the rows of `frame` that `members` (object -> change) holds, taking them out of
 * `members`: those `known`, and the others made into JSON text here, in the frame's order (made in
 * the moment's order, each row read the columns of another frame at another place, and cache misses
 * made them three times as slow). The frame's new texts are joined into one string, and each row's
 * text is a slice of it: rows that stay for the next moment are then few objects for the garbage
 * collector to copy, where each its own string were 80 MB of them at 150,000 pods.
 */
function takeRows(
  frame: DecodedRowFrame,
  members: Map<number, number>,
  known: ReadonlyMap<number, KnownRow>,
  namespace: string | undefined,
  entries: MomentEntry[],
): void {
  const { objects, changes } = frame;
  const texts: string[] = [];
  const made: { readonly at: number; readonly change: number; readonly start: number }[] = [];
  let length = 0;
  for (let at = 0; at < objects.length; at++) {
    const change = changes[at];
    if (members.get(objects[at]) !== change) continue;
    members.delete(objects[at]);
    const kept = known.get(change);
    if (kept !== undefined) {
      if (namespace === undefined || kept.namespace === namespace)
        entries.push(entry(kept.key, change, kept, undefined));
    } else if (namespace === undefined || frame.namespace(at) === namespace) {
      const text = JSON.stringify(frame.row(at));
      made.push({ at, change, start: length });
      texts.push(text);
      length += text.length;
    }
  }
  const joined = texts.join('');
  for (const [index, { at, change, start }] of made.entries()) {
    const end = index + 1 < made.length ? made[index + 1].start : length;
    const row = { key: frame.key(at), namespace: frame.namespace(at), text: joined.slice(start, end) };
    entries.push(entry(row.key, change, row, undefined));
  }
}

/** A MomentEntry, its fields always in one order (one shape for every entry). */
export function entry(
  key: string,
  change: number,
  known: KnownRow | undefined,
  changeRow: ChangeRow | undefined,
): MomentEntry {
  return { key, change, known, changeRow };
}

function byKeyThenChange(left: MomentEntry, right: MomentEntry): number {
  if (left.key !== right.key) return left.key < right.key ? -1 : 1;
  return left.change - right.change;
}

/** `sorted` with only the last entry of each key: a name reused by a newer object. */
function latestPerKey(sorted: readonly MomentEntry[]): MomentEntry[] {
  const latest: MomentEntry[] = [];
  for (let index = 0; index < sorted.length; index++) {
    const next = sorted[index + 1];
    if (next === undefined || next.key !== sorted[index].key) latest.push(sorted[index]);
  }
  return latest;
}
