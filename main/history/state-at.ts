// What an informer's cache held at a moment of a recording: which change holds each object's version
// (the nearest keyframe plus the changes after it), then those versions decoded. Rebuilding a moment
// reads every object of a kind, up to 150,000 pods, so both steps read in bulk (a query per thousand
// rows, a query per level of the version chains) rather than one query per object.
import type { KubeObject } from '../../shared/kube/object';
import type { Json } from './merge-patch';
import type { RecordedChange, RecordingMark } from './recorded-change';
import { isDeletion } from './recorded-change';
import type { ChangeRow, ReaderStream, RecordingReader } from './recording-reader';
import { changeColumns } from './recording-reader';
import { messageOf, problemKindOf } from './recording-error';
import type { MarkRow } from './mark-rows';
import { markColumns, markOfRow } from './mark-rows';
import { lastChangeAt, membersAt } from './stream-state';
import type { StreamMembers } from './stream-state';

export interface StateQuery {
  /** gvrKey of the kind, e.g. "pods.v1", "deployments.v1.apps". */
  readonly gvr: string;
  /** Only this namespace's objects; undefined for all. */
  readonly namespace?: string;
  readonly time: number;
}

export interface ReplayState {
  readonly time: number;
  /** Objects the informer cache held at `time`, ordered by namespace/name. */
  readonly objects: KubeObject[];
  /** The changes holding those versions (same order), for their delta type, time and resourceVersion. */
  readonly changes: RecordedChange[];
  /** False when damage hid some of it (see the reader's problems). */
  readonly complete: boolean;
  /**
   * Set when `time` is inside a gap of the kind's streams (or of the whole recording): the objects are
   * then the last state known before it, not what the cluster held, and the gap says why.
   */
  readonly gap?: RecordingMark;
}

/** A moment before its versions are decoded. */
export interface Moment {
  /** The change holding each object's version at the moment, ordered by namespace/name. */
  readonly rows: ChangeRow[];
  /** The gap covering the moment, if any (see ReplayState.gap). */
  readonly gap: RecordingMark | undefined;
}

/** Change rows read per query; also the versions decoded per read-ahead (see versionsOf). */
const rowsPerQuery = 1000;

/**
 * What the informer cache(s) of `gvr` held at `time`: the nearest keyframe plus the changes after it.
 * When several informers recorded the kind (all namespaces and single ones), their states are merged,
 * the latest version of each namespace/name winning.
 */
export function stateAt(reader: RecordingReader, query: StateQuery): ReplayState {
  const problemsBefore = reader.problems.length;
  const moment = momentAt(reader, query);
  const decoder = reader.decoder();
  const changes: RecordedChange[] = [];
  for (let index = 0; index < moment.rows.length; index += rowsPerQuery) {
    const chunk = moment.rows.slice(index, index + rowsPerQuery);
    decoder.prefetch(chunk.map((row) => row.id));
    for (const row of chunk) {
      const change = reader.toChange(row, decoder);
      if (change.object !== undefined) changes.push(change);
    }
  }
  return {
    time: query.time,
    objects: changes.map((change) => change.object!),
    changes,
    complete: reader.problems.length === problemsBefore,
    ...(moment.gap ? { gap: moment.gap } : {}),
  };
}

