// A moment's table rows from row frames: which change holds each object's version (the keyframe and
// the changes after it, as for any moment), the rows of those changes the frames hold, and for the
// others (the changes since the last frame, rows a frame could not keep) their change rows, to be
// decoded and projected as without frames. Ordered by key with the latest object of a name winning,
// as momentAt orders a moment: a kind is namespaced or not, so its keys ("namespace/name" or "name")
// order and compare as momentAt's "namespace/name" does.
import { parseGvrKey } from '../../shared/kube/object';
import { printerFor } from '../../shared/kinds/columns';
import type { Row } from '../../shared/protocol/row';
import { objectKey } from '../../shared/protocol/row';
import type { RecordingMark } from './recorded-change';
import type { ChangeRow, RecordingReader } from './recording-reader';
import { printerSignature } from './row-frame-codec';
import type { FramedRows, RowFrameReader } from './row-frame-reader';
import { framedRow } from './row-frame-reader';
import { printerKeepsRows } from './row-frame-writer';
import type { StateQuery } from './state-at';
import { changeRows, gapAt, streamMembers, streamsOf } from './state-at';
import { lastChangeAt } from './stream-state';

/** One row of a moment: known (from a frame or the moment before), or its change row to decode. */
export interface MomentEntry {
  readonly key: string;
  readonly change: number;
  readonly row: Row | undefined;
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
  known: ReadonlyMap<number, Row>,
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
  const framed: FramedRows[] = [];
  for (const stream of streams) {
    const rows = frames.rowsAt(reader, stream.id, lastChange, signature);
    if (rows === undefined) return undefined;
    framed.push(rows);
  }
  const gap = gapAt(reader, new Set(streams.map((stream) => stream.id)), query.time);
  const entries: MomentEntry[] = [];
  for (const [position, stream] of streams.entries()) {
    const members = streamMembers(reader, stream, query.time).members;
    const rows = framed[position];
    const missing: number[] = [];
    const add = (change: number, row: Row | undefined) => {
      if (row === undefined) missing.push(change);
      else if (query.namespace === undefined || row.namespace === query.namespace)
        entries.push({ key: row.key, change, row, changeRow: undefined });
    };
    // The chain's full frame lists its objects by key: taken in its order, the moment's entries need
    // next to no sorting. An object whose change is still the frame's takes the frame's row.
    const base = rows.base;
    for (let at = 0; at < base.objects.length; at++) {
      const object = base.objects[at];
      const change = members.get(object);
      if (change === undefined) continue;
      members.delete(object);
      add(
        change,
        change === base.changes[at] ? base.row(at) : (framedRow(rows, change) ?? known.get(change)),
      );
    }
    for (const change of members.values()) add(change, framedRow(rows, change) ?? known.get(change));
    for (const changeRow of changeRows(reader, stream, missing)) {
      if (query.namespace !== undefined && changeRow.namespace !== query.namespace) continue;
      const key = objectKey(changeRow.namespace, changeRow.name);
      entries.push({ key, change: changeRow.id, row: undefined, changeRow });
    }
  }
  entries.sort(byKeyThenChange);
  return { entries: latestPerKey(entries), gap };
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
