// History questions answered off the main thread: HistoryQueries answers exactly what stateAt,
// objectVersions and adjacentChange answer on the calling thread, from a worker, and its rows are
// stateAt's objects projected by the kind's printer.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/kube/object';
import { adjacentChange, objectVersions } from '../../../main/history/object-history';
import { diffObjects } from '../../../main/history/object-diff';
import { openRecording } from '../../../main/history/recording-reader';
import { playback, stateAt, timeRange } from '../../../main/history/replay';
import { RecordingError } from '../../../main/history/recording-error';
import type { RecordedChange } from '../../../main/history/recorded-change';
import { HistoryQueries } from '../../../main/history/history-queries';
import { RowProjector } from '../../../main/bridge/row-projection';
import { replayLayout } from '../../../main/history/replay-layout';
import { rowTuple } from '../../../shared/protocol/row-tuples';
import type { EncodedRows } from '../../../main/bridge/encoded-rows';
import { joinedRows } from '../../../main/bridge/encoded-rows';
import { printerFor } from '../../../shared/kinds/columns';
import type { TempDirectory } from './fixtures';
import { recordChurn, seededRandom, tempDirectory } from './fixtures';

/** What the History tab's list holds of each version (ObjectVersion): the change without its object. */
function listed(versions: readonly RecordedChange[]) {
  return versions.map(({ id, time, type, uid, resourceVersion, finalStateUnknown }) => ({
    id,
    time,
    type,
    uid,
    resourceVersion,
    finalStateUnknown,
  }));
}

let directory: TempDirectory | undefined;
const queries = new HistoryQueries();
afterEach(() => directory?.remove());

