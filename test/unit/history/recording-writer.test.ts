// How the writer stores versions: updates as text deltas on the previous version's text (deflated
// against it when a delta would mostly insert), new objects against a sibling's, a full version every
// fullVersionEvery changes, and every version decoding to exactly the text recorded. Also: recordings
// of format 1 (merge patches) and of the chained patches written until format 5 still read, and are
// written on in the current format.
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/kube/object';
import { canonicalJson, canonicalize, createMergePatch } from '../../../main/history/merge-patch';
import {
  VersionEncoding,
  encodeChainedPatch,
  encodeMembers,
  encodeVersion,
  storedDelta,
  storedRaw,
} from '../../../main/history/object-codec';
import { openRecording } from '../../../main/history/recording-reader';
import { RecordingWriter } from '../../../main/history/recording-writer';
import { openForWriting, readMeta, recordingFormatVersion, writeMeta } from '../../../main/history/schema';
import { stateAt } from '../../../main/history/replay';
import type { SqliteDatabase } from '../../../main/history/schema';
import { VersionDecoder } from '../../../main/history/version-decoder';
import type { TempDirectory } from './fixtures';
import { realisticPod, seededRandom, tempDirectory } from './fixtures';

let directory: TempDirectory | undefined;
afterEach(() => {
  directory?.remove();
  directory = undefined;
});

interface StoredRow {
  id: number;
  base: number | null;
  encoding: number;
  payload: Buffer | null;
}

function storedRows(database: SqliteDatabase): StoredRow[] {
  return database.prepare('SELECT id, base, encoding, payload FROM changes ORDER BY id').all() as StoredRow[];
}

/** `pod` after a kubelet status update: a restart and a new start time, at `resourceVersion`. */
function restarted(pod: KubeObject, resourceVersion: number): KubeObject {
  const next = structuredClone(pod);
  next.metadata.resourceVersion = String(resourceVersion);
  const status = next.status as { containerStatuses?: { restartCount?: number; state?: unknown }[] };
  status.containerStatuses = (status.containerStatuses ?? [{}]).map((container) => ({
    ...container,
    restartCount: (container.restartCount ?? 0) + 1,
    state: { running: { startedAt: `2026-01-01T00:${String(resourceVersion % 60).padStart(2, '0')}:00Z` } },
  }));
  return next;
}

/** Writes `versions` of one pod as Updated changes, one a millisecond; returns the change ids. */
function writeVersions(writer: RecordingWriter, stream: number, versions: readonly KubeObject[]): number[] {
  const ids: number[] = [];
  writer.transaction(() => {
    versions.forEach((object, index) => {
      ids.push(
        writer.writeChange({
          time: 1000 + index,
          stream,
          type: index === 0 ? 'Added' : 'Updated',
          finalStateUnknown: false,
          object,
          key: `${object.metadata.namespace}/${object.metadata.name}`,
        }),
      );
    });
  });
  return ids;
}

function open(name: string): { database: SqliteDatabase; writer: RecordingWriter; stream: number } {
  directory ??= tempDirectory();
  const database = openForWriting(directory.file(name), 'test-context');
  const writer = new RecordingWriter(database, { fullVersionEvery: 16 });
  return { database, writer, stream: writer.stream({ gvr: 'pods.v1', scope: '' }) };
}

/** The text a version of `object` is recorded as: its JSON without managedFields, keys in its order. */
function recordedText(object: KubeObject): string {
  const { managedFields: _managedFields, ...metadata } = object.metadata;
  return JSON.stringify({ ...object, metadata });
}

function expectDecodesToRecorded(database: SqliteDatabase, ids: number[], versions: KubeObject[]): void {
  const decoder = new VersionDecoder(database);
  ids.forEach((id, index) => expect(decoder.json(id)).toBe(recordedText(versions[index])));
  // A cold decoder takes each chain from its full version.
  ids.forEach((id, index) =>
    expect(new VersionDecoder(database).json(id)).toBe(recordedText(versions[index])),
  );
}

