// How the writer stores versions: status updates as chained patches (deflated against the previous
// payload's text, or raw when short), a full version every fullVersionEvery changes, the older
// encodings where a chained patch does not apply, and every version decoding to the object's
// canonical JSON. Also: recordings of format 1 still read, and are written on in the current format.
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/kube/object';
import { canonicalJson } from '../../../main/history/merge-patch';
import { VersionEncoding, encodeVersion, encodingKind, storedRaw } from '../../../main/history/object-codec';
import { openRecording } from '../../../main/history/recording-reader';
import { RecordingWriter } from '../../../main/history/recording-writer';
import { openForWriting, readMeta, recordingFormatVersion, writeMeta } from '../../../main/history/schema';
import { stateAt } from '../../../main/history/replay';
import type { SqliteDatabase } from '../../../main/history/schema';
import { VersionDecoder } from '../../../main/history/version-decoder';
import type { TempDirectory } from './fixtures';
import { realisticPod, tempDirectory } from './fixtures';

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

function expectDecodesToCanonical(database: SqliteDatabase, ids: number[], versions: KubeObject[]): void {
  const decoder = new VersionDecoder(database);
  ids.forEach((id, index) => expect(decoder.json(id)).toBe(canonicalJson(versions[index])));
  // A cold decoder takes each chain from its full version.
  ids.forEach((id, index) =>
    expect(new VersionDecoder(database).json(id)).toBe(canonicalJson(versions[index])),
  );
}

describe('RecordingWriter versions', () => {
  it('stores status updates as chained patches, whole every 16 changes, each decoding exactly', () => {
    const { database, writer, stream } = open('chained.kubetide');
    const versions = [realisticPod('web-abc12-x')];
    for (let index = 1; index < 40; index++) versions.push(restarted(versions[index - 1], 100 + index));
    const ids = writeVersions(writer, stream, versions);
    const rows = storedRows(database);
    const whole = rows.filter((row) => row.base === null).map((row) => ids.indexOf(row.id));
    expect(whole).toEqual([0, 17, 34]);
    for (const row of rows.filter((row) => row.base !== null)) {
      expect(encodingKind(row.encoding)).toBe(VersionEncoding.chainedPatch);
      expect(row.base).toBe(row.id - 1);
      expect(row.payload!.length).toBeLessThan(120);
    }
    expectDecodesToCanonical(database, ids, versions);
    database.close();
  });

  it('stores a patch of a few dozen bytes raw, flagged in its encoding', () => {
    const { database, writer, stream } = open('raw.kubetide');
    const first = realisticPod('web-abc12-y');
    const second = structuredClone(first);
    second.metadata.resourceVersion = '77';
    const ids = writeVersions(writer, stream, [first, second]);
    const row = storedRows(database)[1];
    expect(row.encoding).toBe(VersionEncoding.chainedPatch | storedRaw);
    expect(row.payload!.toString()).toBe('{"metadata":{"resourceVersion":"77"}}');
    expectDecodesToCanonical(database, ids, [first, second]);
    database.close();
  });

  it('stores a change a merge patch cannot express as text, a repeat as a NULL payload, and chains on both', () => {
    const { database, writer, stream } = open('fallback.kubetide');
    const first = realisticPod('web-abc12-z');
    const nulled = structuredClone(first);
    (nulled.status as Record<string, unknown>).nominatedNodeName = null;
    nulled.metadata.resourceVersion = '200';
    const repeated = structuredClone(nulled);
    const later = restarted(repeated, 201);
    const last = restarted(later, 202);
    const versions = [first, nulled, repeated, later, last];
    const ids = writeVersions(writer, stream, versions);
    const rows = storedRows(database);
    expect(rows.map((row) => encodingKind(row.encoding))).toEqual([
      VersionEncoding.full,
      VersionEncoding.text,
      VersionEncoding.chainedPatch,
      VersionEncoding.chainedPatch,
      VersionEncoding.chainedPatch,
    ]);
    expect(rows[2].payload).toBeNull();
    expectDecodesToCanonical(database, ids, versions);
    database.close();
  });
});

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
});