/** Which changes hold the versions of `query`'s objects at its moment, and the gap covering it. */
export function momentAt(reader: RecordingReader, query: StateQuery): Moment {
  const streams = streamsOf(reader, query);
  const gap = gapAt(reader, new Set(streams.map((stream) => stream.id)), query.time);
  const members = streams.map((stream) => [...streamMembers(reader, stream, query.time).members.values()]);
  // One informer recorded the kind (the usual case): SQLite sorts its rows as it reads them.
  const sorted = streams.length === 1 ? sortedChangeRows(reader, members[0], query.namespace) : undefined;
  if (sorted) return { rows: latestPerKey(sorted), gap };
  const latest = new Map<string, ChangeRow>();
  for (const [index, stream] of streams.entries()) {
    for (const row of changeRows(reader, stream, members[index])) {
      if (query.namespace !== undefined && row.namespace !== query.namespace) continue;
      const key = `${row.namespace}/${row.name}`;
      const known = latest.get(key);
      if (!known || known.id < row.id) latest.set(key, row);
    }
  }
  const rows = [...latest.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
  return { rows, gap };
}

/** The streams recording `query`'s kind: informers of all namespaces, and of its namespace if given. */
export function streamsOf(reader: RecordingReader, query: StateQuery): ReaderStream[] {
  return reader
    .streams()
    .filter(
      (stream) =>
        stream.gvr === query.gvr &&
        (query.namespace === undefined || stream.scope === '' || stream.scope === query.namespace),
    );
}

/**
 * The rows of the changes `ids` (in `namespace`, if given) in one query, ordered by namespace/name and
 * then id: a query per thousand rows and a sort of 150,000 keys here cost half as much again. SQLite
 * compares the keys' UTF-8 bytes and JavaScript their UTF-16 units, which order alike below U+E000
 * (object names and namespaces are DNS labels and subdomains: ASCII). Undefined when the query
 * fails, so that changeRows can isolate the damage.
 */
function sortedChangeRows(
  reader: RecordingReader,
  ids: readonly number[],
  namespace: string | undefined,
): ChangeRow[] | undefined {
  const inNamespace = namespace === undefined ? '' : 'AND o.namespace = ?';
  try {
    const select = reader.database.prepare(
      `SELECT ${changeColumns} WHERE c.id IN (SELECT value FROM json_each(?)) ${inNamespace}
       ORDER BY o.namespace || '/' || o.name, c.id`,
    );
    const list = JSON.stringify(ids);
    return (namespace === undefined ? select.all(list) : select.all(list, namespace)) as ChangeRow[];
  } catch {
    return undefined;
  }
}

/** `sorted` (by key, then id) with only the last row of each key: a name reused by a newer object. */
function latestPerKey(sorted: readonly ChangeRow[]): ChangeRow[] {
  const rows: ChangeRow[] = [];
  for (let index = 0; index < sorted.length; index++) {
    const row = sorted[index];
    const next = sorted[index + 1];
    if (next === undefined || next.namespace !== row.namespace || next.name !== row.name) rows.push(row);
  }
  return rows;
}

/**
 * The parsed versions of `rows`, in order, each chunk's version chains read ahead in bulk. A version
 * that cannot be read is reported as a problem, and left out like a deletion's. The trees are the
 * decoder's own, shared with its memo: read them, never mutate them. Yielded one at a time so that a
 * caller keeping only what it reads from each (a row) lets the tree die young.
 */
export function* versionsOf(
  reader: RecordingReader,
  rows: readonly ChangeRow[],
  decoder = reader.decoder(),
): Generator<{ readonly row: ChangeRow; readonly version: Json }> {
  for (let index = 0; index < rows.length; index += rowsPerQuery) {
    const chunk = rows.slice(index, index + rowsPerQuery);
    decoder.prefetch(chunk.map((row) => row.id));
    for (const row of chunk) {
      const version = reader.guard(`version of ${row.namespace}/${row.name} (change ${row.id})`, null, () =>
        decoder.tree(row.id),
      );
      if (version !== null) yield { row, version };
    }
  }
}

/**
 * The rows of the changes `ids` of `stream`, read a thousand per query. A query that fails is retried
 * one change at a time, so damage costs the rows it hides (each reported), not its neighbours.
 */
export function changeRows(
  reader: RecordingReader,
  stream: ReaderStream,
  ids: readonly number[],
): ChangeRow[] {
  const selectMany = reader.database.prepare(
    `SELECT ${changeColumns} WHERE c.id IN (SELECT value FROM json_each(?))`,
  );
  const selectOne = reader.database.prepare(`SELECT ${changeColumns} WHERE c.id = ?`);
  const rows: ChangeRow[] = [];
  for (let index = 0; index < ids.length; index += rowsPerQuery) {
    const chunk = ids.slice(index, index + rowsPerQuery);
    try {
      rows.push(...(selectMany.all(JSON.stringify(chunk)) as ChangeRow[]));
      continue;
    } catch {
      // Isolated below, change by change.
    }
    for (const changeId of chunk) {
      const row = reader.guard(
        `change ${changeId} of ${stream.gvr}`,
        undefined,
        () => selectOne.get(changeId) as ChangeRow | undefined,
      );
      if (row) rows.push(row);
    }
  }
  return rows;
}

/**
 * The gap covering `time` for one of `streams` or the whole recording, if any. A gap covers
 * [start, end): at its end the list that closed it is in the recording.
 */
export function gapAt(
  reader: RecordingReader,
  streams: ReadonlySet<number>,
  time: number,
): RecordingMark | undefined {
  const rows = reader.guard(
    'gaps',
    [],
    () =>
      reader.database
        .prepare(
          `SELECT ${markColumns} FROM marks WHERE kind = 'gap' AND start <= ? AND coalesce(end, ?) > ? ORDER BY start, id`,
        )
        .all(time, Number.MAX_SAFE_INTEGER, time) as MarkRow[],
  );
  const row = rows.find((candidate) => candidate.stream === null || streams.has(candidate.stream));
  if (!row) return undefined;
  return markOfRow(reader, row);
}

/** The stream's members at `time`; if keyframes cannot be read, rebuilt from every readable change. */
export function streamMembers(reader: RecordingReader, stream: ReaderStream, time: number): StreamMembers {
  try {
    return membersAt(reader.database, stream.id, time);
  } catch (error) {
    const where = `keyframe of ${stream.gvr} at ${new Date(time).toISOString()}`;
    reader.problems.push({ kind: problemKindOf(error), where, message: messageOf(error) });
  }
  const members = new Map<number, number>();
  const last = reader.guard('changes by time', reader.lastChangeId(), () =>
    lastChangeAt(reader.database, time),
  );
  for (const row of reader.scan(`rebuilding ${stream.gvr}`, 'c.stream = ?', [stream.id], 0, last)) {
    if (isDeletion(row.type)) members.delete(row.object);
    else members.set(row.object, row.id);
  }
  return { members, keyframeTime: undefined };
}
