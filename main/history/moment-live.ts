// A moment as its difference from the live rows the renderer holds (a travel from live): which of
// the moment's rows the live rows lack or hold at another version, and which live keys the moment
// lacks. Compared by identity (uid and resourceVersion: a row is a function of its object's version,
// see MomentDifference), without making the text of a row that does not differ.
//
// What is read costs what changed between the moment and now, not the cluster's size: the live rows
// are compared with the recording's newest state, kept here between travels (NewestState), and the
// moment is read only where it differs from that state (the objects whose change moved since: from
// the members at the moment, integers, and the change rows of those that moved). A key differs from
// the live rows only if it moved since the moment, or if the live rows hold it otherwise than the
// recording's newest state (versions the recording missed or has not committed yet, keys it never
// knew, a gap): both are read at the moment and sent or deleted like any other difference, so the
// renderer ends exactly at the moment. Walking the moment's whole frame chain instead was 0.9-1.1 s
// of the worker at 150,000 pods.
import type { ChangeRow } from './recording-reader';
import { objectKey } from '../../shared/protocol/row';
import type { LiveIdentities, LiveIdentity } from './live-identities';
import { isLive } from './live-identities';
import { LiveComparisons } from './live-comparison';
import type { MomentRow } from './moment-order';
import { momentRow, sliceJoined } from './moment-order';
import type { NewestObject, NewestState, NewestStates } from './moment-newest';
import type { RecordingMark } from './recorded-change';
import type { RecordingReader } from './recording-reader';
import type { RowFrameReader } from './row-frame-reader';
import { framedChains } from './row-frame-moment';
import { replayLayoutOf } from './replay-layout';
import type { StateQuery } from './state-at';
import { changeRows, gapAt, streamsOf } from './state-at';
import type { MomentMembers } from './keyframe-members';

/**
 * A moment is sent against the live rows only when it holds at least this share of their count: a
 * much smaller one (before a scale-up, a recording's first seconds) would be more deletes than rows.
 */
const minimumBaseShare = 0.5;

/**
 * Rows left to decode from their versions for which the newest frames are read too: decoding a
 * hundred versions costs less than reading a chain its warmer may not have decoded yet.
 */
const minimumDecodedFromNewest = 100;

export interface LiveMoment {
  /** The rows the live rows lack or hold otherwise, in key order; text undefined until made. */
  readonly changed: MomentRow[];
  /** The moment's rows the live rows hold as they are (never made: text and change row undefined). */
  readonly held: MomentRow[];
  /** The live keys the moment lacks. */
  readonly deletes: string[];
  readonly gap: RecordingMark | undefined;
  /** The live keys whose rows were read at the moment (those of `changed` among them). */
  readonly live: ReadonlySet<string>;
}

/** A key's row at the moment: the change holding it, and where its identity comes from. */
interface AtMoment {
  readonly change: number;
  readonly namespace: string;
  readonly uid: string;
  readonly resourceVersion: string;
  /** The stream it was read from (for its change row, if it must be made). */
  readonly stream: number;
  /** Its change row, when read (an object whose change moved since the moment). */
  readonly changeRow: ChangeRow | undefined;
}

/**
 * `query`'s moment against `identities` (the live rows', see LiveListings), rows `known` by change id
 * reused for their text, the keys that differ from the newest state read from `comparisons` (kept
 * with the identities, see LiveComparison: a fresh one compares every row once); undefined when the
 * moment is too small a share of the live rows: then it is sent whole.
 */
