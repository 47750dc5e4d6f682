// Export: a time range of a recording, optionally only some namespaces or kinds, into one portable
// file with the same schema (so the same reader opens it, on any machine, without a cluster) plus its
// provenance in meta. The file opens with openRecording; nothing else is needed to "import" it.
//
// The export is a copy, not a re-recording: rows keep their ids and their stored versions, copied by
// SQLite from the source (attached to the export's connection) in chunks, never decoded. Only the
// versions encoded against a change the export leaves out are rewritten (see ExportedVersions). The
// row frames a moment in the range reads are copied too (see export-row-frames.ts), so the export
// travels as fast as its source.
import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { copyCrashLogs } from './crash-log-store';
import { copyMetricSamples } from './metric-sample-export';
import { copyChanges } from './export-copy';
import { copyRowFrames } from './export-row-frames';
import { makeExportStandAlone, watchForOrphans } from './exported-versions';
import { decodeMembers, encodeMembers } from './object-codec';
import type { RecordingReader } from './recording-reader';
import type { RecordingProblem } from './recording-error';
import { createSchema, recordingFormatVersion, writeMeta } from './schema';
import { recordingMarks } from './replay';
import { lastChangeAt, membersAt } from './stream-state';

/**
 * Source change ids copied per statement: each reads the source in a transaction of its own, a few
 * milliseconds long, and a cancel (the worker terminated) lands between two of them.
 */
const copyChunk = 10_000;

export interface ExportOptions {
  readonly from: number;
  readonly to: number;
  /** Only these namespaces' objects (cluster-scoped objects have namespace ""). */
  readonly namespaces?: readonly string[];
  /** Only these kinds, as gvrKeys ("pods.v1"). */
  readonly gvrs?: readonly string[];
  /** How many exported changes between two onProgress calls (default 10,000). */
  readonly progressEvery?: number;
  /** Told the number of changes exported so far, every `progressEvery` changes. */
  readonly onProgress?: (changes: number) => void;
}

export interface ExportSummary {
  readonly file: string;
  readonly changes: number;
  /** Problems met reading the source: the export holds what could be read. */
  readonly problems: RecordingProblem[];
}

/**
 * Writes `destination` (replacing it): the versions of each selected stream live at `from` (their
 * changes as recorded, with their original times), a keyframe at `from`, every selected change in
 * (from, to] with the source's keyframes among them, and the gaps and relists overlapping the range.
 * The file uses a rollback journal, not WAL, so it is one self-contained file. The source is read in
 * short statements: a recorder writing it meanwhile is never held up (WAL readers do not block it).
 */
