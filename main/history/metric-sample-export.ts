// The metric samples an export carries: the polls of its range, and the series they name. Called by
// exportRecording (see copyMetricSamples's comment for where), in the export worker.
import { decodeMetricSamples, encodeMetricSamples } from './metric-sample-codec';
import type { EncodedSample } from './metric-sample-codec';
import { hasMetricTables } from './metric-sample-store';
import type { SqliteDatabase } from './schema';

export interface MetricSampleExportRange {
  /** Polls whose time is in (from, to], as the export's changes. */
  readonly from: number;
  readonly to: number;
  /** Only these namespaces' pods (nodes are cluster-scoped: namespace ""). */
  readonly namespaces?: readonly string[] | undefined;
  /** Which resources' samples go: "pods" with the export's pods, "nodes" with its nodes. */
  readonly resources: readonly ('pods' | 'nodes')[];
}

interface SeriesRow {
  id: number;
  resource: string;
  namespace: string;
  name: string;
  uid: string;
  container: string;
  workload: string;
  last_time: number;
}

/**
 * Copies the metric samples of `range` from `source` into `destination` (a new export file, schema
 * created, inside its transaction); returns the samples copied. Series keep their ids. Without a
 * namespace filter payloads are copied as stored; with one, each pods poll is re-encoded with the
 * samples of those namespaces only. A source from before format 4 holds none.
 *
 * exportRecording calls it once, after the changes and marks, as it does copyCrashLogs:
 *   reader.guard('metric samples', 0, () => copyMetricSamples(reader.database, database, {
 *     ...options, resources }))
 * with resources: "pods" when !options.gvrs or it includes "pods.v1", "nodes" likewise "nodes.v1".
 */
export function copyMetricSamples(
  source: SqliteDatabase,
  destination: SqliteDatabase,
  range: MetricSampleExportRange,
): number {
  if (!hasMetricTables(source) || range.resources.length === 0) return 0;
  const series = new Map(
    (source.prepare('SELECT * FROM metric_series').all() as SeriesRow[]).map((row) => [row.id, row]),
  );
  const namespaces = range.namespaces && new Set(range.namespaces);
  const insert = destination.prepare(
    'INSERT INTO metric_samples (resource, time, window_ms, payload) VALUES (?, ?, ?, ?)',
  );
  const named = new Set<number>();
  let copied = 0;
  for (const resource of range.resources) {
    const rows = source
      .prepare(
        'SELECT time, window_ms, payload FROM metric_samples WHERE resource = ? AND time > ? AND time <= ? ORDER BY id',
      )
      .iterate(resource, range.from, range.to) as IterableIterator<{
      time: number;
      window_ms: number;
      payload: Buffer;
    }>;
    for (const row of rows) {
      const kept: EncodedSample[] = [];
      let all = true;
      decodeMetricSamples(row.time, row.payload, (sample) => {
        const namespace = series.get(sample.series)?.namespace ?? '';
        if (resource === 'pods' && namespaces && !namespaces.has(namespace)) all = false;
        else kept.push(sample);
      });
      if (kept.length === 0) continue;
      const encoded = all ? { time: row.time, payload: row.payload } : encodeMetricSamples(kept);
      insert.run(resource, encoded.time, row.window_ms, encoded.payload);
      for (const sample of kept) named.add(sample.series);
      copied += kept.length;
    }
  }
  const insertSeries = destination.prepare(
    `INSERT INTO metric_series (id, resource, namespace, name, uid, container, workload, last_time)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const id of [...named].sort((left, right) => left - right)) {
    const row = series.get(id);
    if (row)
      insertSeries.run(
        row.id,
        row.resource,
        row.namespace,
        row.name,
        row.uid,
        row.container,
        row.workload,
        row.last_time,
      );
  }
  return copied;
}
