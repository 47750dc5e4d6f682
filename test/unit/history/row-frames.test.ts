// Row frames are a cache of what the versions say: a moment's rows built from them equal the rows of
// a full rebuild (stateAt's objects projected by the kind's printer) at random moments, through
// deletions, names re-created with a new uid (both live until a relist retires the old one), a new
// session's reset and retention, and whatever happens to the frames themselves (missing, damaged,
// another printer's, a file without them): never a wrong table.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeRows, joinedRows } from '../../../main/bridge/encoded-rows';
import { RowProjector } from '../../../main/bridge/row-projection';
import { MomentRows } from '../../../main/history/moment-rows';
import type { RecordingReader } from '../../../main/history/recording-reader';
import { openRecording } from '../../../main/history/recording-reader';
import { RecordingWriter } from '../../../main/history/recording-writer';
import { enforceRetention } from '../../../main/history/retention';
import { exportRecording } from '../../../main/history/export-recording';
import { printerKeepsRows } from '../../../main/history/row-frame-writer';
import { replayLayout } from '../../../main/history/replay-layout';
import { printerSignature } from '../../../main/history/row-frame-codec';
import { decodeRowFrame } from '../../../main/history/row-frame-decoder';
import { openForWriting } from '../../../main/history/schema';
import { stateAt } from '../../../main/history/state-at';
import type { StateQuery } from '../../../main/history/state-at';
import { printerFor } from '../../../shared/kinds/columns';
import type { KubeObject } from '../../../shared/kube/object';
import type { Row } from '../../../shared/protocol/row';
import { rowTuple } from '../../../shared/protocol/row-tuples';
import type { TempDirectory } from './fixtures';
import { realisticPod, recordChurn, seededRandom, tempDirectory } from './fixtures';

let directory: TempDirectory | undefined;
afterEach(() => {
  directory?.remove();
  vi.restoreAllMocks();
});

const start = Date.UTC(2026, 10, 30, 8);
const projector = new RowProjector(printerFor({ group: '', resource: 'pods' }));

/** `pod` changed: another status, restarts, node, and now and then its labels (in another key order). */
function nextVersion(pod: KubeObject, step: number): KubeObject {
  const labels = pod.metadata.labels ?? {};
  return {
    ...pod,
    metadata: {
      ...pod.metadata,
      resourceVersion: String(1_000_000 + step),
      labels: step % 7 === 0 ? { zone: `z${step % 3}`, ...labels } : labels,
    },
    spec: { ...(pod.spec as object), nodeName: `node-${step % 5}` },
    status: {
      ...(pod.status as object),
      phase: step % 3 ? 'Running' : 'Pending',
      containerStatuses: [{ name: 'app', ready: step % 2 === 0, restartCount: step % 11 }],
    },
  };
}

interface Written {
  readonly file: string;
  /** Recorded times to ask for (every change's, and between them). */
  readonly times: number[];
}

/**
 * Two sessions of churn over `pods` pods in three namespaces: updates, deletions, names re-created
 * with a new uid while the old one stays live (the informer never saw it go) until a relist retires
 * it, frames every few changes; the second session resets the stream as a new recorder does.
 */
