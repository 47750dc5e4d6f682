// Export: a time range of a recording, optionally only some namespaces or kinds, into one portable
// file with the same schema (so the same reader opens it, on any machine, without a cluster) plus its
// provenance in meta. The file opens with openRecording; nothing else is needed to "import" it.
import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { DeltaType } from '../cache/delta';
import type { KubeObject } from '../../shared/kube/object';
import { copyCrashLogs } from './crash-log-store';
import { decodeDeltaType } from './recorded-change';
import type { ChangeRow, RecordingReader } from './recording-reader';
import { changeColumns } from './recording-reader';
import { RecordingWriter } from './recording-writer';
import type { RecordingProblem } from './recording-error';
import { createSchema, recordingFormatVersion, writeMeta } from './schema';
import { recordingMarks } from './replay';
import { lastChangeAt, membersAt } from './stream-state';

export interface ExportOptions {
  readonly from: number;
  readonly to: number;
  /** Only these namespaces' objects (cluster-scoped objects have namespace ""). */
  readonly namespaces?: readonly string[];
  /** Only these kinds, as gvrKeys ("pods.v1"). */
  readonly gvrs?: readonly string[];
  /** A keyframe per stream every this many exported changes (default 20,000). */
  readonly keyframeEveryChanges?: number;
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
 * Writes `destination` (replacing it): the state of each selected stream at `from` (the versions live
 * then, with their original times), a keyframe at `from`, every selected change in (from, to], and
 * the gaps and relists overlapping the range. The file uses a rollback journal, not WAL, so it is
 * one self-contained file.
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
    createSchema(database);
    const writer = new RecordingWriter(database);
    const every = options.keyframeEveryChanges ?? 20_000;
    const progressEvery = Math.max(1, options.progressEvery ?? 10_000);
    const streams = reader.streams().filter((stream) => !options.gvrs || options.gvrs.includes(stream.gvr));
    const streamIds = new Map(
      streams.map((stream) => [stream.id, writer.stream({ gvr: stream.gvr, scope: stream.scope })]),
    );
    const namespaces = options.namespaces && new Set(options.namespaces);
    const selected = (row: ChangeRow) =>
      streamIds.has(row.stream) && (!namespaces || namespaces.has(row.namespace));
    const decoder = reader.decoder();
    const selectRow = reader.database.prepare(`SELECT ${changeColumns} WHERE c.id = ?`);
    let changes = 0;
    const sinceKeyframe = new Map<number, number>();
    const write = (row: ChangeRow) => {
      const { type, finalStateUnknown } = decodeDeltaType(row.type);
      const object = reader.guard(`version of change ${row.id}`, undefined, () => {
        const json = decoder.json(row.id);
        return json === 'null' ? undefined : (JSON.parse(json) as KubeObject);
      });
      if (!object && type !== 'Deleted') return;
      const stream = streamIds.get(row.stream)!;
      writer.writeChange({
        time: row.time,
        stream,
        type: type as DeltaType,
        finalStateUnknown,
        object,
        key: row.namespace ? `${row.namespace}/${row.name}` : row.name,
        uid: row.uid,
      });
      changes++;
      if (changes % progressEvery === 0) options.onProgress?.(changes);
      const count = (sinceKeyframe.get(stream) ?? 0) + 1;
      sinceKeyframe.set(stream, count);
      if (count >= every) {
        writer.writeKeyframe(stream, row.time);
        sinceKeyframe.set(stream, 0);
      }
    };
    writer.transaction(() => {
      // The state at `from`, written in recording order so times never decrease with ids.
      const initial: ChangeRow[] = [];
      for (const stream of streams) {
        const members = reader.guard(
          `state of ${stream.gvr} at the export start`,
          new Map<number, number>(),
          () => membersAt(reader.database, stream.id, options.from).members,
        );
        for (const changeId of members.values()) {
          const row = reader.guard(
            `change ${changeId}`,
            undefined,
            () => selectRow.get(changeId) as ChangeRow | undefined,
          );
          if (row && selected(row)) initial.push(row);
        }
      }
      initial.sort((a, b) => a.id - b.id);
      for (const row of initial) write(row);
      for (const stream of streamIds.values()) writer.writeKeyframe(stream, options.from);
      sinceKeyframe.clear();
      const afterId = reader.guard('changes by time', 0, () => lastChangeAt(reader.database, options.from));
      const throughId = reader.guard('changes by time', 0, () => lastChangeAt(reader.database, options.to));
      for (const row of reader.scan('export', '1', [], afterId, throughId)) if (selected(row)) write(row);
      for (const mark of recordingMarks(reader, options.from, options.to)) {
        const source =
          mark.stream &&
          streams.find((stream) => stream.gvr === mark.stream!.gvr && stream.scope === mark.stream!.scope);
        if (mark.stream && !source) continue;
        writer.writeMark({ ...mark, stream: source ? streamIds.get(source.id) : undefined });
      }
      if (!options.gvrs || options.gvrs.includes('pods.v1'))
        reader.guard('crash logs', 0, () => copyCrashLogs(reader.database, database, options));
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
    });
    database.exec('VACUUM');
    return { file: destination, changes, problems: reader.problems.slice(problemsBefore) };
  } finally {
    database.close();
  }
}
