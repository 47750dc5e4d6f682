// The on-disk shape of a recording, shared by live recordings and exported files: one SQLite file,
// WAL while recording (readers never block the writer), synchronous=NORMAL (a crash loses at most the
// last transactions, never consistency), incremental auto-vacuum so retention can give space back.
//
// streams   one informer: gvr and scope (namespace, "" for all)
// objects   one object identity per stream: namespace, name, uid
// changes   every delta: time, stream, object, delta type, resourceVersion, and the version itself
//           (see VersionEncoding): deflated alone, or against the version of the change named by base
//           (and of the one named by hint: a sibling's), or as a patch against what base stored
// change_blocks the texts of a list's versions, one after another, deflated as one stream: a change
//           stored as VersionEncoding.block points into one (see change-blocks.ts); last_change is the
//           last change that does
// keyframes the state of a stream at a time: which change holds each object's current version
// row_frames the table rows of a stream's printed kind at a change (see row-frame-writer.ts): a cache
//           of what its versions project to, read instead of decoding them
// marks     gaps and relists
// crash_logs the last logs of container runs that ended, by pod uid and time (deflated text)
// metric_series  one pod container's or node's usage: its names, pod uid and workload
// metric_samples one poll of metrics.k8s.io per resource: every new sample of it (deflated varints)
// meta      format version, context, created, and for exports the range and filters
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Database as SqliteDatabase } from 'better-sqlite3';
import { keepPrivate, makePrivateFile, makePrivateFolder } from './private-files';
import { RecordingError, messageOf, problemKindOf } from './recording-error';

export type { SqliteDatabase };

/**
 * Bumped on any incompatible change; readers refuse newer formats rather than misread them, and read
 * every older one. 2: versions may be stored as chainedPatch, and raw (see VersionEncoding). 3: the
 * crash_logs table (an older file gains it, empty, when opened for writing; readers take its absence
 * as no crash logs). 4: the metric_series and metric_samples tables (likewise: absent, no metrics).
 * 5: versions may be stored as text deltas (storedDelta, see VersionEncoding). 6: the row_frames
 * table (an older file gains it, empty, when opened for writing; readers take its absence as no
 * frames, and rebuild a moment's rows from its versions). 7: the change_blocks table, and versions
 * stored in a block (VersionEncoding.block): a list's (an older file gains the table, empty, when
 * opened for writing; its versions read as before).
 */
export const recordingFormatVersion = 7;

const statements = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS streams (
  id INTEGER PRIMARY KEY, gvr TEXT NOT NULL, scope TEXT NOT NULL, UNIQUE (gvr, scope));