export function liveMoment(
  reader: RecordingReader,
  frames: RowFrameReader,
  newest: NewestStates,
  query: StateQuery,
  known: ReadonlyMap<number, MomentRow>,
  identities: LiveIdentities,
  comparisons: LiveComparisons = new LiveComparisons(),
): LiveMoment | undefined {
  const streams = streamsOf(reader, query);
  // The moment's size first: a moment too small for the live rows (the recorder's first list still
  // being written, a recording's start) reads nothing of the newest state. Refreshed before it, that
  // state read every change the listing committed since the last travel (their change rows, and the
  // members whole at each of its keyframes): most of a travel into the listing gap, for nothing.
  const members = streams.map((stream) => newest.membersAt(reader, stream, query.time));
  const size = members.reduce((sum, stream) => sum + stream.size, 0);
  if (size < identities.size * minimumBaseShare) return undefined;
  const states = streams.map((stream) => newest.of(reader, stream));
  const namespace = query.namespace;
  const inScope = (rowNamespace: string) => namespace === undefined || rowNamespace === namespace;
  /** The keys whose row at the moment may differ from the live rows': the only ones read there. */
  const differing = new Set<string>();
  /** key -> the latest row at the moment among the objects whose change moved since it. */
  const moved = new Map<string, AtMoment>();
  for (const [position, stream] of streams.entries()) {
    const objects = states[position].newest;
    const atMoment = members[position];
    const changes: number[] = [];
    // Only the objects changed since the moment can be members then otherwise than now, unless a
    // reset came between (see touchedSince): then every member of either is compared.
    const through = atMoment.through;
    const touched = through === undefined ? undefined : states[position].touchedSince(reader, through);
    const compare = (object: number, change: number | undefined) => {
      const now = objects.get(object);
      if (now?.change === change) return;
      if (change !== undefined) changes.push(change);
      if (now !== undefined && inScope(now.namespace)) differing.add(now.key);
    };
    if (touched !== undefined) for (const object of touched) compare(object, atMoment.get(object));
    else {
      atMoment.forEach((change, object) => compare(object, change));
      for (const [object, now] of objects)
        if (!atMoment.has(object) && inScope(now.namespace)) differing.add(now.key);
    }
    // A change row that cannot be read (reported) leaves its object out of the moment, as a full
    // rebuild leaves out a version it cannot read.
    for (const changeRow of changeRows(reader, stream, changes)) {
      if (!inScope(changeRow.namespace)) continue;
      const key = objectKey(changeRow.namespace, changeRow.name);
      differing.add(key);
      const before = moved.get(key);
      if (before === undefined || before.change < changeRow.id) moved.set(key, atMomentOf(changeRow));
    }
  }
  // The keys the live rows hold otherwise than the newest state (versions the recording missed or has
  // not committed, keys it never knew), kept up to date between travels: read at the moment too.
  for (const key of comparisons.of(identities, states, namespace).update()) differing.add(key);
  /** The live identities of the keys read at the moment. */
  const live = new Map<string, LiveIdentity>();
  for (const key of differing) {
    const identity = identities.get(key);
    if (identity !== undefined) live.set(key, identity);
  }
  // Every other key of the newest state in scope is held by the live rows as it is, and did not move
  // since the moment: its row is the newest state's own (150,000 rows made anew were a tenth of the
  // travel). A pass over the newest state's keys, but no live row's identity read.
  const held: MomentRow[] = [];
  for (const state of states)
    state.forEachLatest((key, now) => {
      if (differing.has(key) || !inScope(now.namespace)) return;
      // Held by several streams: the latest change's (the one the live rows were compared with).
      if (states.length > 1 && latest(states, key) !== now) return;
      held.push(now);
    });
  const changed: MomentRow[] = [];
  const deletes: string[] = [];
  /** Rows to make that no frame or earlier moment holds: their change rows are read. */
  const unread = new Map<number, MomentRow>();
  const streamOf = new Map<number, number>();
  for (const key of differing) {
    const row = rowAt(key, moved.get(key), states, members, streams);
    if (row === undefined || !inScope(row.namespace)) {
      if (live.has(key)) deletes.push(key);
      continue;
    }
    if (isLive(live.get(key), row.uid, row.resourceVersion)) {
      held.push(momentRow(key, row.namespace, row.change, undefined, undefined));
      continue;
    }
    const text = known.get(row.change)?.text;
    const made = momentRow(key, row.namespace, row.change, text, row.changeRow);
    changed.push(made);
    if (text === undefined) {
      unread.set(row.change, made);
      streamOf.set(row.change, row.stream);
    }
  }
  textsFromFrames(reader, frames, query, streams, unread);
  readChangeRows(reader, streams, unread, streamOf);
  for (const row of unread.values())
    if (row.changeRow === undefined && live.has(row.key)) deletes.push(row.key);
  const made = changed.filter((row) => row.text !== undefined || row.changeRow !== undefined);
  made.sort((left, right) => (left.key < right.key ? -1 : left.key > right.key ? 1 : 0));
  const gap = gapAt(reader, new Set(streams.map((stream) => stream.id)), query.time);
  return { changed: made, held, deletes, gap, live: new Set(live.keys()) };
}

