// Keeps a recording within its age and size budget. Changes before the new start are deleted, except
// those holding the versions live at the new start, which become full versions (their bases go) and
// are named by a keyframe at the new start: the state at any kept moment still rebuilds. Row frames
// before the new start go too; their versions being rewritten whole changes no row a frame holds.
import { dropMetricSamplesBefore } from './metric-sample-store';
import { encodeMembers, encodeVersion } from './object-codec';
import type { RecordingWriter } from './recording-writer';
import type { SqliteDatabase } from './schema';
import { readMeta, writeMeta } from './schema';
import { chainedDependents } from './standalone-versions';
import { membersAt } from './stream-state';
import { VersionDecoder } from './version-decoder';

export interface RetentionPolicy {
  /** Changes older than this (ms before now) are deleted. */
  maxAgeMs?: number;
  /** When the file's used pages exceed this, the oldest changes go until it is ~80% of it. */
  maxBytes?: number;
}

/** Bytes in pages holding data (free pages excluded, WAL excluded). */
export function usedBytes(database: SqliteDatabase): number {
  const pages = database.pragma('page_count', { simple: true }) as number;
  const free = database.pragma('freelist_count', { simple: true }) as number;
  const pageSize = database.pragma('page_size', { simple: true }) as number;
  return (pages - free) * pageSize;
}

/** The earliest moment the recording covers after retention (its meta "start"), if set. */
export function recordingStart(database: SqliteDatabase): number | undefined {
  const start = readMeta(database, 'start');
  return start === undefined ? undefined : Number(start);
}

/**
 * Applies `policy` at `now`; returns the new start, or undefined when nothing had to go. Size is
 * approached in a few rounds: what a change costs on disk varies (kept versions become full ones,
 * objects and keyframes have their own pages), so one estimate may not be enough.
 */
export function enforceRetention(
  writer: RecordingWriter,
  policy: RetentionPolicy,
  now: number,
): number | undefined {
  const database = writer.database;
  let applied: number | undefined;
  if (policy.maxAgeMs !== undefined) applied = dropIfLater(writer, now - policy.maxAgeMs);
  for (let round = 0; policy.maxBytes !== undefined && round < 8; round++) {
    const used = usedBytes(database);
    if (used <= policy.maxBytes) break;
    const total = (database.prepare('SELECT count(*) AS count FROM changes').get() as { count: number })
      .count;
    if (total === 0) break;
    const drop = Math.ceil(total * Math.max(0.1, 1 - (policy.maxBytes * 0.8) / used));
    const row = database
      .prepare('SELECT time FROM changes ORDER BY id LIMIT 1 OFFSET ?')
      .get(Math.min(drop, total - 1)) as {
      time: number;
    };
    const start = dropIfLater(writer, row.time);
    if (start === undefined) break;
    applied = start;
  }
  return applied;
}

/** Drops what precedes `start` unless the recording already starts there or later. */
function dropIfLater(writer: RecordingWriter, start: number): number | undefined {
  const database = writer.database;
  const oldest = database.prepare('SELECT min(time) AS time FROM changes').get() as { time: number | null };
  if (oldest.time === null || start <= oldest.time) return undefined;
  if (start <= (recordingStart(database) ?? Number.NEGATIVE_INFINITY)) return undefined;
  writer.transaction(() => {
    dropBefore(database, start);
    writer.forgetSiblings();
    // The frames before `start` are gone: the chains they began start anew.
    writer.restartRowFrames();
  });
  database.pragma('incremental_vacuum');
  database.pragma('wal_checkpoint(TRUNCATE)');
  return start;
}

function dropBefore(database: SqliteDatabase, start: number): void {
  // With no change at or after `start`, the next change's id: the keyframe written at `start` holds
  // every change before it, and none that the writer adds later.
  const firstKept = (
    database
      .prepare(
        'SELECT coalesce((SELECT min(id) FROM changes WHERE time >= ?), (SELECT coalesce(max(id), 0) + 1 FROM changes)) AS id',
      )
      .get(start) as { id: number }
  ).id;
  const decoder = new VersionDecoder(database);
  const rewrite = database.prepare(
    'UPDATE changes SET base = NULL, hint = NULL, encoding = 0, payload = ? WHERE id = ?',
  );
  const insertKeyframe = database.prepare(
    'INSERT INTO keyframes (time, stream, last_change, members) VALUES (?, ?, ?, ?)',
  );
  database.exec('CREATE TEMP TABLE IF NOT EXISTS kept (id INTEGER PRIMARY KEY); DELETE FROM temp.kept');
  const keep = database.prepare('INSERT OR IGNORE INTO temp.kept (id) VALUES (?)');
  const streams = database.prepare('SELECT id FROM streams').all() as { id: number }[];
  const fullVersions = new Map<number, Buffer>();
  for (const { id: stream } of streams) {
    const { members } = membersAt(database, stream, start - 1);
    for (const change of members.values()) {
      if (change >= firstKept) continue;
      keep.run(change);
      fullVersions.set(change, encodeVersion(decoder.json(change)));
    }
    insertKeyframe.run(start, stream, firstKept - 1, encodeMembers(members));
  }
  // Kept changes, and later changes whose base or hint is about to go, must stand alone.
  const orphans = database
    .prepare(
      `SELECT id FROM changes WHERE id >= ? AND (
         (base IS NOT NULL AND base < ? AND base NOT IN (SELECT id FROM temp.kept)) OR
         (hint IS NOT NULL AND hint < ? AND hint NOT IN (SELECT id FROM temp.kept)))`,
    )
    .all(firstKept, firstKept, firstKept) as { id: number }[];
  for (const { id } of orphans) fullVersions.set(id, encodeVersion(decoder.json(id)));
  // Computed before any rewrite: the decoder reads the versions as they are stored now.
  const dependents = chainedDependents(database, decoder, [...fullVersions.keys()]);
  for (const [id, payload] of fullVersions) rewrite.run(payload, id);
  const reencode = database.prepare('UPDATE changes SET encoding = ?, payload = ? WHERE id = ?');
  for (const [id, { encoding, payload }] of dependents) reencode.run(encoding, payload, id);
  database
    .prepare('DELETE FROM changes WHERE id < ? AND id NOT IN (SELECT id FROM temp.kept)')
    .run(firstKept);
  // Every change before firstKept is gone or kept as a full version: a block none after it points
  // into goes too.
  database.prepare('DELETE FROM change_blocks WHERE last_change < ?').run(firstKept);
  database.prepare('DELETE FROM keyframes WHERE time < ?').run(start);
  // A frame after `start` may add to one before it: it stays, a cache of the rows it holds.
  database.prepare('DELETE FROM row_frames WHERE time < ?').run(start);
  database.prepare('DELETE FROM marks WHERE coalesce(end, start) < ?').run(start);
  database.prepare('DELETE FROM crash_logs WHERE time < ?').run(start);
  dropMetricSamplesBefore(database, start);
  database.exec('DELETE FROM objects WHERE id NOT IN (SELECT object FROM changes)');
  database.exec('DELETE FROM temp.kept');
  writeMeta(database, 'start', String(start));
}
