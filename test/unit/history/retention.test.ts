// Retention by age and by size: old changes go, a keyframe at the new start keeps every later moment
// rebuildable, and versions that survive still decode although their bases are gone.
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { FakeClock } from '../../../main/cache/fake-clock';
import { objectVersions } from '../../../main/history/object-history';
import { RecordingWriter } from '../../../main/history/recording-writer';
import { openRecording } from '../../../main/history/recording-reader';
import { stateAt, timeRange } from '../../../main/history/replay';
import { enforceRetention, usedBytes } from '../../../main/history/retention';
import { openForWriting } from '../../../main/history/schema';
import { FakeControllerSource } from '../../support/fake-controller-source';
import type { TempDirectory } from './fixtures';
import { realisticPod, recordChurn, recordedInformer, settle, tempDirectory } from './fixtures';

let directory: TempDirectory | undefined;
afterEach(() => directory?.remove());

function retain(
  file: string,
  policy: { maxAgeMs?: number; maxBytes?: number },
  now: number,
): number | undefined {
  const database = openForWriting(file, 'test-context');
  try {
    return enforceRetention(new RecordingWriter(database), policy, now);
  } finally {
    database.close();
  }
}

describe('retention', () => {
  it('by age, deletes older changes yet rebuilds every moment after the new start', async () => {
    directory = tempDirectory();
    const run = await recordChurn(directory.file('age.kubetide'), 120, { seed: 3, keyframeEveryChanges: 60 });
    const end = run.moments[run.moments.length - 1].time;
    const start = retain(run.file, { maxAgeMs: 25_000 }, end);
    expect(start).toBe(end - 25_000);
    const reader = openRecording(run.file);
    expect(timeRange(reader)?.start).toBe(start);
    const oldest = (
      reader.database.prepare('SELECT min(time) AS time FROM changes WHERE time >= ?').get(start!) as {
        time: number;
      }
    ).time;
    expect(oldest).toBeGreaterThanOrEqual(start!);
    for (const moment of run.moments.filter((moment) => moment.time >= start!)) {
      expect(stateAt(reader, { gvr: 'pods.v1', time: moment.time }).objects).toEqual(moment.objects);
    }
    const dropped = reader.database
      .prepare('SELECT count(*) AS count FROM changes WHERE time < ?')
      .get(start!) as { count: number };
    const live = stateAt(reader, { gvr: 'pods.v1', time: start! - 1 }).objects.length;
    expect(dropped.count).toBeLessThanOrEqual(live); // only the versions live at the start remain
    expect(reader.problems).toEqual([]);
    reader.close();
  });

  it('keeps the history of a long-lived object readable from its version at the new start', async () => {
    directory = tempDirectory();
    const file = directory.file('long-lived.kubetide');
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    let pod = source.add(realisticPod('db-0'));
    const run = await recordedInformer(source, file, clock, { fullVersionEvery: 100 });
    await settle();
    for (let step = 0; step < 30; step++) {
      pod = structuredClone(pod);
      pod.metadata.annotations = { step: String(step) };
      pod = source.modify(pod);
      await settle();
      await clock.stepAsync(1000);
    }
    await run.stop();
    await run.recorder.close();
    retain(file, { maxAgeMs: 10_500 }, clock.now());
    const reader = openRecording(file);
    const versions = objectVersions(reader, { uid: pod.metadata.uid! });
    expect(versions[0].time).toBeLessThan(timeRange(reader)!.start);
    expect(versions.map((version) => version.object?.metadata.annotations?.step).slice(-3)).toEqual([
      '27',
      '28',
      '29',
    ]);
    expect(versions.every((version) => version.object !== undefined)).toBe(true);
    reader.close();
  });

  it('by size, drops the oldest changes until the file fits', async () => {
    directory = tempDirectory();
    // Whole versions only: what a change costs on disk is then about the same for all of them.
    const run = await recordChurn(directory.file('size.kubetide'), 250, { seed: 5, fullVersionEvery: 0 });
    const database = new Database(run.file, { readonly: true });
    const before = usedBytes(database);
    database.close();
    // What an empty recording occupies (a page per table and index) is no budget to cut into.
    const empty = openForWriting(directory.file('empty.kubetide'), 'test-context');
    const floor = usedBytes(empty);
    empty.close();
    const budget = floor + Math.floor((before - floor) / 2);
    const end = run.moments[run.moments.length - 1].time;
    const start = retain(run.file, { maxBytes: budget }, end);
    expect(start).toBeDefined();
    const reader = openRecording(run.file);
    expect(usedBytes(reader.database)).toBeLessThanOrEqual(budget);
    const later = run.moments.filter((moment) => moment.time >= start!);
    expect(later.length).toBeGreaterThan(0);
    for (const moment of later)
      expect(stateAt(reader, { gvr: 'pods.v1', time: moment.time }).objects).toEqual(moment.objects);
    reader.close();
  });

  it('lets the writer go on chaining the versions of an object whose live version it rewrote', () => {
    directory = tempDirectory();
    const database = openForWriting(directory.file('writer.kubetide'), 'test-context');
    const writer = new RecordingWriter(database);
    const stream = writer.stream({ gvr: 'pods.v1', scope: '' });
    writer.resetStream(stream);
    let time = Date.UTC(2026, 11, 1);
    writer.writeKeyframe(stream, time);
    const pod = realisticPod('app-7d9f8c6b5-1', 'default');
    const write = (version: number) =>
      writer.transaction(() =>
        writer.writeChange({
          time: (time += 1_000),
          stream,
          type: version === 0 ? 'Added' : 'Updated',
          finalStateUnknown: false,
          key: 'default/app-7d9f8c6b5-1',
          // Long enough a patch to be deflated against the previous version's stored text.
          object: {
            ...pod,
            metadata: {
              ...pod.metadata,
              resourceVersion: String(version + 1),
              annotations: {
                'example.com/reason': `restarted for the ${version}th time by the test's operator`,
              },
            },
          },
        }),
      );
    for (let version = 0; version < 3; version++) write(version);
    // Every change is older than the new start: the pod's live version is kept and rewritten whole.
    expect(enforceRetention(writer, { maxAgeMs: 500 }, time + 1_000)).toBe(time + 500);
    for (let version = 3; version < 6; version++) write(version);
    database.close();
    const reader = openRecording(directory.file('writer.kubetide'));
    const versions = objectVersions(reader, { uid: pod.metadata.uid! });
    expect(reader.problems).toEqual([]);
    expect(versions.map((version) => version.object?.metadata.resourceVersion)).toEqual(['3', '4', '5', '6']);
    reader.close();
  });

  it('stores no new object against a sibling whose change it dropped, nor under a dropped id', () => {
    directory = tempDirectory();
    const database = openForWriting(directory.file('sibling.kubetide'), 'test-context');
    const writer = new RecordingWriter(database);
    const stream = writer.stream({ gvr: 'pods.v1', scope: '' });
    writer.resetStream(stream);
    let time = Date.UTC(2026, 11, 1);
    writer.writeKeyframe(stream, time);
    const pods = new Map<string, ReturnType<typeof realisticPod>>();
    const write = (name: string, type: 'Added' | 'Deleted'): number => {
      let id = 0;
      if (!pods.has(name)) pods.set(name, realisticPod(name, 'default'));
      writer.transaction(() => {
        id = writer.writeChange({
          time: (time += 1_000),
          stream,
          type,
          finalStateUnknown: false,
          key: `default/${name}`,
          object: pods.get(name),
        });
      });
      return id;
    };
    // The first pod of its ReplicaSet is every later one's sibling, until it is deleted and dropped.
    write('web-7d9f8c6b5-a', 'Added');
    write('web-7d9f8c6b5-a', 'Deleted');
    expect(enforceRetention(writer, { maxAgeMs: 500 }, time + 1_000)).toBe(time + 500);
    time += 1_000;
    const id = write('web-7d9f8c6b5-b', 'Added');
    // Every change was dropped: SQLite's next rowid would be 1, which the new start's keyframe holds.
    expect(id).toBe(3);
    expect(database.prepare('SELECT base FROM changes WHERE id = ?').pluck().get(id)).toBeNull();
    database.close();
    const reader = openRecording(directory.file('sibling.kubetide'));
    expect(stateAt(reader, { gvr: 'pods.v1', time }).objects.map((pod) => pod.metadata.name)).toEqual([
      'web-7d9f8c6b5-b',
    ]);
    expect(reader.problems).toEqual([]);
    reader.close();
  });
});
