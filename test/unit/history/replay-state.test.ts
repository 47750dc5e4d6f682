// The replay invariant: the state rebuilt for any recorded moment equals what the informer cache held
// at that moment, through churn, watch breaks, 410 relists and keyframes.
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../main/cache/fake-clock';
import { VersionEncoding, storedDelta } from '../../../main/history/object-codec';
import { openRecording } from '../../../main/history/recording-reader';
import { stateAt } from '../../../main/history/replay';
import type { KubeObject } from '../../../shared/kube/object';
import { FakeControllerSource } from '../../support/fake-controller-source';
import type { TempDirectory } from './fixtures';
import {
  cacheSnapshot,
  churnStep,
  realisticPod,
  recordedInformer,
  seededRandom,
  settle,
  tempDirectory,
} from './fixtures';

let directory: TempDirectory | undefined;
afterEach(() => directory?.remove());

describe('stateAt', () => {
  it('equals the live informer cache at many random moments of a long churn run', async () => {
    directory = tempDirectory();
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    for (let index = 0; index < 30; index++)
      source.add(realisticPod(`seed-${index}-x`, index % 2 ? 'default' : 'payments'));
    const random = seededRandom(42);
    // Small keyframe spacing so rebuilds start from many different keyframes.
    const run = await recordedInformer(source, directory.file('churn.kubetide'), clock, {
      keyframeEveryChanges: 150,
    });
    await settle();
    const captured: { time: number; objects: KubeObject[] }[] = [];
    for (let step = 0; step < 700; step++) {
      const changes = Math.floor(random() * 4);
      for (let change = 0; change < changes; change++) churnStep(source, random, step);
      if (step % 300 === 250) source.resetWatch(); // 410 on re-watch: a relist
      if (step % 250 === 150) source.breakWatches(); // a server timeout: the watch resumes
      await settle();
      if (random() < 0.1) captured.push({ time: clock.now(), objects: cacheSnapshot(run.informer) });
      await clock.stepAsync(1 + Math.floor(random() * 400));
    }
    await settle();
    captured.push({ time: clock.now(), objects: cacheSnapshot(run.informer) });
    await run.stop();
    await run.recorder.close();

    const reader = openRecording(directory.file('churn.kubetide'));
    // The invariant covers the ways the writer stores a version: whole, and text deltas on the
    // previous version's or a sibling's text.
    const encodings = reader.database
      .prepare('SELECT DISTINCT encoding FROM changes WHERE payload IS NOT NULL')
      .pluck()
      .all() as number[];
    expect(encodings).toEqual(
      expect.arrayContaining([VersionEncoding.full, VersionEncoding.text | storedDelta]),
    );
    expect(captured.length).toBeGreaterThan(50);
    for (const moment of captured) {
      const state = stateAt(reader, { gvr: 'pods.v1', time: moment.time });
      expect(state.objects, `state at ${moment.time}`).toEqual(moment.objects);
    }
    expect(reader.problems).toEqual([]);
    reader.close();
  });

  it('filters the rebuilt state by namespace', async () => {
    directory = tempDirectory();
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    source.add(realisticPod('a-1', 'default'));
    source.add(realisticPod('b-1', 'payments'));
    const run = await recordedInformer(source, directory.file('ns.kubetide'), clock);
    await settle();
    await clock.stepAsync(1000);
    const time = clock.now();
    await run.stop();
    await run.recorder.close();
    const reader = openRecording(directory.file('ns.kubetide'));
    const names = stateAt(reader, { gvr: 'pods.v1', namespace: 'payments', time }).objects.map(
      (pod) => pod.metadata.name,
    );
    expect(names).toEqual(['b-1']);
    reader.close();
  });
});
