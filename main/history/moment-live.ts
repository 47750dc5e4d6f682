// A moment as its difference from the live rows the renderer holds (a travel from live): which of
// the moment's rows the live rows lack or hold at another version, and which live keys the moment
// lacks. Each row of the moment is compared by identity (uid and resourceVersion: a row is a function
// of its object's version, see MomentDifference) as the row frames or change rows give it, without
// making its text: only the rows that differ are made (from a frame, a row of the moment before, or
// their versions) and sent. A moment 10 s before the present of 150,000 pods differs in a few
// thousand rows; made whole, it was 150,000 rows of JSON made here, sent to main and compared there.
//
// The live rows may hold keys the recording never knew, or versions it missed (a gap): compared
// with the moment itself, not with the recording's present, they are sent or deleted like any other
// difference, so the renderer ends exactly at the moment.
import { objectKey } from '../../shared/protocol/row';
import { isIdentity } from '../bridge/base-identities';
import type { MomentRow } from './moment-order';
import { momentRow } from './moment-order';
import type { RecordingMark } from './recorded-change';
import type { RecordingReader } from './recording-reader';
import type { RowFrameReader } from './row-frame-reader';
import { framedChains } from './row-frame-moment';
import type { StateQuery } from './state-at';
import { changeRows, gapAt, momentAt, streamMembers, streamsOf } from './state-at';

/**
 * A moment is sent against the live rows only when it holds at least this share of their count: a
 * much smaller one (before a scale-up, a recording's first seconds) would be more deletes than rows.
 */
const minimumBaseShare = 0.5;

export interface LiveMoment {
  /** The rows the live rows lack or hold otherwise, in key order; text undefined until made. */
  readonly changed: MomentRow[];
  /** The moment's rows the live rows hold as they are (never made: text and change row undefined). */
  readonly held: MomentRow[];
  /** The live keys the moment lacks. */
  readonly deletes: string[];
  readonly gap: RecordingMark | undefined;
}

/** One key's row of the moment so far, and whether the live rows hold it as it is. */
interface Entry {
  row: MomentRow;
  held: boolean;
}

/**
 * `query`'s moment against `live` (key -> identity, see parseIdentities), rows `known` by change id
 * reused for their text; undefined when the moment is too small a share of the live rows.
 */
export function liveMoment(
  reader: RecordingReader,
  frames: RowFrameReader,
  query: StateQuery,
  known: ReadonlyMap<number, MomentRow>,
  live: ReadonlyMap<string, string>,
): LiveMoment | undefined {
  const streams = streamsOf(reader, query);
  const members = streams.map((stream) => streamMembers(reader, stream, query.time).members);
  const size = members.reduce((sum, stream) => sum + stream.size, 0);
  if (size < live.size * minimumBaseShare) return undefined;
  const byKey = new Map<string, Entry>();
  /** Adds a row of the moment: of a key met twice (a name reused), the later change's. */
  const take = (key: string, namespace: string, change: number, held: boolean, text?: string) => {
    const existing = byKey.get(key);
    if (existing !== undefined && existing.row.change > change) return;
    byKey.set(key, { row: momentRow(key, namespace, change, held ? undefined : text, undefined), held });
  };
  /** A row's text made before (by the moment before), if any. */
  const knownText = (change: number) => known.get(change)?.text;
  const chains = framedChains(reader, frames, query, streams);
  const namespace = query.namespace;
  for (const [position, stream] of streams.entries()) {
    const objects = members[position];
    for (const frame of chains?.[position] ?? []) {
      const { objects: frameObjects, changes } = frame;
      for (let at = 0; at < frameObjects.length; at++) {
        const change = changes[at];
        if (objects.get(frameObjects[at]) !== change) continue;
        objects.delete(frameObjects[at]);
        const rowNamespace = frame.namespace(at);
        if (namespace !== undefined && rowNamespace !== namespace) continue;
        const key = frame.key(at);
        const held = isIdentity(live.get(key), frame.uid(at), frame.resourceVersion(at));
        take(
          key,
          rowNamespace,
          change,
          held,
          held ? undefined : (knownText(change) ?? JSON.stringify(frame.row(at))),
        );
      }
    }
    // The changes since the chain's last frame (or every change, without frames): their rows say
    // which version they are; only those that differ are decoded (see MomentRows).
    const rest = chains ? changeRows(reader, stream, [...objects.values()]) : undefined;
    for (const changeRow of rest ?? momentAt(reader, query).rows) {
      if (namespace !== undefined && changeRow.namespace !== namespace) continue;
      const key = objectKey(changeRow.namespace, changeRow.name);
      const held = isIdentity(live.get(key), changeRow.uid, changeRow.resource_version);
      take(key, changeRow.namespace, changeRow.id, held, held ? undefined : knownText(changeRow.id));
      const entry = byKey.get(key)!;
      if (entry.row.change === changeRow.id && !held && entry.row.text === undefined)
        entry.row.changeRow = changeRow;
    }
    // Without frames, momentAt read every stream at once.
    if (!chains) break;
  }
  const changed: MomentRow[] = [];
  const held: MomentRow[] = [];
  for (const entry of byKey.values()) (entry.held ? held : changed).push(entry.row);
  changed.sort((left, right) => (left.key < right.key ? -1 : left.key > right.key ? 1 : 0));
  const deletes: string[] = [];
  for (const key of live.keys()) if (!byKey.has(key)) deletes.push(key);
  const gap = gapAt(reader, new Set(streams.map((stream) => stream.id)), query.time);
  return { changed, held, deletes, gap };
}
