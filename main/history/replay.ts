// Questions about moments and ranges of a recording: what it covers, how busy each kind was when, where
// its gaps and relists are, what an informer's cache held at a moment, and the changes between two
// moments in batches for playback.
import type { RecordedChange, RecordingMark } from './recorded-change';
import type { ChangeRow, RecordingReader } from './recording-reader';
import type { MarkRow } from './mark-rows';
import { markColumns, markOfRow } from './mark-rows';
import { lastChangeAt } from './stream-state';

export interface TimeRange {
  readonly start: number;
  readonly end: number;
}

/** The span a recording covers: from its start (or first change) to its last write. */
export function timeRange(reader: RecordingReader): TimeRange | undefined {
  const row = reader.guard(
    'time range',
    undefined,
    () =>
      reader.database
        .prepare(
          `SELECT (SELECT min(time) FROM changes) AS first, (SELECT max(time) FROM changes) AS last,
                (SELECT max(coalesce(end, start)) FROM marks) AS lastMark`,
        )
        .get() as { first: number | null; last: number | null; lastMark: number | null },
  );
  const first = reader.metadata.start ?? row?.first ?? undefined;
  const ends = [row?.last, row?.lastMark, reader.metadata.lastWritten].filter(
    (end): end is number => typeof end === 'number',
  );
  if (first === undefined || ends.length === 0) return undefined;
  return { start: first, end: Math.max(first, ...ends) };
}

export interface DensityOptions {
  readonly from: number;
  readonly to: number;
  readonly buckets: number;
}

/** Changes per kind (gvr) in `buckets` equal slices of [from, to), for a timeline's density strip. */
export function eventDensity(reader: RecordingReader, options: DensityOptions): Map<string, number[]> {
  const { from, to, buckets } = options;
  const result = new Map<string, number[]>();
  if (to <= from || buckets <= 0) return result;
  const rows = reader.guard(
    'event density',
    [],
    () =>
      reader.database
        .prepare(
          `SELECT stream, CAST((time - ?) * ? / (? - ?) AS INTEGER) AS bucket, count(*) AS count
         FROM changes WHERE time >= ? AND time < ? GROUP BY stream, bucket`,
        )
        .all(from, buckets, to, from, from, to) as { stream: number; bucket: number; count: number }[],
  );
  for (const row of rows) {
    const gvr = reader.stream(row.stream)?.gvr ?? '';
    let counts = result.get(gvr);
    if (!counts) result.set(gvr, (counts = new Array<number>(buckets).fill(0)));
    counts[Math.min(row.bucket, buckets - 1)] += row.count;
  }
  return result;
}

/** Gaps and relists overlapping [from, to], in order of start. */
export function recordingMarks(reader: RecordingReader, from: number, to: number): RecordingMark[] {
  const rows = reader.guard(
    'marks',
    [],
    () =>
      reader.database
        .prepare(
          `SELECT ${markColumns} FROM marks WHERE start <= ? AND coalesce(end, ?) >= ? ORDER BY start, id`,
        )
        .all(to, Number.MAX_SAFE_INTEGER, from) as MarkRow[],
  );
  return rows.map((row) => markOfRow(reader, row));
}

export type { ReplayState, StateQuery } from './state-at';
export { stateAt } from './state-at';

export interface PlaybackOptions {
  /** Changes after this moment (the state at `from` is stateAt's)... */
  readonly from: number;
  /** ...up to and including this one. */
  readonly to: number;
  /** Recorded time each batch covers, in ms (default 100: ten batches per second at 1x). */
  readonly batchMs?: number;
  readonly gvrs?: readonly string[];
  readonly namespaces?: readonly string[];
}

/** A batch of playback: the changes stamped in (start, end], oldest first. */
export interface PlaybackBatch {
  readonly start: number;
  readonly end: number;
  readonly changes: RecordedChange[];
}

/**
 * The changes in (from, to] as batches of batchMs of recorded time, empty ones skipped. A player at
 * speed S waits (batch.end - previous.end) / S between batches and applies each one as a live batch.
 */
export function* playback(reader: RecordingReader, options: PlaybackOptions): Generator<PlaybackBatch> {
  const batchMs = options.batchMs ?? 100;
  const decoder = reader.decoder();
  let batch: PlaybackBatch | undefined;
  for (const row of playbackRows(reader, options)) {
    if (batch && row.time > batch.end) {
      yield batch;
      batch = undefined;
    }
    if (!batch) {
      const index = Math.floor((row.time - options.from - 1) / batchMs);
      batch = {
        start: options.from + index * batchMs,
        end: Math.min(options.to, options.from + (index + 1) * batchMs),
        changes: [],
      };
    }
    batch.changes.push(reader.toChange(row, decoder));
  }
  if (batch) yield batch;
}

/** The rows of the changes playback() plays (in (from, to], of its kinds and namespaces), in order. */
export function playbackRows(
  reader: RecordingReader,
  options: Pick<PlaybackOptions, 'from' | 'to' | 'gvrs' | 'namespaces'>,
): Generator<ChangeRow> {
  const afterId = reader.guard('changes by time', 0, () => lastChangeAt(reader.database, options.from));
  const throughId = reader.guard('changes by time', reader.lastChangeId(), () =>
    lastChangeAt(reader.database, options.to),
  );
  const conditions: string[] = ['1'];
  const parameters: unknown[] = [];
  if (options.gvrs) {
    const ids = reader
      .streams()
      .filter((stream) => options.gvrs!.includes(stream.gvr))
      .map((stream) => stream.id);
    conditions.push(`c.stream IN (${ids.map(() => '?').join(',') || 'NULL'})`);
    parameters.push(...ids);
  }
  if (options.namespaces) {
    conditions.push(`o.namespace IN (${options.namespaces.map(() => '?').join(',') || 'NULL'})`);
    parameters.push(...options.namespaces);
  }
  return reader.scan('playback', conditions.join(' AND '), parameters, afterId, throughId);
}