/**
 * Brings `comparisons`' comparison of `identities` with the newest state of `query`'s streams up to
 * date (made, one pass, if none is kept): what liveMoment reads, done ahead of a travel (see
 * LiveJournalFeed), so that the travel compares only the keys either side changed since.
 */
export function compareLive(
  reader: RecordingReader,
  newest: NewestStates,
  query: Omit<StateQuery, 'time'>,
  identities: LiveIdentities,
  comparisons: LiveComparisons,
): void {
  const states = streamsOf(reader, { ...query, time: 0 }).map((stream) => newest.of(reader, stream));
  comparisons.of(identities, states, query.namespace).update();
}

function atMomentOf(changeRow: ChangeRow): AtMoment {
  return {
    change: changeRow.id,
    namespace: changeRow.namespace,
    uid: changeRow.uid,
    resourceVersion: changeRow.resource_version,
    stream: changeRow.stream,
    changeRow,
  };
}

/** The object of the latest change holding `key` in the newest state of any stream. */
function latest(states: readonly NewestState[], key: string): NewestObject | undefined {
  let found: NewestObject | undefined;
  for (const state of states) {
    const now = state.latest(key);
    if (now !== undefined && (found === undefined || now.change > found.change)) found = now;
  }
  return found;
}

/**
 * `key`'s row at the moment: of the objects holding it then, the latest change's. Those are the
 * objects `moved` since (read at the moment) and those holding it now at the change they held then.
 */
function rowAt(
  key: string,
  moved: AtMoment | undefined,
  states: readonly NewestState[],
  members: readonly MomentMembers[],
  streams: readonly { readonly id: number }[],
): AtMoment | undefined {
  let found = moved;
  for (const [position, state] of states.entries())
    for (const holder of state.holders(key)) {
      if (members[position].get(holder.object) !== holder.change) continue;
      if (found !== undefined && found.change >= holder.change) continue;
      found = { ...holder, stream: streams[position].id, changeRow: undefined };
    }
  return found;
}

/** Gives each row of `unread` found in the moment's row frames its text, and takes it out. */
function textsFromFrames(
  reader: RecordingReader,
  frames: RowFrameReader,
  query: StateQuery,
  streams: readonly { readonly id: number }[],
  unread: Map<number, MomentRow>,
): void {
  if (unread.size === 0) return;
  // The moment's chain, then the newest one (decoded ahead by the warmer, see FrameWarmer): a row
  // changed after the moment's last frame and not again before the next frame is in that frame, and
  // taken from it, not decoded from its version (2,000 of 10,000 rows, 10 s back at 150,000 pods).
  const chains = [
    ...(framedChains(reader, frames, query, streams) ?? []),
    ...(unread.size >= minimumDecodedFromNewest
      ? (framedChains(reader, frames, { ...query, time: Number.MAX_SAFE_INTEGER }, streams) ?? [])
      : []),
  ];
  const layout = replayLayoutOf(query.gvr);
  const found: MomentRow[] = [];
  const texts: string[] = [];
  for (const chain of chains)
    for (const frame of chain) {
      if (unread.size === 0) break;
      const changes = frame.changes;
      for (let at = 0; at < changes.length; at++) {
        const row = unread.get(changes[at]);
        if (row === undefined) continue;
        // A change id names one version of one object: any frame holding it holds its row.
        const text = frame.text(at, layout);
        if (text === undefined) continue;
        found.push(row);
        texts.push(text);
        row.changeRow = undefined;
        unread.delete(changes[at]);
      }
    }
  // A frame's row text is a slice of the frame's whole text: kept, it would keep the frame.
  const owned = sliceJoined(texts);
  for (const [index, row] of found.entries()) row.text = owned[index];
}

/** Reads the change rows of the rows of `unread` that have none yet (their versions are decoded). */
function readChangeRows(
  reader: RecordingReader,
  streams: readonly { readonly id: number; readonly gvr: string; readonly scope: string }[],
  unread: ReadonlyMap<number, MomentRow>,
  streamOf: ReadonlyMap<number, number>,
): void {
  for (const stream of streams) {
    const ids: number[] = [];
    for (const row of unread.values())
      if (row.changeRow === undefined && streamOf.get(row.change) === stream.id) ids.push(row.change);
    for (const changeRow of changeRows(reader, stream, ids)) unread.get(changeRow.id)!.changeRow = changeRow;
  }
}
