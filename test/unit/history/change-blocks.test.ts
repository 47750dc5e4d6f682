// A list's versions stored in blocks (format 7): each listed object's Replaced version points into a
// block of the list's texts deflated as one stream, and reads back through stateAt, object history,
// export and retention exactly as a version stored alone; a recording of format 6 (no blocks) still
// reads, and is written on with blocks; a relist that finds a name under a new uid still retires the
// old uid.
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/kube/object';
import { blockTextBytes, decodeBlockReference } from '../../../main/history/change-blocks';
import { exportRecording } from '../../../main/history/export-recording';
import { objectVersions } from '../../../main/history/object-history';
import { VersionEncoding } from '../../../main/history/object-codec';
import { openRecording } from '../../../main/history/recording-reader';
import { RecordingWriter } from '../../../main/history/recording-writer';
import { stateAt } from '../../../main/history/replay';
import { enforceRetention } from '../../../main/history/retention';
import type { SqliteDatabase } from '../../../main/history/schema';
import { openForWriting, readMeta, recordingFormatVersion, writeMeta } from '../../../main/history/schema';
import { VersionDecoder } from '../../../main/history/version-decoder';
import type { TempDirectory } from './fixtures';
import { realisticPod, tempDirectory } from './fixtures';

let directory: TempDirectory | undefined;
afterEach(() => {
  directory?.remove();
  directory = undefined;
});

const listTime = 10_000;

function keyOf(pod: KubeObject): string {
  return `${pod.metadata.namespace}/${pod.metadata.name}`;
}

/** `count` pods in a few namespaces, each with its own uid (`tag` makes them differ between calls). */
function pods(count: number, tag = 'a'): KubeObject[] {
  return Array.from({ length: count }, (_, index) => {
    const pod = realisticPod(`pod-${String(index).padStart(4, '0')}`, `team-${index % 3}`);
    pod.metadata.uid = `uid-${tag}-${index}`;
    // The recording leaves managedFields out: the versions read back are the objects without them.
    delete pod.metadata.managedFields;
    pod.metadata.resourceVersion = String(index + 1);
    return pod;
  });
}

function byKey(objects: readonly KubeObject[]): KubeObject[] {
  return [...objects].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
}

function open(name: string): {
  file: string;
  database: SqliteDatabase;
  writer: RecordingWriter;
  stream: number;
} {
  directory ??= tempDirectory();
  const file = directory.file(name);
  const database = openForWriting(file, 'test-context');
  const writer = new RecordingWriter(database, { rowFrames: false });
  return { file, database, writer, stream: writer.stream({ gvr: 'pods.v1', scope: '' }) };
}

/** A list of `objects` at `time`, as the recording session writes one: a keyframe after it. */
function list(writer: RecordingWriter, stream: number, objects: readonly KubeObject[], time: number): void {
  writer.transaction(() => {
    writer.beginList(stream);
    for (const object of objects)
      writer.writeChange({
        time,
        stream,
        type: 'Replaced',
        finalStateUnknown: false,
        object,
        key: keyOf(object),
      });
    writer.retireUnlisted(stream, time);
    writer.writeKeyframe(stream, time);
  });
}

function update(writer: RecordingWriter, stream: number, pod: KubeObject, time: number): KubeObject {
  const next = structuredClone(pod);
  next.metadata.resourceVersion = String(Number(pod.metadata.resourceVersion) + 1000);
  next.metadata.labels = { ...next.metadata.labels, updated: String(time) };
  writer.transaction(() => {
    writer.writeChange({
      time,
      stream,
      type: 'Updated',
      finalStateUnknown: false,
      object: next,
      key: keyOf(next),
    });
  });
  return next;
}

function encodings(database: SqliteDatabase): Map<number, number> {
  const rows = database
    .prepare('SELECT encoding, count(*) AS count FROM changes GROUP BY encoding')
    .all() as { encoding: number; count: number }[];
  return new Map(rows.map((row) => [row.encoding, row.count]));
}

function blockCount(database: SqliteDatabase): number {
  return database.prepare('SELECT count(*) FROM change_blocks').pluck().get() as number;
}