CREATE TABLE IF NOT EXISTS objects (
  id INTEGER PRIMARY KEY, stream INTEGER NOT NULL, namespace TEXT NOT NULL, name TEXT NOT NULL,
  uid TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS objects_by_uid ON objects (uid);
CREATE INDEX IF NOT EXISTS objects_by_name ON objects (namespace, name);
CREATE TABLE IF NOT EXISTS changes (
  id INTEGER PRIMARY KEY, time INTEGER NOT NULL, stream INTEGER NOT NULL, object INTEGER NOT NULL,
  type INTEGER NOT NULL, resource_version TEXT NOT NULL, base INTEGER, hint INTEGER,
  encoding INTEGER NOT NULL, payload BLOB);
CREATE INDEX IF NOT EXISTS changes_by_time ON changes (time);
CREATE INDEX IF NOT EXISTS changes_by_object ON changes (object, id);
CREATE TABLE IF NOT EXISTS change_blocks (
  id INTEGER PRIMARY KEY, last_change INTEGER NOT NULL, payload BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS keyframes (
  id INTEGER PRIMARY KEY, time INTEGER NOT NULL, stream INTEGER NOT NULL,
  last_change INTEGER NOT NULL, members BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS keyframes_by_stream_time ON keyframes (stream, time);
CREATE TABLE IF NOT EXISTS row_frames (
  id INTEGER PRIMARY KEY, time INTEGER NOT NULL, stream INTEGER NOT NULL,
  last_change INTEGER NOT NULL, base INTEGER, rows BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS row_frames_by_stream ON row_frames (stream, last_change);
CREATE TABLE IF NOT EXISTS marks (
  id INTEGER PRIMARY KEY, kind TEXT NOT NULL, reason TEXT NOT NULL, stream INTEGER,
  start INTEGER NOT NULL, end INTEGER, detail TEXT NOT NULL DEFAULT '');
CREATE INDEX IF NOT EXISTS marks_by_start ON marks (start);
CREATE TABLE IF NOT EXISTS crash_logs (
  id INTEGER PRIMARY KEY, time INTEGER NOT NULL, uid TEXT NOT NULL, namespace TEXT NOT NULL,
  pod TEXT NOT NULL, container TEXT NOT NULL, container_id TEXT NOT NULL, exit_code INTEGER,
  reason TEXT NOT NULL, finished_at TEXT, truncated INTEGER NOT NULL, problem TEXT, payload BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS crash_logs_by_uid ON crash_logs (uid, time);
CREATE INDEX IF NOT EXISTS crash_logs_by_time ON crash_logs (time);
CREATE TABLE IF NOT EXISTS metric_series (
  id INTEGER PRIMARY KEY, resource TEXT NOT NULL, namespace TEXT NOT NULL, name TEXT NOT NULL,
  uid TEXT NOT NULL, container TEXT NOT NULL, workload TEXT NOT NULL, last_time INTEGER NOT NULL,
  UNIQUE (resource, namespace, name, uid, container));
CREATE INDEX IF NOT EXISTS metric_series_by_workload ON metric_series (resource, namespace, workload);
CREATE TABLE IF NOT EXISTS metric_samples (
  id INTEGER PRIMARY KEY, resource TEXT NOT NULL, time INTEGER NOT NULL, window_ms INTEGER NOT NULL,
  payload BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS metric_samples_by_time ON metric_samples (resource, time);
`;

/**
 * Opens (creating it and its directory if needed) a recording to write. Throws a RecordingError when
 * the file is not a recording (another SQLite database is never written into), is from a newer
 * format, records another context, or SQLite cannot open it. `now` stamps a new file's creation.
 */
export function openForWriting(file: string, context: string, now = Date.now()): SqliteDatabase {
  let database: SqliteDatabase | undefined;
  try {
    makePrivateFolder(dirname(file));
    makePrivateFile(file);
    database = new Database(file);
    const tables = database.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
      name: string;
    }[];
    if (tables.length > 0 && !tables.some((table) => table.name === 'meta')) {
      database.close();
      throw new RecordingError(file, {
        kind: 'not-a-recording',
        where: 'schema',
        message: 'it is a SQLite database but not a Kubetide recording',
      });
    }
    // A recording (or the empty file made above): the user's alone from now on.
    keepPrivate(file);
    // Must precede the first table: auto_vacuum is fixed when the file is created.
    database.pragma('auto_vacuum = INCREMENTAL');
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    // 32 MiB of page cache (SQLite's default is 2): each change goes into changes_by_object at its
    // object's place, all over the index, which soon outgrows 2 MiB; the pages it then evicts and
    // reads back cost the recording worker 12% of its CPU per change at 150,000 changes (59.5 against
    // 52.2 us, recording-profile, two runs each). Pages are only held as they are used.
    database.pragma('cache_size = -32768');
    // A checkpoint every 16,384 pages of WAL (64 MiB), not SQLite's 1,000: each batch's changes land
    // all over changes_by_object, so a commit writes a few hundred pages to the WAL, and under the ui
    // bench's churn the default checkpointed every two or three commits, each copying those pages
    // into the file and syncing both (synchronous=NORMAL syncs at checkpoints). Fewer checkpoints
    // copy a page rewritten by many commits once; the WAL is reused, never grows past a checkpoint's
    // worth unless a reader holds it. 11% less of the recording worker's CPU per change (78.2
    // against 87.6 us, interleaved in one process); the file's size (page_count) is unchanged.
    database.pragma('wal_autocheckpoint = 16384');
    database.exec(statements);
  } catch (error) {
    if (error instanceof RecordingError) throw error;
    database?.close();
    throw new RecordingError(
      file,
      { kind: problemKindOf(error), where: 'open', message: messageOf(error) },
      { cause: error },
    );
  }
  const version = readMeta(database, 'formatVersion');
  if (version !== undefined && Number(version) > recordingFormatVersion) {
    database.close();
    throw new RecordingError(file, {
      kind: 'not-a-recording',
      where: 'meta',
      message: `format version ${version} is newer than this build reads (${recordingFormatVersion})`,
    });
  }
  const recordedContext = readMeta(database, 'context');
  if (recordedContext !== undefined && recordedContext !== context) {
    database.close();
    throw new RecordingError(file, {
      kind: 'not-a-recording',
      where: 'meta',
      message: `it records context "${recordedContext}", not "${context}"`,
    });
  }
  // An older file is written on in the current format from now on: what it holds still reads, and a
  // build that only knows its old format refuses it instead of misreading the new versions.
  if (version !== undefined && Number(version) < recordingFormatVersion)
    writeMeta(database, 'formatVersion', String(recordingFormatVersion));
  if (version === undefined) {
    writeMeta(database, 'formatVersion', String(recordingFormatVersion));
    writeMeta(database, 'context', context);
    writeMeta(database, 'created', new Date(now).toISOString());
  }
  return database;
}

export function readMeta(database: SqliteDatabase, key: string): string | undefined {
  const row = database.prepare('SELECT value FROM meta WHERE key = ?').get(key) as
    { value: string } | undefined;
  return row?.value;
}

export function writeMeta(database: SqliteDatabase, key: string, value: string): void {
  database
    .prepare(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    )
    .run(key, value);
}

/** Creates the tables in an empty database (export files). */
export function createSchema(database: SqliteDatabase): void {
  database.exec(statements);
}
