// A change is recorded at the time it arrived (its DeltaFIFO delta's arrivedAt), not at the time the
// informer got round to popping it: on a loaded machine the pops of a burst wait for turns of the
// loop, and a stamp taken then would move every change of the burst later by that wait.
import { afterEach, describe, expect, it } from 'vitest';
import type { DeltaObserver } from '../../../main/cache/delta-observer';
import { FakeClock } from '../../../main/cache/fake-clock';
import { SharedIndexInformer } from '../../../main/cache/shared-informer';
import { objectVersions } from '../../../main/history/object-history';
import { Recorder } from '../../../main/history/recorder';
import { inlineRecordingProcess } from '../../../main/history/recording-process';
import { openRecording } from '../../../main/history/recording-reader';
import type { KubeObject } from '../../../shared/kube/object';
import { FakeControllerSource } from '../../support/fake-controller-source';
import type { TempDirectory } from './fixtures';
import { podsGvr, realisticPod, settle, tempDirectory } from './fixtures';

let directory: TempDirectory | undefined;
afterEach(() => directory?.remove());

/** How long each popped Updated delta "waited": the clock moves on before the recorder's tap sees it. */
const waitBeforeTap = 250;

describe('capture stamps', () => {
  it('records a change at its arrival, however long it waited to be popped and whatever batches went out meanwhile', async () => {
    directory = tempDirectory();
    const file = directory.file('arrival.kubetide');
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    const pod = source.add(realisticPod('web-0-x'));
    const recorder = await Recorder.open({
      file,
      context: 'test-context',
      clock,
      recordingProcess: inlineRecordingProcess,
      // No timed batch while the clock steps: the only stamps taken are the test's.
      flushIntervalMs: 3_600_000,
    });
    const informer = new SharedIndexInformer<KubeObject>({
      name: 'pods.v1',
      listerWatcher: source,
      clock,
      reflector: { random: () => 0.5 },
    });
    let updates = 0;
    // Observers are told in the order they were added: this one runs before the recorder's tap.
    const waiting: DeltaObserver = {
      observeDeltas: (deltas) => {
        if (!deltas.some((delta) => delta.type === 'Updated')) return;
        clock.step(waitBeforeTap);
        // The second: a batch goes out meanwhile. Stamped with the clock, it would have held the
        // change back to its time, as a stamp never goes back; a batch goes at its last entry's.
        if (++updates === 2) void recorder.flushed();
      },
      observePhase: () => {},
    };
    informer.addDeltaObserver(waiting);
    recorder.attach(informer, podsGvr, '');
    const controller = new AbortController();
    const running = informer.run(controller.signal);
    await settle();
    await clock.stepAsync(1000);

    const arrived = clock.now();
    source.modify({ ...pod, metadata: { ...pod.metadata, labels: { v: '2' } } });
    await settle();
    const popped = clock.now();
    expect(popped).toBe(arrived + waitBeforeTap);
    source.modify({ ...pod, metadata: { ...pod.metadata, labels: { v: '3' } } });
    await settle();
    expect(clock.now()).toBe(popped + waitBeforeTap);
    await recorder.flushed();
    controller.abort();
    await running;
    await recorder.close();

    const reader = openRecording(file);
    try {
      const times = objectVersions(reader, { uid: pod.metadata.uid! })
        .filter((change) => change.type !== 'Replaced')
        .map((change) => change.time);
      // Each at its arrival, not its pop: the second arrived as the first was popped.
      expect(times).toEqual([arrived, popped]);
    } finally {
      reader.close();
    }
  });

  it('keeps a change at its arrival when a slice of a cache recorded whole runs before it is popped', async () => {
    directory = tempDirectory();
    const file = directory.file('slice-stamp.kubetide');
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    const first = source.add(realisticPod('web-0-x'));
    source.add(realisticPod('web-1-x'));
    const turns: (() => void)[] = [];
    const recorder = await Recorder.open({
      file,
      context: 'test-context',
      clock,
      recordingProcess: inlineRecordingProcess,
      flushIntervalMs: 3_600_000,
      // One object a slice, each later slice when the test runs it.
      resyncSliceBytes: 1,
      nextTurn: (work) => void turns.push(work),
    });
    const informer = new SharedIndexInformer<KubeObject>({
      name: 'pods.v1',
      listerWatcher: source,
      clock,
      reflector: { random: () => 0.5 },
    });
    // Before the recorder's tap: the change waited, and the cache's next slice ran meanwhile.
    informer.addDeltaObserver({
      observeDeltas: (deltas) => {
        if (!deltas.some((delta) => delta.type === 'Updated')) return;
        clock.step(waitBeforeTap);
        turns.shift()?.();
      },
      observePhase: () => {},
    });
    recorder.attach(informer, podsGvr, '');
    const controller = new AbortController();
    const running = informer.run(controller.signal);
    await settle();
    // The first list is in: one pod is recorded, the other's slice waits.
    expect(turns).toHaveLength(1);
    await clock.stepAsync(1000);

    const arrived = clock.now();
    // The recorded pod changes: its change is recorded as it comes, not absorbed.
    source.modify({ ...first, metadata: { ...first.metadata, labels: { v: '2' } } });
    await settle();
    // The last slice, which finds the cache done.
    while (turns.length > 0) turns.shift()!();
    await recorder.flushed();
    controller.abort();
    await running;
    await recorder.close();

    const reader = openRecording(file);
    try {
      const times = objectVersions(reader, { uid: first.metadata.uid! })
        .filter((change) => change.type !== 'Replaced')
        .map((change) => change.time);
      // A slice stamped with the clock (arrived + 250) would have held the change back to its time.
      expect(times).toEqual([arrived]);
    } finally {
      reader.close();
    }
  });
});