export function exportRecording(
  reader: RecordingReader,
  destination: string,
  options: ExportOptions,
): ExportSummary {
  const problemsBefore = reader.problems.length;
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${destination}${suffix}`, { force: true });
  const database = new Database(destination);
  try {
    database.pragma('auto_vacuum = INCREMENTAL');
    // A partial export is deleted, never recovered: nothing is synced until it is whole, and the
    // journal (needed to undo a statement that fails half-way) stays in memory.
    database.pragma('journal_mode = MEMORY');
    database.pragma('synchronous = OFF');
    // Enough for the indexes to be sorted in memory rather than through temporary files.
    database.pragma(`cache_size = -${64 * 1024}`);
    createSchema(database);
    // Built once from the copied rows at the end, not updated for each row.
    database.exec('DROP INDEX changes_by_time; DROP INDEX changes_by_object');
    database.prepare('ATTACH DATABASE ? AS source').run(reader.database.name);
    const orphans = watchForOrphans(database);
    copyRange(reader, database, options);
    createSchema(database);
    database.exec(`INSERT INTO objects SELECT * FROM source.objects o
      WHERE EXISTS (SELECT 1 FROM changes c WHERE c.object = o.id)`);
    makeExportStandAlone(reader, database, orphans);
    copyMarks(reader, database, options);
    if (!options.gvrs || options.gvrs.includes('pods.v1'))
      reader.guard('crash logs', 0, () => copyCrashLogs(reader.database, database, options));
    const resources = (['pods', 'nodes'] as const).filter(
      (resource) => !options.gvrs || options.gvrs.includes(`${resource}.v1`),
    );
    reader.guard('metric samples', 0, () =>
      copyMetricSamples(reader.database, database, { ...options, resources }),
    );
    writeProvenance(reader, database, options);
    database.exec('DETACH DATABASE source');
    // Pages freed by rewritten versions go back; the file's header then names a rollback journal.
    database.pragma('incremental_vacuum');
    database.pragma('journal_mode = DELETE');
    const count = database.prepare('SELECT count(*) AS count FROM changes').get() as { count: number };
    return { file: destination, changes: count.count, problems: reader.problems.slice(problemsBefore) };
  } finally {
    database.close();
  }
}

/**
 * Copies the selected streams, the changes holding their state at `from`, a keyframe of that state,
 * then every selected change in (from, to] with the source's keyframes in that range.
 */
function copyRange(reader: RecordingReader, database: Database.Database, options: ExportOptions): void {
  const streams = reader.streams().filter((stream) => !options.gvrs || options.gvrs.includes(stream.gvr));
  const streamIds = streams.map((stream) => stream.id).join(', ');
  const afterId = reader.guard('changes by time', 0, () => lastChangeAt(reader.database, options.from));
  const throughId = reader.guard('changes by time', 0, () => lastChangeAt(reader.database, options.to));
  database.exec(`INSERT INTO streams (id, gvr, scope) SELECT id, gvr, scope FROM source.streams
    WHERE id IN (${streamIds})`);
  // Read after throughId: every object a change up to it names is already there.
  let exportedObjects: Set<number> | undefined;
  let condition = `stream IN (${streamIds})`;
  if (options.namespaces) {
    database.exec('CREATE TEMP TABLE exported_objects (id INTEGER PRIMARY KEY)');
    database
      .prepare(
        `INSERT INTO temp.exported_objects (id) SELECT id FROM source.objects
         WHERE stream IN (${streamIds}) AND namespace IN (SELECT value FROM json_each(?))`,
      )
      .run(JSON.stringify(options.namespaces));
    exportedObjects = new Set(
      database.prepare('SELECT id FROM temp.exported_objects').pluck().all() as number[],
    );
    condition += ' AND object IN (SELECT id FROM temp.exported_objects)';
  }
  // The state at `from`: the changes holding it keep their ids, so they precede the range's.
  database.exec('CREATE TEMP TABLE initial (id INTEGER PRIMARY KEY)');
  const initial = database.prepare('INSERT OR IGNORE INTO temp.initial (id) VALUES (?)');
  const insertKeyframe = database.prepare(
    'INSERT INTO keyframes (time, stream, last_change, members) VALUES (?, ?, ?, ?)',
  );
  for (const stream of streams) {
    const members = reader.guard(
      `state of ${stream.gvr} at the export start`,
      new Map<number, number>(),
      () => membersAt(reader.database, stream.id, options.from).members,
    );
    if (exportedObjects)
      for (const object of members.keys()) if (!exportedObjects.has(object)) members.delete(object);
    for (const change of members.values()) initial.run(change);
    insertKeyframe.run(options.from, stream.id, afterId, encodeMembers(members));
  }
  let changes = copyChanges(
    reader,
    database,
    'the state at the export start',
    'id IN (SELECT id FROM temp.initial)',
    0,
    afterId,
  );
  const progressEvery = Math.max(1, options.progressEvery ?? 10_000);
  let reported = 0;
  const report = () => {
    for (; reported + progressEvery <= changes; reported += progressEvery)
      options.onProgress?.(reported + progressEvery);
  };
  report();
  for (let low = afterId; low < throughId; low += copyChunk) {
    changes += copyChanges(reader, database, 'export', condition, low, Math.min(low + copyChunk, throughId));
    report();
  }
  copyKeyframes(reader, database, streamIds, exportedObjects, options, throughId);
  copyRowFrames(reader, database, streams, afterId, throughId, exportedObjects);
}

/**
 * The source's keyframes after `from` (up to the last change copied), of the exported objects only:
 * a moment in the range rebuilds from the nearest one as it does in the source.
 */
function copyKeyframes(
  reader: RecordingReader,
  database: Database.Database,
  streamIds: string,
  exportedObjects: ReadonlySet<number> | undefined,
  range: { readonly from: number; readonly to: number },
  throughId: number,
): void {
  const select = `SELECT time, stream, last_change, members FROM source.keyframes
    WHERE stream IN (${streamIds}) AND time > ? AND time <= ? AND last_change <= ? ORDER BY id`;
  if (!exportedObjects) {
    reader.guard('keyframes', undefined, () =>
      database
        .prepare(`INSERT INTO keyframes (time, stream, last_change, members) ${select}`)
        .run(range.from, range.to, throughId),
    );
    return;
  }
  const insert = database.prepare(
    'INSERT INTO keyframes (time, stream, last_change, members) VALUES (?, ?, ?, ?)',
  );
  const keyframes = reader.guard(
    'keyframes',
    [],
    () =>
      database.prepare(select).all(range.from, range.to, throughId) as {
        time: number;
        stream: number;
        last_change: number;
        members: Uint8Array;
      }[],
  );
  for (const keyframe of keyframes) {
    const members = reader.guard(`keyframe at ${new Date(keyframe.time).toISOString()}`, undefined, () =>
      decodeMembers(keyframe.members),
    );
    // An unreadable keyframe is left out: the moments after it rebuild from an earlier one.
    if (!members) continue;
    for (const object of members.keys()) if (!exportedObjects.has(object)) members.delete(object);
    insert.run(keyframe.time, keyframe.stream, keyframe.last_change, encodeMembers(members));
  }
}

/** The gaps and relists overlapping the range, of the whole recording or of an exported stream. */
function copyMarks(reader: RecordingReader, database: Database.Database, options: ExportOptions): void {
  const streams = reader.streams();
  const exported = new Set(database.prepare('SELECT id FROM streams').pluck().all() as number[]);
  const insert = database.prepare(
    'INSERT INTO marks (kind, reason, stream, start, end, detail) VALUES (?, ?, ?, ?, ?, ?)',
  );
  for (const mark of recordingMarks(reader, options.from, options.to)) {
    const source =
      mark.stream &&
      streams.find((stream) => stream.gvr === mark.stream!.gvr && stream.scope === mark.stream!.scope);
    if (mark.stream && (!source || !exported.has(source.id))) continue;
    insert.run(mark.kind, mark.reason, source?.id ?? null, mark.start, mark.end ?? null, mark.detail);
  }
}

function writeProvenance(reader: RecordingReader, database: Database.Database, options: ExportOptions): void {
  writeMeta(database, 'formatVersion', String(recordingFormatVersion));
  writeMeta(database, 'context', reader.metadata.context);
  writeMeta(database, 'created', new Date().toISOString());
  writeMeta(database, 'start', String(options.from));
  writeMeta(database, 'lastWritten', String(options.to));
  writeMeta(
    database,
    'exportFilter',
    JSON.stringify({
      from: options.from,
      to: options.to,
      namespaces: options.namespaces,
      gvrs: options.gvrs,
      source: reader.file,
    }),
  );
}