describe('RecordingWriter versions', () => {
  it('stores status updates as text deltas on the previous version, whole every 16 changes, each decoding to the text recorded', () => {
    const { database, writer, stream } = open('chained.kubetide');
    const versions = [realisticPod('web-abc12-x')];
    for (let index = 1; index < 40; index++) versions.push(restarted(versions[index - 1], 100 + index));
    const ids = writeVersions(writer, stream, versions);
    const rows = storedRows(database);
    const whole = rows.filter((row) => row.base === null).map((row) => ids.indexOf(row.id));
    expect(whole).toEqual([0, 17, 34]);
    for (const row of rows.filter((row) => row.base !== null)) {
      expect(row.encoding).toBe(VersionEncoding.text | storedDelta);
      expect(row.base).toBe(row.id - 1);
      expect(row.payload!.length).toBeLessThan(80);
    }
    expectDecodesToRecorded(database, ids, versions);
    database.close();
  });

  it('stores a repeat, and a deletion with no known state, as a NULL payload on the last version', () => {
    const { database, writer, stream } = open('repeat.kubetide');
    const first = realisticPod('web-abc12-y');
    first.metadata.resourceVersion = '41';
    const ids = writeVersions(writer, stream, [first, structuredClone(first)]);
    const key = `${first.metadata.namespace}/${first.metadata.name}`;
    ids.push(
      writer.writeChange({
        time: 2000,
        stream,
        type: 'Deleted',
        finalStateUnknown: true,
        object: undefined,
        key,
      }),
    );
    const rows = storedRows(database);
    expect(rows.slice(1).map((row) => [row.base, row.payload])).toEqual([
      [ids[0], null],
      [ids[1], null],
    ]);
    expect(database.prepare('SELECT resource_version FROM changes WHERE id = ?').pluck().get(ids[2])).toBe(
      first.metadata.resourceVersion,
    );
    expectDecodesToRecorded(database, ids, [first, first, first]);
    database.close();
  });

  it('deflates against the previous version a change that a text delta would mostly insert', () => {
    const { database, writer, stream } = open('deflated.kubetide');
    const first = realisticPod('web-abc12-z');
    const rewritten = structuredClone(first);
    rewritten.metadata.resourceVersion = '200';
    rewritten.status = {
      phase: 'Failed',
      message: Array.from({ length: 40 }, (_, index) => `probe ${index} failed: connection refused`).join(
        '; ',
      ),
    };
    const ids = writeVersions(writer, stream, [first, rewritten]);
    const row = storedRows(database)[1];
    expect(row.encoding).toBe(VersionEncoding.text);
    expect(row.base).toBe(ids[0]);
    expectDecodesToRecorded(database, ids, [first, rewritten]);
    database.close();
  });

  it('stores a new pod against its sibling from the same ReplicaSet', () => {
    const { database, writer, stream } = open('sibling.kubetide');
    const first = realisticPod('web-abc12-a');
    const second = realisticPod('web-abc12-b');
    const ids = writeVersions(writer, stream, [first, second]);
    const row = storedRows(database)[1];
    expect(row.encoding).toBe(VersionEncoding.text | storedDelta);
    expect(row.base).toBe(ids[0]);
    expect(row.payload!.length).toBeLessThan(recordedText(second).length / 8);
    expectDecodesToRecorded(database, ids, [first, second]);
    database.close();
  });

  it('gives the current object of a live uid, parsed from the text it keeps', () => {
    const { database, writer, stream } = open('current.kubetide');
    const pod = realisticPod('web-abc12-c');
    const later = restarted(pod, 900);
    writeVersions(writer, stream, [pod, later]);
    expect(writer.currentObject(stream, pod.metadata.uid!)).toEqual(JSON.parse(recordedText(later)));
    expect(writer.currentObject(stream, 'no-such-uid')).toBeUndefined();
    database.close();
  });

  it('decodes every version of randomly changing objects to exactly the text recorded', () => {
    const { database, writer, stream } = open('random.kubetide');
    const random = seededRandom(12);
    const pods = Array.from({ length: 6 }, (_, index) => realisticPod(`api-abc12-${index}`));
    const written: { id: number; text: string }[] = [];
    writer.transaction(() => {
      for (let step = 0; step < 600; step++) {
        const which = Math.floor(random() * pods.length);
        pods[which] = randomlyChanged(pods[which], random, step);
        const object = pods[which];
        const id = writer.writeChange({
          time: 1000 + step,
          stream,
          type: 'Updated',
          finalStateUnknown: false,
          object,
          key: `${object.metadata.namespace}/${object.metadata.name}`,
        });
        written.push({ id, text: recordedText(object) });
      }
    });
    const decoder = new VersionDecoder(database);
    for (const { id, text } of written) expect(decoder.json(id)).toBe(text);
    for (const { id, text } of written.filter((_, index) => index % 7 === 0))
      expect(new VersionDecoder(database).json(id)).toBe(text);
    database.close();
  });
});

/**
 * `pod` with random edits of the kinds a cluster makes: values rewritten in place, with a different
 * length, fields added and removed, non-ASCII and escaped text, now and then most of the status replaced.
 */