describe('a list recorded in blocks', () => {
  it('reads back through stateAt, object history and an export as the objects listed', () => {
    const { file, database, writer, stream } = open('blocks.kubetide');
    const listed = pods(300);
    list(writer, stream, listed, listTime);
    // Every listed version is in a block, and the list took several.
    expect(encodings(database)).toEqual(new Map([[VersionEncoding.block, 300]]));
    const listedBytes = listed.reduce((sum, pod) => sum + JSON.stringify(pod).length, 0);
    expect(blockCount(database)).toBeGreaterThanOrEqual(Math.floor(listedBytes / blockTextBytes));
    const updated = update(writer, stream, listed[7], listTime + 100);
    const now = listed.map((pod) => (pod === listed[7] ? updated : pod));
    database.close();

    const reader = openRecording(file);
    expect(stateAt(reader, { gvr: 'pods.v1', time: listTime }).objects).toEqual(byKey(listed));
    expect(stateAt(reader, { gvr: 'pods.v1', time: listTime + 100 }).objects).toEqual(byKey(now));
    const history = objectVersions(reader, { uid: listed[7].metadata.uid! });
    expect(history.map((change) => [change.type, change.object])).toEqual([
      ['Replaced', listed[7]],
      ['Updated', updated],
    ]);
    // Read against the list's order (newest first), each version still decodes from its block.
    const decoder = new VersionDecoder(reader.database, 0);
    const ids = reader.database.prepare('SELECT id FROM changes ORDER BY id DESC').pluck().all() as number[];
    expect(ids.map((id) => JSON.parse(decoder.json(id)) as KubeObject)).toEqual([
      updated,
      ...[...listed].reverse(),
    ]);

    // An export expands the blocks into versions of its own: it holds no block, and reads the same.
    const summary = exportRecording(reader, directory!.file('export.kubetide'), {
      from: listTime,
      to: listTime + 100,
    });
    expect(summary.problems).toEqual([]);
    const exported = openRecording(directory!.file('export.kubetide'));
    expect(blockCount(exported.database)).toBe(0);
    expect(encodings(exported.database).has(VersionEncoding.block)).toBe(false);
    expect(stateAt(exported, { gvr: 'pods.v1', time: listTime }).objects).toEqual(byKey(listed));
    expect(stateAt(exported, { gvr: 'pods.v1', time: listTime + 100 }).objects).toEqual(byKey(now));
    expect(objectVersions(exported, { uid: listed[7].metadata.uid! }).map((change) => change.object)).toEqual(
      [listed[7], updated],
    );
    exported.close();
    reader.close();
  });

  it('keeps each namespace in blocks of its own, though the list interleaves them', () => {
    const { database, writer, stream } = open('namespaces.kubetide');
    // pods() cycles through three namespaces: key order (a moment's) reads one of them at a time.
    list(writer, stream, pods(300), listTime);
    const rows = database
      .prepare('SELECT c.payload, o.namespace FROM changes c JOIN objects o ON o.id = c.object')
      .all() as { payload: Buffer; namespace: string }[];
    const namespacesByBlock = new Map<number, Set<string>>();
    for (const { payload, namespace } of rows) {
      const { block } = decodeBlockReference(payload);
      namespacesByBlock.set(block, (namespacesByBlock.get(block) ?? new Set()).add(namespace));
    }
    expect(namespacesByBlock.size).toBeGreaterThan(3);
    for (const namespaces of namespacesByBlock.values()) expect(namespaces.size).toBe(1);
    database.close();
  });

  it('stores a relisted object that did not change as a repeat, and one that did in the new block', () => {
    const { database, writer, stream } = open('relist.kubetide');
    const listed = pods(20);
    list(writer, stream, listed, listTime);
    const relisted = listed.map((pod, index) =>
      index === 3 ? { ...pod, metadata: { ...pod.metadata, resourceVersion: '999' } } : pod,
    );
    list(writer, stream, relisted, listTime + 50);
    const rows = database
      .prepare('SELECT encoding, payload IS NULL AS repeat FROM changes WHERE time = ? ORDER BY id')
      .all(listTime + 50) as { encoding: number; repeat: number }[];
    expect(rows.filter((row) => row.repeat === 1)).toHaveLength(19);
    expect(rows[3]).toEqual({ encoding: VersionEncoding.block, repeat: 0 });
    database.close();
  });

  it('retires the old uid when a relist finds its name under a new uid', () => {
    const { file, database, writer, stream } = open('reused.kubetide');
    const listed = pods(10);
    list(writer, stream, listed, listTime);
    const reused = structuredClone(listed[4]);
    reused.metadata.uid = 'uid-new-4';
    const relisted = listed.map((pod, index) => (index === 4 ? reused : pod));
    list(writer, stream, relisted, listTime + 50);
    database.close();
    const reader = openRecording(file);
    expect(stateAt(reader, { gvr: 'pods.v1', time: listTime + 50 }).objects).toEqual(byKey(relisted));
    const old = objectVersions(reader, { uid: listed[4].metadata.uid! });
    expect(old.map((change) => [change.type, change.time])).toEqual([
      ['Replaced', listTime],
      ['Deleted', listTime + 50],
    ]);
    // A deletion with no known state repeats the version before it: the old uid's, from its block.
    expect(old[1].object).toEqual(listed[4]);
    expect(objectVersions(reader, { uid: 'uid-new-4' }).map((change) => change.object)).toEqual([reused]);
    reader.close();
  });

  it('leaves no block behind a rolled-back batch: the next list writes its own', () => {
    const { file, database, writer, stream } = open('rollback.kubetide');
    expect(() =>
      writer.transaction(() => {
        writer.beginList(stream);
        for (const object of pods(100))
          writer.writeChange({
            time: listTime,
            stream,
            type: 'Replaced',
            finalStateUnknown: false,
            object,
            key: keyOf(object),
          });
        throw new Error('the disk is full');
      }),
    ).toThrow('the disk is full');
    writer.forgetVersions();
    expect(blockCount(database)).toBe(0);
    const listed = pods(100, 'b');
    list(writer, stream, listed, listTime + 10);
    database.close();
    const reader = openRecording(file);
    expect(stateAt(reader, { gvr: 'pods.v1', time: listTime + 10 }).objects).toEqual(byKey(listed));
    reader.close();
  });

  it('goes with retention once no change points into it', () => {
    const { file, database, writer, stream } = open('retention.kubetide');
    const first = pods(100);
    list(writer, stream, first, listTime);
    const second = pods(100, 'b');
    list(writer, stream, second, listTime + 1000);
    const blocksOfOne = blockCount(database) / 2;
    // The first list's changes go (their objects were retired by the second), the second's stay.
    enforceRetention(writer, { maxAgeMs: 500 }, listTime + 1400);
    expect(blockCount(database)).toBe(blocksOfOne);
    database.close();
    const reader = openRecording(file);
    expect(stateAt(reader, { gvr: 'pods.v1', time: listTime + 1000 }).objects).toEqual(byKey(second));
    reader.close();
  });

  it('reads a format 6 recording (no blocks), and writes on it with blocks', () => {
    const { file, database, writer, stream } = open('format6.kubetide');
    const listed = pods(50);
    // As format 6 wrote a list: each version stored alone (outside a transaction, the writer does).
    writer.beginList(stream);
    for (const object of listed)
      writer.writeChange({
        time: listTime,
        stream,
        type: 'Replaced',
        finalStateUnknown: false,
        object,
        key: keyOf(object),
      });
    writer.retireUnlisted(stream, listTime);
    writer.writeKeyframe(stream, listTime);
    database.exec('DROP TABLE change_blocks');
    writeMeta(database, 'formatVersion', '6');
    expect(encodings(database).has(VersionEncoding.block)).toBe(false);
    database.close();

    const old = openRecording(file);
    expect(old.metadata.formatVersion).toBe(6);
    expect(stateAt(old, { gvr: 'pods.v1', time: listTime }).objects).toEqual(byKey(listed));
    expect(objectVersions(old, { uid: listed[9].metadata.uid! }).map((change) => change.object)).toEqual([
      listed[9],
    ]);
    old.close();
    const again = openForWriting(file, 'test-context');
    expect(readMeta(again, 'formatVersion')).toBe(String(recordingFormatVersion));
    const writerAgain = new RecordingWriter(again, { rowFrames: false });
    const streamAgain = writerAgain.stream({ gvr: 'pods.v1', scope: '' });
    writerAgain.resetStream(streamAgain);
    const relisted = listed.map((pod) => ({ ...pod, metadata: { ...pod.metadata, resourceVersion: '77' } }));
    list(writerAgain, streamAgain, relisted, listTime + 100);
    expect(encodings(again).get(VersionEncoding.block)).toBe(50);
    again.close();
    const reader = openRecording(file);
    expect(stateAt(reader, { gvr: 'pods.v1', time: listTime }).objects).toEqual(byKey(listed));
    expect(stateAt(reader, { gvr: 'pods.v1', time: listTime + 100 }).objects).toEqual(byKey(relisted));
    reader.close();
  });
});