describe('HistoryQueries', () => {
  it('answers in a worker thread what stateAt, objectVersions (as the list) and adjacentChange answer here', async () => {
    directory = tempDirectory();
    const run = await recordChurn(directory.file('churn.kubetide'), 40);
    const reader = openRecording(run.file);
    const start = reader.metadata.start ?? run.moments[0].time;
    for (const time of [start - 1, run.moments[0].time, run.moments[20].time, run.moments[39].time]) {
      const expected = stateAt(reader, { gvr: 'pods.v1', time });
      const objects: KubeObject[] = [];
      const rebuilt = await queries.stateAt(run.file, { gvr: 'pods.v1', time }, (chunk) =>
        objects.push(...chunk),
      );
      expect(objects).toEqual(expected.objects);
      expect(rebuilt).toEqual({ complete: expected.complete, gap: expected.gap });
    }
    const uid = run.moments[20].objects[0].metadata.uid!;
    expect((await queries.versionList(run.file, { uid })).decode()).toEqual(
      listed(objectVersions(reader, { uid })),
    );
    const middle = run.moments[20].time;
    for (const direction of ['previous', 'next'] as const)
      expect(await queries.adjacent(run.file, { uid }, middle, direction)).toBe(
        adjacentChange(reader, { uid }, middle, direction)?.time,
      );
    reader.close();
    queries.close();
  });

  it("answers an object's version list, a diff of two versions and the object at a moment as its whole history says", async () => {
    directory = tempDirectory();
    const run = await recordChurn(directory.file('churn.kubetide'), 60);
    const reader = openRecording(run.file);
    const asking = new HistoryQueries();
    try {
      // The most changed name, by name (every incarnation) and by the uid of its last one.
      const changes = new Map<string, number>();
      for (const moment of run.moments)
        for (const object of moment.objects) {
          const key = `${object.metadata.namespace}/${object.metadata.name}`;
          changes.set(key, (changes.get(key) ?? 0) + 1);
        }
      const [busiest] = [...changes].sort((left, right) => right[1] - left[1])[0]!;
      const [namespace, name] = busiest.split('/');
      const byName = { gvr: 'pods.v1', namespace, name };
      const versions = objectVersions(reader, byName);
      expect(versions.length).toBeGreaterThan(2);
      const uid = versions[versions.length - 1].uid;
      for (const reference of [byName, { uid }]) {
        const whole = objectVersions(reader, reference);
        expect((await asking.versionList(run.file, reference)).decode()).toEqual(listed(whole));
        for (let index = 1; index < whole.length; index++) {
          const [older, newer] = [whole[index - 1], whole[index]];
          const diff = await asking.versionDiff(run.file, reference, older.id, newer.id);
          expect(diff?.decode()).toEqual(diffObjects(older.object, newer.object));
        }
        // A change id of another object is no version of this one.
        const other = objectVersions(reader, {
          uid: run.moments[0].objects.find((object) => object.metadata.uid !== uid)!.metadata.uid!,
        });
        expect(await asking.versionDiff(run.file, reference, whole[0].id, other[0].id)).toBeUndefined();
        // The object at a moment: its last version at or before it, none once deleted or before it was.
        const times = [whole[0].time - 1, ...whole.flatMap((version) => [version.time, version.time + 1])];
        for (const time of times) {
          let found: KubeObject | undefined;
          for (const version of whole) {
            if (version.time > time) break;
            found = version.type === 'Deleted' ? undefined : version.object;
          }
          expect((await asking.objectAt(run.file, reference, time)).decode()).toEqual(found ?? null);
        }
      }
    } finally {
      asking.close();
      reader.close();
    }
  });

  it('inspects a file to import: its context, or the same RecordingError opening it throws here', async () => {
    directory = tempDirectory();
    const inspecting = new HistoryQueries();
    try {
      const run = await recordChurn(directory.file('churn.kubetide'), 5);
      const reader = openRecording(run.file);
      expect(await inspecting.inspect(run.file, { keep: false })).toEqual({
        context: reader.metadata.context,
        problems: [],
      });
      reader.close();
      const other = directory.file('other.sqlite');
      const database = new Database(other);
      database.exec('CREATE TABLE notes (text TEXT)');
      database.close();
      const here = (() => {
        try {
          openRecording(other);
        } catch (error) {
          return error;
        }
      })() as RecordingError;
      const there = await inspecting.inspect(other, { keep: false }).catch((error: unknown) => error);
      expect(there).toBeInstanceOf(RecordingError);
      expect(there).toMatchObject({ message: here.message, problem: { kind: 'not-a-recording' } });
    } finally {
      inspecting.close();
    }
  });

  it('plays back from the worker, a page at a time, exactly what playback reads here (as JSON or as rows)', async () => {
    directory = tempDirectory();
    const reading = new HistoryQueries();
    try {
      const run = await recordChurn(directory.file('churn.kubetide'), 40);
      const reader = openRecording(run.file);
      const from = run.moments[5].time;
      const end = timeRange(reader)!.end;
      const expected = [...playback(reader, { from, to: end, gvrs: ['pods.v1'] })].flatMap(
        (batch) => batch.changes,
      );
      reader.close();
      const now = Date.UTC(2026, 11, 1);
      const projector = new RowProjector(printerFor({ group: '', resource: 'pods' }));
      const expectedRows = expected.map((change) => ({
        time: change.time,
        key: change.namespace ? `${change.namespace}/${change.name}` : change.name,
        ...(change.type === 'Deleted' || !change.object
          ? {}
          : { row: projector.project(change.object, now) }),
      }));
      expect(expectedRows.some((change) => !change.row)).toBe(true);
      for (const rows of [false, true]) {
        const opened = await reading.openPlayback(run.file, { from, gvr: 'pods.v1', rows });
        expect(opened.end).toBe(end);
        const played: unknown[] = [];
        for (let done = false; !done;) {
          const page = await reading.playbackChanges(opened.id, 7, now);
          expect(page.changes.length).toBeLessThanOrEqual(7);
          for (const change of page.changes) {
            if (!('json' in change)) {
              played.push(change);
              continue;
            }
            const parsed = JSON.parse(change.json) as RecordedChange;
            expect(change.time).toBe(parsed.time);
            played.push(parsed);
          }
          done = page.done;
        }
        expect(expected.length).toBeGreaterThan(14);
        expect(played).toEqual(rows ? expectedRows : expected);
        // Its reader was closed with the last page: a page asked for meanwhile (the player asks two
        // at once) is answered done and empty, and once the player closes it, it is gone.
        expect(await reading.playbackChanges(opened.id, 7, now)).toEqual({ changes: [], done: true });
        reading.closePlayback(opened.id);
        await expect(reading.playbackChanges(opened.id, 7, now)).rejects.toThrow(/no playback/);
      }
    } finally {
      reading.close();
    }
  });

  it('decodes the newest row frames when asked to prewarm, and answers as before after it', async () => {
    directory = tempDirectory();
    const run = await recordChurn(directory.file('churn.kubetide'), 40);
    const warming = new HistoryQueries({ prewarm: false });
    const cold = new HistoryQueries({ prewarm: false });
    const rowsOf = async (asked: HistoryQueries, time: number) => {
      const chunks: EncodedRows[] = [];
      await asked.stateRows(run.file, { gvr: 'pods.v1', time }, run.moments[39].time, (rows) =>
        chunks.push(rows),
      );
      return joinedRows(chunks).json;
    };
    await warming.prewarm(run.file);
    // Asked twice at once: both settle.
    await Promise.all([warming.prewarm(run.file), warming.prewarm(run.file)]);
    for (const moment of [run.moments[39], run.moments[10]])
      expect(await rowsOf(warming, moment.time)).toBe(await rowsOf(cold, moment.time));
    warming.close();
    cold.close();
  });

  it('starts the travel path (and its prewarm) from a timeline question only once there are cores to spare', async () => {
    directory = tempDirectory();
    const run = await recordChurn(directory.file('churn.kubetide'), 5);
    let spare = false;
    const asking = new HistoryQueries({ spareCores: () => spare });
    try {
      const query = { buckets: 10, now: run.moments[4].time };
      // The session still lists: the timeline is answered, the travel path's worker left unstarted.
      const before = await asking.timeline(run.file, query);
      expect(asking.travelPathStarted).toBe(false);
      spare = true;
      expect(await asking.timeline(run.file, query)).toEqual(before);
      expect(asking.travelPathStarted).toBe(true);
    } finally {
      asking.close();
    }
  });

  it('starts the travel path without its prewarm from a timeline question when only the worker may start', async () => {
    directory = tempDirectory();
    const run = await recordChurn(directory.file('churn.kubetide'), 5);
    let starts = false;
    // The first recorded kind has listed, the later ones still list (see ClusterSession.firstListing).
    const asking = new HistoryQueries({ spareCores: () => false, startsWorker: () => starts });
    const prewarms: string[] = [];
    asking.prewarm = (file) => {
      prewarms.push(file);
      return Promise.resolve();
    };
    try {
      const query = { buckets: 10, now: run.moments[4].time };
      await asking.timeline(run.file, query);
      expect(asking.travelPathStarted).toBe(false);
      starts = true;
      await asking.timeline(run.file, query);
      expect(asking.travelPathStarted).toBe(true);
      expect(prewarms).toEqual([]);
    } finally {
      asking.close();
    }
  });

  it("holds what can wait while a travel's questions are unanswered: no prewarm, the journal feed idle", async () => {
    directory = tempDirectory();
    const run = await recordChurn(directory.file('churn.kubetide'), 5);
    const asking = new HistoryQueries();
    try {
      const prewarms: string[] = [];
      const prewarm = asking.prewarm.bind(asking);
      asking.prewarm = (file) => {
        prewarms.push(file);
        return prewarm(file);
      };
      const query = { buckets: 10, now: run.moments[4].time };
      await asking.timeline(run.file, query);
      expect(prewarms).toEqual([run.file]);
      await asking.travelPathIdle();
      const events: string[] = [];
      const size = asking.momentSize(run.file, { gvr: 'pods.v1', time: run.moments[2].time });
      const rows = asking.stateRows(
        run.file,
        { gvr: 'pods.v1', time: run.moments[2].time },
        query.now,
        () => {},
      );
      const idle = asking.travelPathIdle().then(() => events.push('idle'));
      // A timeline asked meanwhile (the page asks one every 2 s) is answered, without a prewarm.
      await asking.timeline(run.file, query);
      expect(prewarms).toEqual([run.file]);
      await size;
      // The size is in, the rows are not: still travelling.
      expect(events).toEqual([]);
      await rows;
      await idle;
      expect(events).toEqual(['idle']);
      await asking.timeline(run.file, query);
      expect(prewarms).toEqual([run.file, run.file]);
    } finally {
      asking.close();
    }
  });

  it("projects a moment's objects in the worker into the rows main would project from stateAt", async () => {
    directory = tempDirectory();
    const run = await recordChurn(directory.file('churn.kubetide'), 40);
    const reader = openRecording(run.file);
    const projector = new RowProjector(printerFor({ group: '', resource: 'pods' }));
    const now = run.moments[39].time + 60_000;
    const random = seededRandom(7);
    // Random moments forward and back, some repeated, some in a namespace: each after the last, so
    // most reuse the rows the worker kept from the moment before and decode only what changed.
    const times = Array.from({ length: 24 }, () => random.pick(run.moments).time);
    for (const [index, time] of times.entries()) {
      const query = { gvr: 'pods.v1', time, ...(index % 5 === 4 ? { namespace: 'payments' } : {}) };
      const expected = stateAt(reader, query);
      const chunks: EncodedRows[] = [];
      const rebuilt = await queries.stateRows(run.file, query, now, (chunk) => chunks.push(chunk));
      const projected = expected.objects.map((object) => projector.project(object, now));
      expect(projected.length).toBeGreaterThan(0);
      // The very text of main's own rows as tuples under the kind's layout, and their keys.
      const layout = replayLayout(projector.printer);
      expect(joinedRows(chunks).json).toBe(JSON.stringify(projected.map((row) => rowTuple(row, layout))));
      expect(chunks.flatMap((chunk) => chunk.keys)).toEqual(projected.map((row) => row.key));
      expect(rebuilt).toEqual({ complete: expected.complete, gap: expected.gap, rows: projected.length });
    }
    reader.close();
    queries.close();
  });
});
