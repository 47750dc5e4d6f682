// What the timeline must not pretend to know: relists are marked, failed watches are gaps until the
// informer relists, time the recorder did not run is a gap, and deletions a relist inferred say so.
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../main/cache/fake-clock';
import { objectVersions } from '../../../main/history/object-history';
import { Recorder } from '../../../main/history/recorder';
import { inlineRecordingProcess } from '../../../main/history/recording-process';
import { openRecording } from '../../../main/history/recording-reader';
import { recordingMarks, stateAt } from '../../../main/history/replay';
import { FakeControllerSource } from '../../support/fake-controller-source';
import type { TempDirectory } from './fixtures';
import { realisticPod, recordedInformer, settle, tempDirectory } from './fixtures';

let directory: TempDirectory | undefined;
afterEach(() => directory?.remove());

async function until(clock: FakeClock, condition: () => boolean): Promise<void> {
  for (let step = 0; step < 100 && !condition(); step++) await clock.stepAsync(500);
  expect(condition()).toBe(true);
}

describe('recording marks', () => {
  it('holds the stream in a listing gap from the start until the initial list is in the cache', async () => {
    directory = tempDirectory();
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    source.add(realisticPod('web-1'));
    const started = clock.now();
    const run = await recordedInformer(source, directory.file('marks.kubetide'), clock);
    clock.step(300); // the list takes a while: the past must not show 0 pods meanwhile
    await settle();
    const listed = clock.now();
    await clock.stepAsync(2000);
    await run.stop();
    await run.recorder.close();
    const reader = openRecording(directory.file('marks.kubetide'));
    const marks = recordingMarks(reader, 0, clock.now());
    expect(marks.map((mark) => [mark.kind, mark.reason, mark.start, mark.end, mark.stream?.gvr])).toEqual([
      ['gap', 'listing', started, listed, 'pods.v1'],
      ['relist', 'initial-list', listed, listed, 'pods.v1'],
    ]);
    const before = stateAt(reader, { gvr: 'pods.v1', time: started + 100 });
    expect(before.gap).toMatchObject({ reason: 'listing' });
    expect(stateAt(reader, { gvr: 'pods.v1', time: listed }).gap).toBeUndefined();
    reader.close();
  });

  it('covers a 410, failed relists and the relist with gaps that say why, ending when the list is in', async () => {
    directory = tempDirectory();
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    source.add(realisticPod('web-1'));
    const run = await recordedInformer(source, directory.file('gap.kubetide'), clock);
    await settle();
    await clock.stepAsync(1000);
    source.listError = new Error('connect ECONNREFUSED 127.0.0.1:6443');
    const failedAfter = clock.now();
    source.resetWatch(); // the re-watch gets 410, so the informer must relist, and listing fails
    await until(clock, () => source.listCalls.length >= 3);
    source.listError = undefined;
    source.add(realisticPod('web-2'));
    const relistCalls = source.listCalls.length;
    await until(
      clock,
      () => source.listCalls.length > relistCalls && run.informer.getStore().list().length === 2,
    );
    await settle();
    const relisted = clock.now();
    await clock.stepAsync(2000);
    await run.stop();
    await run.recorder.close();

    const reader = openRecording(directory.file('gap.kubetide'));
    const marks = recordingMarks(reader, 0, clock.now());
    const gaps = marks.filter((mark) => mark.kind === 'gap' && mark.start >= failedAfter);
    expect(gaps[0]).toMatchObject({ reason: 'relisting' });
    expect(gaps[0].detail).toContain('410');
    const down = gaps.find((gap) => gap.reason === 'watch-disconnected');
    expect(down?.detail).toContain('ECONNREFUSED');
    // One gap follows another without a hole, from the 410 to the relist.
    for (let index = 1; index < gaps.length; index++) expect(gaps[index].start).toBe(gaps[index - 1].end);
    const last = gaps[gaps.length - 1];
    expect(last.end).toBeLessThanOrEqual(relisted);
    const relist = marks.find((mark) => mark.kind === 'relist' && mark.reason === 'relist');
    expect(relist?.start).toBe(last.end);
    expect(stateAt(reader, { gvr: 'pods.v1', time: gaps[0].start }).gap?.reason).toBe('relisting');
    expect(
      stateAt(reader, { gvr: 'pods.v1', time: relisted }).objects.map((pod) => pod.metadata.name),
    ).toEqual(['web-1', 'web-2']);
    reader.close();
  });

  it('records the time the recorder was not running as a not-recording gap', async () => {
    directory = tempDirectory();
    const file = directory.file('restart.kubetide');
    const clock = new FakeClock();
    const options = { file, context: 'test-context', clock, recordingProcess: inlineRecordingProcess };
    await (await Recorder.open(options)).close();
    const closed = clock.now();
    clock.step(60_000);
    await (await Recorder.open(options)).close();
    const reader = openRecording(file);
    const [gap] = recordingMarks(reader, 0, clock.now());
    expect(gap).toMatchObject({ kind: 'gap', reason: 'not-recording', start: closed, end: closed + 60_000 });
    reader.close();
  });

  it('records a deletion inferred by a relist as Deleted with an unknown final state', async () => {
    directory = tempDirectory();
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    const pod = source.add(realisticPod('web-1'));
    const run = await recordedInformer(source, directory.file('tombstone.kubetide'), clock);
    await settle();
    await clock.stepAsync(1000);
    source.deleteDropWatch(pod);
    source.resetWatch();
    await until(clock, () => run.informer.getStore().list().length === 0);
    await clock.stepAsync(2000);
    await run.stop();
    await run.recorder.close();
    const reader = openRecording(directory.file('tombstone.kubetide'));
    const versions = objectVersions(reader, { uid: pod.metadata.uid! });
    expect(versions.map((version) => [version.type, version.finalStateUnknown])).toEqual([
      ['Replaced', false],
      ['Deleted', true],
    ]);
    expect(versions[1].object?.metadata.name).toBe('web-1');
    reader.close();
  });

  it('retires an old uid at the relist that reveals its name was recreated while the watch was down', async () => {
    directory = tempDirectory();
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    const first = source.add(realisticPod('config-1'));
    const run = await recordedInformer(source, directory.file('ghost.kubetide'), clock);
    await settle();
    await clock.stepAsync(1000);
    // Deleted and recreated under the same name while no watch saw it: the relist brings a new uid.
    source.deleteDropWatch(first);
    const second = source.addDropWatch(realisticPod('config-1'));
    source.resetWatch();
    await until(clock, () => run.informer.getStore().list()[0]?.metadata.uid === second.metadata.uid);
    await settle();
    await clock.stepAsync(1000);
    const relisted = clock.now();
    await clock.stepAsync(1000);
    source.delete(second);
    await settle();
    await clock.stepAsync(1000);
    const end = clock.now();
    await run.stop();
    await run.recorder.close();

    const reader = openRecording(directory.file('ghost.kubetide'));
    const old = objectVersions(reader, { uid: first.metadata.uid! });
    expect(old.map((version) => [version.type, version.finalStateUnknown])).toEqual([
      ['Replaced', false],
      ['Deleted', true],
    ]);
    const relist = recordingMarks(reader, 0, end).find((mark) => mark.reason === 'relist');
    expect(old[1].time).toBe(relist?.start);
    const uids = (time: number) =>
      stateAt(reader, { gvr: 'pods.v1', time }).objects.map((pod) => pod.metadata.uid);
    expect(uids(relisted)).toEqual([second.metadata.uid]);
    expect(uids(end)).toEqual([]);
    reader.close();
  });

  it('drops changes past the queue bound into a queue-overflow gap, closed once the cache is recorded again', async () => {
    directory = tempDirectory();
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    const run = await recordedInformer(source, directory.file('overflow.kubetide'), clock, {
      queueLimitBytes: 40_000,
    });
    await settle();
    await clock.stepAsync(1000);
    // About 3.5 KB each: twenty pods in one burst pass a 40 KB bound before the next batch goes.
    for (let index = 0; index < 20; index++) source.add(realisticPod(`web-${index}`));
    await settle();
    const burst = clock.now();
    expect(run.recorder.stats().dropped).toBeGreaterThan(0);
    await clock.stepAsync(1000);
    await settle();
    const recovered = clock.now();
    await clock.stepAsync(1000);
    await run.stop();
    await run.recorder.close();

    const reader = openRecording(directory.file('overflow.kubetide'));
    const gap = recordingMarks(reader, 0, clock.now()).find((mark) => mark.reason === 'queue-overflow');
    expect(gap).toMatchObject({ kind: 'gap', start: burst, stream: undefined });
    expect(gap!.end).toBeLessThanOrEqual(recovered);
    expect(stateAt(reader, { gvr: 'pods.v1', time: burst }).gap?.reason).toBe('queue-overflow');
    const after = stateAt(reader, { gvr: 'pods.v1', time: recovered });
    expect(after.gap).toBeUndefined();
    expect(after.objects.map((pod) => pod.metadata.name).sort()).toEqual(
      run.informer
        .getStore()
        .list()
        .map((pod) => pod.metadata.name)
        .sort(),
    );
    reader.close();
  });
});