function writeRecording(file: string, pods: number, changes: number): Written {
  const database = openForWriting(file, 'test-context', start);
  const times: number[] = [];
  const random = seededRandom(11);
  let time = start;
  for (let session = 0; session < 2; session++) {
    const writer = new RecordingWriter(database, { rowFrames: { everyObjects: 6, intervalMs: 60_000 } });
    const stream = writer.stream({ gvr: 'pods.v1', scope: '' });
    writer.resetStream(stream);
    writer.writeKeyframe(stream, time);
    const live: (KubeObject | undefined)[] = [];
    const write = (object: KubeObject, type: 'Added' | 'Updated' | 'Deleted', finalStateUnknown = false) => {
      time += 1 + random.integer(40);
      times.push(time, time + 1);
      const key = `${object.metadata.namespace}/${object.metadata.name}`;
      writer.writeChange({ time, stream, type, finalStateUnknown, object, key });
    };
    writer.beginList(stream);
    for (let index = 0; index < pods; index++) {
      const pod = realisticPod(`app${index % 4}-7d9f8c6b5-${index}`, `ns-${index % 3}`);
      live.push(pod);
      write(pod, 'Added');
    }
    writer.retireUnlisted(stream, time);
    for (let step = 0; step < changes; step++) {
      writer.transaction(() => {
        const which = random.integer(pods);
        const pod = live[which];
        if (pod === undefined) {
          const name = `app${which % 4}-7d9f8c6b5-${which}`;
          write((live[which] = realisticPod(name, `ns-${which % 3}`)), 'Added');
        } else if (random.chance(0.05)) {
          write(pod, 'Deleted');
          live[which] = undefined;
        } else if (random.chance(0.04)) {
          // The name comes back with a new uid; the old object is retired by the next relist only.
          const reborn = realisticPod(pod.metadata.name!, pod.metadata.namespace);
          write((live[which] = reborn), 'Added');
        } else write((live[which] = nextVersion(pod, step)), 'Updated');
        if (step % 97 === 96) {
          writer.beginList(stream);
          for (const object of live) if (object) write(object, 'Updated');
          writer.retireUnlisted(stream, time);
        }
        if (step % 50 === 49) writer.writeKeyframe(stream, time);
        writer.writeRowFramesDue(time);
      });
    }
    time += 10_000;
  }
  database.close();
  return { file, times };
}

/** What a full rebuild shows: the moment's objects, decoded and projected. */
function rebuilt(reader: RecordingReader, query: StateQuery, now: number): Row[] {
  return stateAt(reader, query).objects.map((object) => projector.project(object, now));
}

/**
 * A moment's rows from `moments`, as the worker sends them: text, chunk after chunk, joined
 * (each chunk's keys are its rows' keys).
 */
function framedText(moments: MomentRows, reader: RecordingReader, query: StateQuery, now: number): string {
  const moment = moments.moment(reader, query, now);
  const chunks = [...moment.chunks];
  for (const chunk of chunks) expect(chunk.keys).toEqual(decodeRows(chunk).map((row) => row.key));
  const rows = joinedRows(chunks);
  expect(rows.keys.length).toBe(moment.total);
  return rows.json;
}

/**
 * Rows as the worker's text: tuples under the pods' layout, same values, labels' keys in the same
 * order.
 */
const text = (rows: readonly Row[]) =>
  JSON.stringify(rows.map((row) => rowTuple(row, replayLayout(projector.printer))));

/**
 * Exports the part of a recording between two fractions of its change times (with `filter`), checking
 * that the source read cleanly; returns the file and the times inside the range.
 */
function exportPart(
  file: string,
  times: readonly number[],
  [first, last]: readonly [number, number],
  filter: { namespaces?: string[] } = {},
): { exported: string; from: number; inRange: number[] } {
  const from = times[Math.floor(times.length * first)];
  const to = times[Math.floor(times.length * last)];
  const source = openRecording(file);
  const exported = directory!.file('export.kubetide');
  exportRecording(source, exported, { from, to, ...filter });
  expect(source.problems).toEqual([]);
  source.close();
  return { exported, from, inRange: times.filter((time) => time >= from && time <= to) };
}

function expectExact(file: string, times: readonly number[], count: number, seed: number): void {
  const reader = openRecording(file);
  const moments = new MomentRows();
  const random = seededRandom(seed);
  const now = start + 86_400_000;
  for (let index = 0; index < count; index++) {
    const query = {
      gvr: 'pods.v1',
      time: random.pick(times),
      ...(index % 4 === 3 ? { namespace: 'ns-1' } : {}),
    };
    expect(framedText(moments, reader, query, now), `moment ${query.time}`).toBe(
      text(rebuilt(reader, query, now)),
    );
  }
  expect(reader.problems).toEqual([]);
  reader.close();
}

