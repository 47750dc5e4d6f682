// The metric_samples and metric_series tables, written by the recording process: one row per poll of
// metrics.k8s.io per resource (pods, nodes) holding every sample of it (MetricSamples codec), and one
// metric_series row per pod container or node ever sampled. Only new samples are kept: metrics-server
// answers the same scrape until its next one (once per window), and a poll that read nothing newer
// writes no row, so the recording holds each object's usage at the API's resolution and no finer.
import { encodeMetricSamples } from './metric-sample-codec';
import type { EncodedSample } from './metric-sample-codec';
import type { MetricSamplesEntry, MetricSeriesDefinition } from './recording-protocol';
import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from './schema';

/**
 * How stale a series' last_time may be on disk. Rewriting it with every sample would update 150,000
 * rows per poll; retention only needs to know a series has had no sample since it was lagging, so
 * it drops series whose last_time is older than its start by more than this.
 */
export const seriesLastTimeLagMs = 3_600_000;

export class MetricSampleWriter {
  /** The Recorder's series numbers -> the file's series ids. */
  private readonly seriesIds = new Map<number, number>();
  /** By file series id: the newest sample timestamp written in this session. */
  private readonly written = new Map<number, number>();
  /** By file series id: its last_time as stored. */
  private readonly stored = new Map<number, number>();
  /** Definitions not yet on disk (their transaction failed): defined again before the next poll. */
  private pending: { resource: string; definition: MetricSeriesDefinition }[] = [];

  private readonly insertSeries: Statement<unknown[]>;
  private readonly findSeries: Statement<unknown[]>;
  private readonly touchSeries: Statement<unknown[]>;
  private readonly insertSamples: Statement<unknown[]>;

  constructor(private readonly database: SqliteDatabase) {
    this.insertSeries = database.prepare(
      `INSERT INTO metric_series (resource, namespace, name, uid, container, workload, last_time)
       VALUES (?, ?, ?, ?, ?, ?, 0) ON CONFLICT DO NOTHING RETURNING id, last_time`,
    );
    this.findSeries = database.prepare(
      `SELECT id, last_time FROM metric_series
       WHERE resource = ? AND namespace = ? AND name = ? AND uid = ? AND container = ?`,
    );
    this.touchSeries = database.prepare('UPDATE metric_series SET last_time = ? WHERE id = ?');
    this.insertSamples = database.prepare(
      'INSERT INTO metric_samples (resource, time, window_ms, payload) VALUES (?, ?, ?, ?)',
    );
  }

  /**
   * Writes the samples newer than those already written for their series. Series go first, in their
   * own transaction, and are retried with the next poll if it fails: a poll whose samples are lost
   * (a full disk) must not leave the Recorder numbering series the file never got.
   */
  write(entry: MetricSamplesEntry): void {
    for (const definition of entry.definitions) this.pending.push({ resource: entry.resource, definition });
    this.database.transaction(() => {
      for (const { resource, definition } of this.pending) this.define(resource, definition);
    })();
    this.pending = [];
    const fresh: EncodedSample[] = [];
    const touched: [series: number, timestamp: number][] = [];
    for (let index = 0; index < entry.series.length; index++) {
      const series = this.seriesIds.get(entry.series[index]!);
      const timestamp = entry.timestamps[index]!;
      if (series === undefined || timestamp <= (this.written.get(series) ?? -Infinity)) continue;
      if (timestamp - (this.stored.get(series) ?? 0) >= seriesLastTimeLagMs)
        touched.push([series, timestamp]);
      fresh.push({
        series,
        timestamp,
        windowMs: entry.windowsMs[index]!,
        millicores: entry.millicores[index]!,
        bytes: entry.bytes[index]!,
      });
    }
    if (fresh.length === 0) return;
    const { time, payload } = encodeMetricSamples(fresh);
    const windowMs = fresh.reduce((widest, sample) => Math.max(widest, sample.windowMs), 0);
    this.database.transaction(() => {
      this.insertSamples.run(entry.resource, time, windowMs, payload);
      for (const [series, timestamp] of touched) this.touchSeries.run(timestamp, series);
    })();
    // Only once on disk: a rolled-back poll is not taken as written.
    for (const sample of fresh) this.written.set(sample.series, sample.timestamp);
    for (const [series, timestamp] of touched) this.stored.set(series, timestamp);
  }

  /** Retention dropped series: forget their ids (a Recorder number still naming one writes nothing). */
  forgetDropped(): void {
    const kept = new Set(
      (this.database.prepare('SELECT id FROM metric_series').all() as { id: number }[]).map((row) => row.id),
    );
    for (const [number, id] of this.seriesIds) if (!kept.has(id)) this.seriesIds.delete(number);
    for (const id of this.stored.keys())
      if (!kept.has(id)) {
        this.stored.delete(id);
        this.written.delete(id);
      }
  }

  private define(resource: string, definition: MetricSeriesDefinition): void {
    const { namespace, name, uid, container, workload } = definition;
    // A new series' id comes back from its INSERT; only one the file already holds (an earlier
    // session's) is looked up. Defining series took 3.0 s of the recording worker's ~30 s of CPU in
    // a minute at 150,000 pods under churn; 150,000 definitions alone cost 1.17 s of CPU this way
    // against 1.37-1.52 s with a SELECT after each INSERT.
    const row = (this.insertSeries.get(resource, namespace, name, uid, container, workload) ??
      this.findSeries.get(resource, namespace, name, uid, container)) as { id: number; last_time: number };
    this.seriesIds.set(definition.series, row.id);
    this.stored.set(row.id, row.last_time);
  }
}

/** Drops the samples before `start`, and the series with none left (see seriesLastTimeLagMs). */
export function dropMetricSamplesBefore(database: SqliteDatabase, start: number): void {
  if (!hasMetricTables(database)) return;
  database.prepare('DELETE FROM metric_samples WHERE time < ?').run(start);
  database.prepare('DELETE FROM metric_series WHERE last_time < ?').run(start - seriesLastTimeLagMs);
}

/** False for a recording from before format 4: it holds no metric samples. */
export function hasMetricTables(database: SqliteDatabase): boolean {
  return (
    database.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'metric_samples'").get() !==
    undefined
  );
}
