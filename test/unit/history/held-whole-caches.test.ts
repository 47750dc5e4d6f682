// Recorder.holdWholeCaches: while the app's first views sync, a first list is not recorded (no
// serialization on the informers' thread, no encoding in the recording process); its stream stays in
// its listing gap, and once released the cache is recorded whole, as it is then. Nothing is claimed
// that was not seen: every moment is in that gap or replays to the cache.
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../main/cache/fake-clock';
import { SharedIndexInformer } from '../../../main/cache/shared-informer';
import { objectVersions } from '../../../main/history/object-history';
import { Recorder } from '../../../main/history/recorder';
import { inlineRecordingProcess } from '../../../main/history/recording-process';
import { openRecording } from '../../../main/history/recording-reader';
import { recordingMarks, stateAt } from '../../../main/history/replay';
import type { KubeObject } from '../../../shared/kube/object';
import { FakeControllerSource } from '../../support/fake-controller-source';
import { uncoveredSpans } from '../../support/recording-coverage';
import type { TempDirectory } from './fixtures';
import { cacheSnapshot, podsGvr, realisticPod, settle, tempDirectory } from './fixtures';

let directory: TempDirectory | undefined;
afterEach(() => directory?.remove());

describe('whole caches held by the recorder', () => {
  it('records a first list only once every hold is released, as the cache is then, inside its listing gap until then', async () => {
    directory = tempDirectory();
    const file = directory.file('held.kubetide');
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    const pods = Array.from({ length: 6 }, (_, index) => source.add(realisticPod(`web-${index}-x`)));
    const recorder = await Recorder.open({
      file,
      context: 'test-context',
      clock,
      recordingProcess: inlineRecordingProcess,
    });
    const start = clock.now();
    const releaseFirst = recorder.holdWholeCaches();
    const releaseSecond = recorder.holdWholeCaches();
    const informer = new SharedIndexInformer<KubeObject>({
      name: 'pods.v1',
      listerWatcher: source,
      clock,
      reflector: { random: () => 0.5 },
    });
    recorder.attach(informer, podsGvr, '');
    const controller = new AbortController();
    const running = informer.run(controller.signal);
    await settle();
    await clock.stepAsync(1000);
    expect(informer.hasSynced()).toBe(true);

    // Changed while held: the record, when it comes, carries the cache of that moment.
    const relabelled = source.modify({ ...pods[1], metadata: { ...pods[1].metadata, labels: { v: '2' } } });
    source.delete(pods[3]);
    const added = source.add(realisticPod('web-9-x'));
    await settle();
    await clock.stepAsync(100);
    const held = clock.now();
    releaseFirst();
    releaseFirst(); // a release counts once
    await recorder.flushed();
    expect(recorder.stats().changesWritten).toBe(0);

    await clock.stepAsync(100);
    // The last release settles once what it let go is written: every object of the cache then.
    let writtenAtSettle: number | undefined;
    const written = releaseSecond().then(() => (writtenAtSettle = recorder.stats().changesWritten));
    expect(writtenAtSettle).toBeUndefined();
    await settle();
    await clock.stepAsync(100);
    await written;
    expect(writtenAtSettle).toBe(6);
    await recorder.flushed();
    const after = { time: clock.now(), objects: cacheSnapshot(informer) };
    controller.abort();
    await running;
    await recorder.close();

    const reader = openRecording(file);
    expect(stateAt(reader, { gvr: 'pods.v1', time: held }).gap?.reason).toBe('listing');
    const state = stateAt(reader, { gvr: 'pods.v1', time: after.time });
    expect(state.gap).toBeUndefined();
    expect(state.objects).toEqual(after.objects);
    // One Replaced per object in the cache at the release; the version before it and the pod deleted
    // before it were never recorded.
    for (const pod of [pods[0], relabelled, pods[2], pods[4], pods[5], added]) {
      const versions = objectVersions(reader, { uid: pod.metadata.uid! });
      expect(
        versions.map((version) => version.type),
        pod.metadata.name,
      ).toEqual(['Replaced']);
    }
    expect(objectVersions(reader, { uid: pods[3].metadata.uid! })).toEqual([]);
    expect(
      recordingMarks(reader, start, after.time).some(
        (mark) => mark.kind === 'relist' && mark.reason === 'initial-list',
      ),
    ).toBe(true);
    expect(uncoveredSpans(reader, 'pods.v1', start, after.time)).toEqual([]);
    expect(reader.problems).toEqual([]);
    reader.close();
  });
});