describe('row frames', () => {
  it('give the rows of a full rebuild at random moments', () => {
    directory = tempDirectory();
    const { file, times } = writeRecording(directory.file('frames.kubetide'), 40, 500);
    const reader = openRecording(file);
    const frames = reader.database.prepare('SELECT count(*) FROM row_frames').pluck().get() as number;
    const full = reader.database
      .prepare('SELECT count(*) FROM row_frames WHERE base IS NULL')
      .pluck()
      .get() as number;
    reader.close();
    expect(full).toBeGreaterThan(3);
    expect(frames - full).toBeGreaterThan(30);
    expectExact(file, times, 60, 3);
  });

  it('give the rows and gap of a full rebuild moment after moment, each read from the one before', () => {
    directory = tempDirectory();
    const { file, times } = writeRecording(directory.file('frames.kubetide'), 30, 400);
    // Two gaps, one of the stream and one of the whole recording, over moments the walk passes.
    const database = openForWriting(file, 'test-context');
    const writer = new RecordingWriter(database);
    const stream = writer.stream({ gvr: 'pods.v1', scope: '' });
    const at = (fraction: number) => times[Math.floor(times.length * fraction)];
    writer.writeMark({
      kind: 'gap',
      reason: 'watch-disconnected',
      stream,
      start: at(0.3),
      end: at(0.35),
      detail: '',
    });
    writer.writeMark({
      kind: 'gap',
      reason: 'not-recording',
      stream: undefined,
      start: at(0.7),
      end: at(0.72),
      detail: '',
    });
    database.close();
    const reader = openRecording(file);
    const moments = new MomentRows();
    const random = seededRandom(21);
    const now = start + 86_400_000;
    // Steps of a few changes forward and back (most rows kept from the moment before, a few new ones
    // to place among them), now and then a jump, and now and then one namespace.
    let index = 0;
    for (let step = 0; step < 80; step++) {
      index = random.chance(0.1)
        ? random.integer(times.length)
        : Math.max(0, Math.min(times.length - 1, index + random.integer(30) - 10));
      const query = { gvr: 'pods.v1', time: times[index], ...(step % 9 === 8 ? { namespace: 'ns-2' } : {}) };
      const moment = moments.moment(reader, query, now);
      const rows = joinedRows([...moment.chunks]);
      expect(rows.keys.length).toBe(moment.total);
      const expected = stateAt(reader, query);
      expect(rows.json, `moment ${query.time}`).toBe(
        text(expected.objects.map((o) => projector.project(o, now))),
      );
      expect(moment.gap, `gap at ${query.time}`).toEqual(expected.gap);
    }
    expect(reader.problems).toEqual([]);
    reader.close();
  });

  it('sent against the moment before, give its rows plus the difference: exactly the full rebuild', () => {
    directory = tempDirectory();
    const { file, times } = writeRecording(directory.file('frames.kubetide'), 30, 400);
    const reader = openRecording(file);
    const moments = new MomentRows();
    const random = seededRandom(5);
    const now = start + 86_400_000;
    // What the asker holds: the rows of the last moment asked, by key, and that moment's id.
    let held: { id: number; namespace: string | undefined; rows: Map<string, Row> } | undefined;
    let against = 0;
    let sentAgainst = 0;
    let heldAgainst = 0;
    let index = 0;
    for (let step = 0; step < 80; step++) {
      index = random.chance(0.15)
        ? random.integer(times.length)
        : Math.max(0, Math.min(times.length - 1, index + random.integer(30) - 10));
      const namespace = step % 13 === 12 ? 'ns-2' : undefined;
      const query = { gvr: 'pods.v1', time: times[index], ...(namespace ? { namespace } : {}) };
      // Now and then the asker names a moment the worker no longer has last (another's question).
      const since = random.chance(0.1) ? -1 : held?.id;
      const moment = moments.moment(reader, query, now, since);
      const sent = decodeRows(joinedRows([...moment.chunks]));
      const ended = moment.ended();
      let rows: Map<string, Row>;
      if (moment.against !== undefined) {
        against += 1;
        expect(moment.against).toBe(since);
        expect(held!.namespace).toBe(namespace);
        rows = new Map(held!.rows);
        for (const key of ended.deletes) expect(rows.delete(key), key).toBe(true);
        // Only rows of another change than the one held are sent (a relist's change of an object
        // left as it was is one, its row the same).
        for (const row of sent) rows.set(row.key, row);
        sentAgainst += sent.length;
        heldAgainst += ended.rows;
      } else {
        expect(ended.deletes).toEqual([]);
        rows = new Map(sent.map((row) => [row.key, row]));
      }
      const expected = rebuilt(reader, query, now);
      expect(ended.rows).toBe(expected.length);
      expect(moment.total).toBe(expected.length);
      expect(
        [...rows.values()].sort((a, b) => (a.key < b.key ? -1 : 1)),
        `moment ${query.time}`,
      ).toEqual(expected);
      held = { id: moment.id, namespace, rows };
    }
    // Most moments were sent against the one before: those of another namespace, or after a wrong
    // `since`, were sent whole.
    expect(against).toBeGreaterThan(40);
    expect(sentAgainst).toBeLessThan(heldAgainst / 2);
    expect(reader.problems).toEqual([]);
    reader.close();
  });

  it('sent against live rows, give the rows that differ from them: exactly the full rebuild', () => {
    directory = tempDirectory();
    const { file, times } = writeRecording(directory.file('frames.kubetide'), 30, 400);
    const reader = openRecording(file);
    const moments = new MomentRows();
    const random = seededRandom(9);
    const now = start + 86_400_000;
    let held: { id: number; namespace: string | undefined; rows: Map<string, Row> } | undefined;
    const counts = { live: 0, sentLive: 0, rowsLive: 0, against: 0 };
    for (let step = 0; step < 60; step++) {
      const index = random.integer(times.length);
      const namespace = step % 11 === 10 ? 'ns-1' : undefined;
      const query = { gvr: 'pods.v1', time: times[index], ...(namespace ? { namespace } : {}) };
      // The live rows: another moment's, with a key the recording never held, a row at a version
      // it never recorded, and one row left out.
      const liveRows = new Map(
        rebuilt(reader, { gvr: 'pods.v1', time: times[random.integer(times.length)] }, now).map((row) => [
          row.key,
          row,
        ]),
      );
      const [first, second] = liveRows.values();
      liveRows.set('ns-0/never-recorded', { ...first, key: 'ns-0/never-recorded', uid: 'uid-ghost' });
      liveRows.set(first.key, { ...first, resourceVersion: `${first.resourceVersion}0` });
      liveRows.delete(second.key);
      const fromLive = random.chance(0.6);
      const listing = [...liveRows.values()]
        .map((row) => `${row.key}\t${row.uid}\t${row.resourceVersion}\n`)
        .join('');
      const since = fromLive ? undefined : held?.id;
      const moment = moments.moment(reader, query, now, since, fromLive ? listing : undefined);
      const sent = decodeRows(joinedRows([...moment.chunks]));
      const ended = moment.ended();
      let rows: Map<string, Row>;
      if (moment.againstLive) {
        counts.live += 1;
        counts.sentLive += sent.length;
        counts.rowsLive += ended.rows;
        expect(moment.unchanged + sent.length).toBe(ended.rows);
        rows = new Map(liveRows);
        for (const key of ended.deletes) expect(rows.delete(key), key).toBe(true);
        for (const row of sent) rows.set(row.key, row);
      } else if (moment.against !== undefined) {
        counts.against += 1;
        rows = new Map(held!.rows);
        for (const key of ended.deletes) expect(rows.delete(key), key).toBe(true);
        for (const row of sent) rows.set(row.key, row);
      } else {
        expect(ended.deletes).toEqual([]);
        rows = new Map(sent.map((row) => [row.key, row]));
      }
      const expected = rebuilt(reader, query, now);
      expect(ended.rows).toBe(expected.length);
      expect(moment.total).toBe(expected.length);
      expect(
        [...rows.values()].sort((a, b) => (a.key < b.key ? -1 : 1)),
        `moment ${query.time}`,
      ).toEqual(expected);
      held = { id: moment.id, namespace, rows };
    }
    // Most moments from live were sent against the live rows (one namespace's were too small a share
    // of them), and then as a part of their rows; moments against one sent from live were too.
    expect(counts.live).toBeGreaterThan(20);
    expect(counts.against).toBeGreaterThan(5);
    expect(counts.sentLive).toBeLessThan(counts.rowsLive);
    expect(reader.problems).toEqual([]);
    reader.close();
  });

  it('are where the rows come from: versions the frames hold are never decoded', () => {
    directory = tempDirectory();
    const { file, times } = writeRecording(directory.file('frames.kubetide'), 30, 300);
    const reader = openRecording(file);
    const last = reader.database.prepare('SELECT max(last_change) FROM row_frames').pluck().get() as number;
    const time = reader.database.prepare('SELECT time FROM changes WHERE id = ?').pluck().get(last) as number;
    const now = start + 86_400_000;
    const expected = rebuilt(reader, { gvr: 'pods.v1', time }, now);
    reader.close();
    // Every version up to the last frame made unreadable: the moment at that frame still reads whole.
    const database = openForWriting(file, 'test-context');
    database.prepare("UPDATE changes SET encoding = 0, payload = x'00ff' WHERE id <= ?").run(last);
    database.close();
    const damaged = openRecording(file);
    expect(framedText(new MomentRows(), damaged, { gvr: 'pods.v1', time }, now)).toBe(text(expected));
    expect(damaged.problems).toEqual([]);
    damaged.close();
    expect(times.length).toBeGreaterThan(0);
  });

  it('missing, damaged or printed otherwise, fall back to the versions, never to a wrong row', () => {
    directory = tempDirectory();
    const { file, times } = writeRecording(directory.file('frames.kubetide'), 30, 400);
    const database = openForWriting(file, 'test-context');
    const ids = database.prepare('SELECT id FROM row_frames ORDER BY id').pluck().all() as number[];
    const random = seededRandom(5);
    for (const id of ids) {
      const roll = random();
      if (roll < 0.15) database.prepare('DELETE FROM row_frames WHERE id = ?').run(id);
      else if (roll < 0.3) database.prepare("UPDATE row_frames SET rows = x'0badf00d' WHERE id = ?").run(id);
      else if (roll < 0.4)
        database.prepare("UPDATE row_frames SET rows = x'ab' || substr(rows, 2) WHERE id = ?").run(id);
    }
    database.close();
    expectExact(file, times, 50, 8);
    // Another build's printer (other columns): its frames are ignored.
    const other = openForWriting(file, 'test-context');
    const select = other.prepare('SELECT id, rows FROM row_frames').all() as { id: number; rows: Buffer }[];
    for (const { id, rows } of select) {
      let stored: { printer: string };
      try {
        stored = JSON.parse(inflateRawSync(rows).toString()) as { printer: string };
      } catch {
        continue;
      }
      stored.printer = '[]';
      other
        .prepare('UPDATE row_frames SET rows = ? WHERE id = ?')
        .run(deflateRawSync(JSON.stringify(stored)), id);
    }
    other.close();
    expectExact(file, times, 20, 9);
  });

  it('a format 5 file (no row_frames table) rebuilds its moments from the versions', () => {
    directory = tempDirectory();
    const { file, times } = writeRecording(directory.file('frames.kubetide'), 20, 200);
    const database = openForWriting(file, 'test-context');
    database.exec("DROP TABLE row_frames; UPDATE meta SET value = '5' WHERE key = 'formatVersion'");
    database.close();
    expectExact(file, times, 30, 4);
  });

  it('survive retention: the frames before the new start go, the moments after it read alike', () => {
    directory = tempDirectory();
    const { file, times } = writeRecording(directory.file('frames.kubetide'), 30, 500);
    const middle = times[Math.floor(times.length / 2)];
    const database = openForWriting(file, 'test-context');
    const writer = new RecordingWriter(database);
    expect(enforceRetention(writer, { maxAgeMs: 1 }, middle + 1)).toBe(middle);
    const before = database
      .prepare('SELECT count(*) FROM row_frames WHERE time < ?')
      .pluck()
      .get(middle) as number;
    expect(before).toBe(0);
    database.close();
    expectExact(
      file,
      times.filter((time) => time >= middle),
      40,
      6,
    );
  });

  it("are written by a recorder's session at the end of its batches", async () => {
    directory = tempDirectory();
    const run = await recordChurn(directory.file('churn.kubetide'), 60);
    const reader = openRecording(run.file);
    const frames = reader.database.prepare('SELECT count(*) FROM row_frames').pluck().get() as number;
    reader.close();
    // The list's full frame, then a delta every 10 s of changes (a step is 500 ms).
    expect(frames).toBeGreaterThanOrEqual(3);
    expectExact(
      run.file,
      run.moments.map((moment) => moment.time),
      20,
      2,
    );
  });

  it("are copied into an export: its moments read the source's frames and give the same rows", () => {
    directory = tempDirectory();
    const { file, times } = writeRecording(directory.file('frames.kubetide'), 30, 300);
    const { exported, from, inRange } = exportPart(file, times, [1 / 3, 2 / 3]);
    expectExact(exported, inRange, 40, 7);
    // The rows come from the frames: with every version up to the export's last frame unreadable,
    // the moment at that frame still reads whole.
    const reader = openRecording(exported);
    const last = reader.database.prepare('SELECT max(last_change) FROM row_frames').pluck().get() as number;
    const time = reader.database.prepare('SELECT time FROM changes WHERE id = ?').pluck().get(last) as number;
    expect(time).toBeGreaterThan(from);
    const now = start + 86_400_000;
    const expected = rebuilt(reader, { gvr: 'pods.v1', time }, now);
    reader.close();
    const database = openForWriting(exported, 'test-context');
    database.prepare("UPDATE changes SET encoding = 0, payload = x'00ff' WHERE id <= ?").run(last);
    database.close();
    const damaged = openRecording(exported);
    expect(framedText(new MomentRows(), damaged, { gvr: 'pods.v1', time }, now)).toBe(text(expected));
    expect(damaged.problems).toEqual([]);
    damaged.close();
  });

  it("an export of some namespaces holds only those namespaces' rows in its frames", () => {
    directory = tempDirectory();
    const { file, times } = writeRecording(directory.file('frames.kubetide'), 30, 300);
    const { exported, inRange } = exportPart(file, times, [1 / 4, 3 / 4], { namespaces: ['ns-1', 'ns-2'] });
    const reader = openRecording(exported);
    const frames = reader.database.prepare('SELECT rows FROM row_frames').pluck().all() as Buffer[];
    const signature = printerSignature(printerFor({ group: '', resource: 'pods' }));
    const namespaces = new Set<string>();
    for (const blob of frames) {
      const frame = decodeRowFrame(blob, signature);
      for (let at = 0; at < frame.objects.length; at++) namespaces.add(frame.namespace(at));
    }
    reader.close();
    expect(frames.length).toBeGreaterThan(5);
    expect([...namespaces].sort()).toEqual(['ns-1', 'ns-2']);
    expectExact(exported, inRange, 40, 12);
  });

  it('an export of a format 5 file (no row_frames table) reads from its versions', () => {
    directory = tempDirectory();
    const { file, times } = writeRecording(directory.file('frames.kubetide'), 20, 200);
    const database = openForWriting(file, 'test-context');
    database.exec("DROP TABLE row_frames; UPDATE meta SET value = '5' WHERE key = 'formatVersion'");
    database.close();
    const { exported, inRange } = exportPart(file, times, [1 / 3, 2 / 3]);
    expectExact(exported, inRange, 20, 13);
  });

  it("keep an unchanged object's row through a relist: only the objects that changed are projected", () => {
    directory = tempDirectory();
    const file = directory.file('relist.kubetide');
    const database = openForWriting(file, 'test-context', start);
    const writer = new RecordingWriter(database, { rowFrames: { intervalMs: 1_000 } });
    const stream = writer.stream({ gvr: 'pods.v1', scope: '' });
    writer.resetStream(stream);
    writer.writeKeyframe(stream, start);
    const pods = Array.from({ length: 20 }, (_, index) => realisticPod(`app-7d9f8c6b5-${index}`, 'ns-0'));
    const list = (time: number) =>
      writer.transaction(() => {
        writer.beginList(stream);
        for (const pod of pods) {
          const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
          writer.writeChange({ time, stream, type: 'Updated', finalStateUnknown: false, object: pod, key });
        }
        writer.retireUnlisted(stream, time);
        writer.writeRowFramesDue(time);
      });
    list(start);
    const project = vi.spyOn(RowProjector.prototype, 'project');
    pods[3] = nextVersion(pods[3], 1);
    list(start + 5_000);
    // The relist's delta frame holds a row for each of its changes, one of them projected anew.
    expect(project).toHaveBeenCalledTimes(1);
    const frames = database.prepare('SELECT count(*) FROM row_frames').pluck().get();
    database.close();
    expect(frames).toBe(2);
    expectExact(file, [start, start + 5_000, start + 5_001], 6, 14);
  });

  it('decoded ahead (warming), serve the moments that follow: read from the cache, not the file', () => {
    directory = tempDirectory();
    const { file, times } = writeRecording(directory.file('frames.kubetide'), 30, 400);
    const reader = openRecording(file);
    const last = reader.database.prepare('SELECT max(last_change) FROM row_frames').pluck().get() as number;
    const time = reader.database.prepare('SELECT time FROM changes WHERE id = ?').pluck().get(last) as number;
    const now = start + 86_400_000;
    const expected = text(rebuilt(reader, { gvr: 'pods.v1', time }, now));
    const moments = new MomentRows();
    const steps = [...moments.warming(reader)];
    // A step per frame of the newest chain (a delta frame and the ones it adds to, to a full frame),
    // one for the stream's newest state (see NewestState), one for its newest keyframes decoded ahead
    // (see KeyframeMembers.warm).
    const full = reader.database.prepare('SELECT max(id) FROM row_frames WHERE base IS NULL').pluck().get();
    const chain = reader.database.prepare('SELECT count(*) FROM row_frames WHERE id >= ?').pluck().get(full);
    expect(steps.length).toBe((chain as number) + 2);
    // The newest chain's blobs, and the versions from the first few changes up to the last frame,
    // unreadable: the moment at the last frame still reads whole, from the frames decoded ahead,
    // after a moment at the start (another chain) too.
    const database = openForWriting(file, 'test-context');
    database.prepare("UPDATE row_frames SET rows = x'0badf00d' WHERE id >= ?").run(full);
    database
      .prepare("UPDATE changes SET encoding = 0, payload = x'00ff' WHERE id > 10 AND id <= ?")
      .run(last);
    database.close();
    expect(framedText(moments, reader, { gvr: 'pods.v1', time }, now)).toBe(expected);
    const early = { gvr: 'pods.v1', time: times[5] };
    expect(framedText(moments, reader, early, now)).toBe(text(rebuilt(reader, early, now)));
    expect(framedText(moments, reader, { gvr: 'pods.v1', time }, now)).toBe(expected);
    expect(reader.problems).toEqual([]);
    reader.close();
  });

  it('are kept only for printers that never read the clock', () => {
    expect(printerKeepsRows(printerFor({ group: '', resource: 'pods' }))).toBe(true);
    expect(printerKeepsRows(printerFor({ group: 'apps', resource: 'deployments' }))).toBe(true);
    // A running Job's duration is read off the travel's `now`.
    expect(printerKeepsRows(printerFor({ group: 'batch', resource: 'jobs' }))).toBe(false);
  });
});