function randomlyChanged(pod: KubeObject, random: () => number, step: number): KubeObject {
  const next = structuredClone(pod);
  next.metadata.resourceVersion = String(1000 + step * Math.floor(1 + random() * 1000));
  const status = next.status as Record<string, unknown>;
  const edit = Math.floor(random() * 6);
  if (edit === 0) status.message = `étape ${step} "quoted" \\ \n ${'x'.repeat(Math.floor(random() * 50))}`;
  else if (edit === 1) delete status.message;
  else if (edit === 2) next.metadata.labels = { ...next.metadata.labels, [`k${step % 5}`]: String(random()) };
  else if (edit === 3) status.podIP = `10.${step % 256}.${Math.floor(random() * 256)}.${step % 7}`;
  else if (edit === 4)
    next.status = { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False' }] };
  else status.startTime = new Date(Date.UTC(2026, 0, 1) + step * 997).toISOString();
  return next;
}

describe('recording format', () => {
  it('reads a format 1 recording (versions deflated against the base JSON) and writes on in the current format', () => {
    directory = tempDirectory();
    const database = openForWriting(directory.file('format-1.kubetide'), 'test-context');
    writeMeta(database, 'formatVersion', '1');
    const first = realisticPod('api-abc12-a');
    const second = restarted(first, 300);
    database.prepare("INSERT INTO streams (id, gvr, scope) VALUES (1, 'pods.v1', '')").run();
    database
      .prepare("INSERT INTO objects (id, stream, namespace, name, uid) VALUES (1, 1, 'default', ?, ?)")
      .run(first.metadata.name, first.metadata.uid);
    const insert = database.prepare(
      "INSERT INTO changes (id, time, stream, object, type, resource_version, base, hint, encoding, payload) VALUES (?, ?, 1, 1, 2, '', ?, NULL, ?, ?)",
    );
    const patch = JSON.stringify({
      metadata: { resourceVersion: '300' },
      status: JSON.parse(canonicalJson(second)).status,
    });
    insert.run(1, 1000, null, VersionEncoding.full, encodeVersion(canonicalJson(first)));
    insert.run(2, 1001, 1, VersionEncoding.patch, encodeVersion(patch, canonicalJson(first)));
    database.close();

    const reader = openRecording(directory!.file('format-1.kubetide'));
    expect(reader.metadata.formatVersion).toBe(1);
    expect(stateAt(reader, { gvr: 'pods.v1', time: 1001 }).objects).toEqual([
      JSON.parse(canonicalJson(second)),
    ]);
    reader.close();

    const reopened = openForWriting(directory!.file('format-1.kubetide'), 'test-context');
    expect(readMeta(reopened, 'formatVersion')).toBe(String(recordingFormatVersion));
    reopened.close();
  });

  it('reads the chained patches written until format 5 (raw, text delta, deflated) and writes on after them', () => {
    directory = tempDirectory();
    const file = directory.file('chained-patches.kubetide');
    const database = openForWriting(file, 'test-context');
    const versions = [realisticPod('api-abc12-b')];
    // The second repeats the first; the third's patch deflates against that repeat's tiny one; the
    // fourth's repeats most of the third's.
    for (let index = 1; index < 4; index++) versions.push(restarted(versions[index - 1], 400 + index));
    database.prepare("INSERT INTO streams (id, gvr, scope) VALUES (1, 'pods.v1', '')").run();
    database
      .prepare("INSERT INTO objects (id, stream, namespace, name, uid) VALUES (1, 1, 'default', ?, ?)")
      .run(versions[0].metadata.name, versions[0].metadata.uid);
    const insert = database.prepare(
      "INSERT INTO changes (id, time, stream, object, type, resource_version, base, hint, encoding, payload) VALUES (?, ?, 1, 1, 2, '', ?, NULL, ?, ?)",
    );
    const first = canonicalJson(versions[0]);
    insert.run(1, 1000, null, VersionEncoding.full, encodeVersion(first));
    let stored: Buffer = Buffer.from(first);
    const encodings: number[] = [];
    for (let index = 1; index < versions.length; index++) {
      const patch = Buffer.from(
        JSON.stringify(createMergePatch(canonicalize(versions[index - 1]), canonicalize(versions[index]))),
      );
      const { encoding, payload } =
        index === 1
          ? { encoding: VersionEncoding.chainedPatch | storedRaw, payload: Buffer.from('{"metadata":{}}') }
          : encodeChainedPatch(patch, stored);
      // The first is a raw patch that changes nothing but is stored as one: the next one's dictionary.
      if (index === 1) versions[1] = versions[0];
      stored = index === 1 ? payload : patch;
      encodings.push(encoding);
      insert.run(index + 1, 1000 + index, index, encoding, payload);
    }
    expect(new Set(encodings)).toEqual(
      new Set([
        VersionEncoding.chainedPatch | storedRaw,
        VersionEncoding.chainedPatch | storedDelta,
        VersionEncoding.chainedPatch,
      ]),
    );
    writeMeta(database, 'formatVersion', '5');
    database
      .prepare('INSERT INTO keyframes (time, stream, last_change, members) VALUES (999, 1, 0, ?)')
      .run(encodeMembers(new Map()));
    const decoder = new VersionDecoder(database);
    versions.forEach((version, index) => expect(decoder.json(index + 1)).toBe(canonicalJson(version)));

    const writer = new RecordingWriter(database, { fullVersionEvery: 16 });
    const stream = writer.stream({ gvr: 'pods.v1', scope: '' });
    const next = restarted(versions[3], 500);
    const [id] = writeVersions(writer, stream, [next]);
    expect(storedRows(database).at(-1)!.base).toBeNull();
    expect(new VersionDecoder(database).json(id)).toBe(recordedText(next));
    database.close();
  });
});
