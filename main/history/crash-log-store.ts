// The crash_logs table: the last logs of container runs that ended (see CrashLogCapture), deflated
// like versions, found by the pod's uid and the time of the change that showed the run ended.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { RecordedCrashLog } from '../../shared/protocol/history-messages';
import type { CrashLogEntry } from './recording-protocol';

export type { RecordedCrashLog };
import type { SqliteDatabase } from './schema';

export function writeCrashLog(database: SqliteDatabase, entry: CrashLogEntry): void {
  database
    .prepare(
      `INSERT INTO crash_logs (time, uid, namespace, pod, container, container_id, exit_code, reason,
         finished_at, truncated, problem, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      entry.time,
      entry.uid,
      entry.namespace,
      entry.pod,
      entry.container,
      entry.containerId,
      entry.exitCode ?? null,
      entry.reason,
      entry.finishedAt ?? null,
      entry.truncated ? 1 : 0,
      entry.problem ?? null,
      deflateRawSync(Buffer.from(entry.logs)),
    );
}

interface CrashLogRow {
  time: number;
  uid: string;
  namespace: string;
  pod: string;
  container: string;
  container_id: string;
  exit_code: number | null;
  reason: string;
  finished_at: string | null;
  truncated: number;
  problem: string | null;
  payload: Buffer;
}

/**
 * The crash logs recorded for the pod `uid` at or before `time`, newest first. A recording from
 * before format 3 has no crash_logs table: it holds none.
 */
export function crashLogsAt(database: SqliteDatabase, uid: string, time: number): RecordedCrashLog[] {
  const table = database
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'crash_logs'")
    .get();
  if (!table) return [];
  const rows = database
    .prepare('SELECT * FROM crash_logs WHERE uid = ? AND time <= ? ORDER BY time DESC, id DESC')
    .all(uid, time) as CrashLogRow[];
  return rows.map((row) => ({
    time: row.time,
    uid: row.uid,
    namespace: row.namespace,
    pod: row.pod,
    container: row.container,
    containerId: row.container_id,
    exitCode: row.exit_code ?? undefined,
    reason: row.reason,
    finishedAt: row.finished_at ?? undefined,
    logs: inflateRawSync(row.payload).toString(),
    truncated: row.truncated !== 0,
    problem: row.problem ?? undefined,
  }));
}

/**
 * Copies the crash logs of (from, to] (the changes an export carries; only pods in `namespaces`
 * when given) from `source` into `destination`, payloads as stored. A source from before format 3
 * holds none.
 */
export function copyCrashLogs(
  source: SqliteDatabase,
  destination: SqliteDatabase,
  range: { readonly from: number; readonly to: number; readonly namespaces?: readonly string[] | undefined },
): number {
  const table = source
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'crash_logs'")
    .get();
  if (!table) return 0;
  const insert = destination.prepare(
    `INSERT INTO crash_logs (time, uid, namespace, pod, container, container_id, exit_code, reason,
       finished_at, truncated, problem, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const namespaces = range.namespaces && new Set(range.namespaces);
  let copied = 0;
  const rows = source
    .prepare('SELECT * FROM crash_logs WHERE time > ? AND time <= ? ORDER BY id')
    .iterate(range.from, range.to) as IterableIterator<CrashLogRow>;
  for (const row of rows) {
    if (namespaces && !namespaces.has(row.namespace)) continue;
    insert.run(
      row.time,
      row.uid,
      row.namespace,
      row.pod,
      row.container,
      row.container_id,
      row.exit_code,
      row.reason,
      row.finished_at,
      row.truncated,
      row.problem,
      row.payload,
    );
    copied++;
  }
  return copied;
}
