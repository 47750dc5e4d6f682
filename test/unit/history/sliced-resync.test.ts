// A cache recorded whole (the first list, after a queue overflow) is queued a slice per turn while
// the informer goes on changing it. The record must stay exact: every moment outside a gap replays
// to the cache of that moment, and every moment while a slice is still to come is inside a gap. The
// slices run on a hand-driven scheduler, one object per turn, interleaved with random changes.
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../main/cache/fake-clock';
import { openRecording } from '../../../main/history/recording-reader';
import { objectVersions } from '../../../main/history/object-history';
import { recordingMarks, stateAt } from '../../../main/history/replay';
import type { KubeObject } from '../../../shared/kube/object';
import { StatusError, newStatus } from '../../../shared/kube/status';
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

interface Moment {
  readonly time: number;
  readonly objects: KubeObject[];
  /** A slice of a resync was still to run when the moment was taken. */
  readonly resyncing: boolean;
}

describe('a cache recorded in slices', () => {
  it('replays to the cache at every moment outside a gap, with changes interleaved between slices', async () => {
    directory = tempDirectory();
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    for (let index = 0; index < 24; index++)
      source.add(realisticPod(`seed-${index}-x`, index % 2 ? 'default' : 'payments'));
    const random = seededRandom(7);
    const turns: (() => void)[] = [];
    const run = await recordedInformer(source, directory.file('sliced.kubetide'), clock, {
      // One object per turn; turns run only when the test says so.
      resyncSliceBytes: 1,
      nextTurn: (work) => void turns.push(work),
      // About eleven 3.5 KB pods: a burst of twenty overflows it.
      queueLimitBytes: 40_000,
    });
    const moments: Moment[] = [];
    const interruptions = [
      { after: 10, interrupt: () => source.breakWatches() },
      { after: 90, interrupt: () => source.breakWatches() },
      { after: 95, interrupt: () => source.resetWatch() },
    ];
    const step = async (index: number) => {
      const changes = Math.floor(random() * 3);
      for (let change = 0; change < changes; change++) churnStep(source, random, index);
      // The watch breaks while slices are still to come: the one from the first list, the one after
      // the overflow, and again with a 410 (a relist).
      const next = interruptions[0];
      if (next && index >= next.after && turns.length > 0) {
        interruptions.shift();
        next.interrupt();
      }
      await settle();
      turns.shift()?.();
      moments.push({ time: clock.now(), objects: cacheSnapshot(run.informer), resyncing: turns.length > 0 });
      await clock.stepAsync(1 + Math.floor(random() * 40));
    };
    // The recording process falls behind: changes are dropped, and the caches are recorded again.
    const overflow = async (name: string) => {
      const dropped = run.recorder.stats().dropped;
      for (let burst = 0; burst < 20; burst++) source.add(realisticPod(`${name}-${burst}`));
      await settle();
      expect(run.recorder.stats().dropped).toBeGreaterThan(dropped);
    };
    let index = 0;
    for (; index < 80; index++) await step(index);
    await overflow('burst'); // its resync is interrupted by a 410 (see interruptions)
    for (; index < 220; index++) await step(index);
    // Changes to keys a resync has yet to record are not queued: this burst waits for its end.
    while (turns.length > 0) await step(index++);
    await overflow('again'); // this one runs to its end
    for (const last = index + 150; index < last; index++) await step(index);
    // Every slice ran; let the last phase changes settle.
    for (let more = 0; more < 200 && turns.length > 0; more++) await step(index++);
    expect(turns).toEqual([]);
    await clock.stepAsync(1000);
    moments.push({ time: clock.now(), objects: cacheSnapshot(run.informer), resyncing: false });
    await run.stop();
    await run.recorder.close();

    const reader = openRecording(directory.file('sliced.kubetide'));
    const reasons = recordingMarks(reader, 0, clock.now()).map((mark) => mark.reason);
    expect(reasons).toContain('initial-list');
    expect(reasons).toContain('queue-overflow');
    expect(reasons).toContain('resynchronized');
    // The 410 came while a slice was still to come: the cache was recorded whole after the relist.
    expect(reasons.slice(reasons.indexOf('relisting'))).toContain('relist');
    expect(reasons.filter((reason) => reason === 'queue-overflow').length).toBeGreaterThanOrEqual(2);
    let compared = 0;
    let resyncing = 0;
    for (const moment of moments) {
      const state = stateAt(reader, { gvr: 'pods.v1', time: moment.time });
      if (moment.resyncing) {
        resyncing++;
        expect(state.gap, `gap at ${moment.time}, a slice still to come`).toBeDefined();
      }
      if (state.gap) continue;
      compared++;
      expect(state.objects, `state at ${moment.time}`).toEqual(moment.objects);
    }
    // Slices ran through many moments, and many moments were outside a gap.
    expect(resyncing).toBeGreaterThan(80);
    expect(compared).toBeGreaterThan(100);
    expect(reader.problems).toEqual([]);
    reader.close();
  });
});

describe('a cache recorded in slices while the watch goes down and resumes', () => {
  it('is recorded once, not again: the gap stays open until both the record and the watch are back', async () => {
    directory = tempDirectory();
    const file = directory.file('watch-down.kubetide');
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    const pods = Array.from({ length: 12 }, (_, index) => source.add(realisticPod(`web-${index}-x`)));
    // The next watch opened is refused with a 429: the Reflector backs off 1 s, then re-watches from
    // its last resourceVersion, without a list.
    let refuseNextWatch = false;
    const watch = source.watch.bind(source);
    source.watch = (options, signal) => {
      if (!refuseNextWatch) return watch(options, signal);
      refuseNextWatch = false;
      return Promise.reject(
        new StatusError(newStatus(429, 'TooManyRequests', 'slow down', { retryAfterSeconds: 1 })),
      );
    };
    const turns: (() => void)[] = [];
    const run = await recordedInformer(source, file, clock, {
      resyncSliceBytes: 1,
      nextTurn: (work) => void turns.push(work),
    });
    let phase = '';
    run.informer.addDeltaObserver({
      observeDeltas: () => {},
      observePhase: (state) => (phase = state.phase),
    });
    await settle();
    // Past a second, so that the watch breaking below is no "very short watch" (which relists).
    await clock.stepAsync(1500);
    // The first list is in the cache and watched: its record began, one object per turn.
    expect(turns.length).toBe(1);
    for (let turn = 0; turn < 4; turn++) turns.shift()?.();
    refuseNextWatch = true;
    source.breakWatches();
    await settle();
    expect(phase).toBe('backoff');
    const downAt = clock.now();
    // Changes while the watch is down reach the cache when it resumes, as deltas.
    source.modify({ ...pods[1], metadata: { ...pods[1].metadata, labels: { changed: 'while-down' } } });
    source.modify({ ...pods[9], metadata: { ...pods[9].metadata, labels: { changed: 'while-down' } } });
    // The record runs to its end while the watch is still down.
    while (turns.length > 0) turns.shift()!();
    await clock.stepAsync(10);
    const recordedWhileDown = clock.now();
    await clock.stepAsync(1000);
    await settle();
    expect(phase).toBe('watching');
    await clock.stepAsync(100);
    const after = { time: clock.now(), objects: cacheSnapshot(run.informer) };
    await run.stop();
    await run.recorder.close();

    const reader = openRecording(file);
    // Each pod recorded whole once, by the first list's record; the changes as they came.
    for (const pod of pods) {
      const types = objectVersions(reader, { uid: pod.metadata.uid! }).map((version) => version.type);
      expect(
        types.filter((type) => type === 'Replaced'),
        pod.metadata.name,
      ).toEqual(['Replaced']);
    }
    // Down, and with the record done but the watch still down: a gap, never the cache of then.
    expect(stateAt(reader, { gvr: 'pods.v1', time: downAt + 1 }).gap?.reason).toBe('watch-disconnected');
    expect(stateAt(reader, { gvr: 'pods.v1', time: recordedWhileDown }).gap?.reason).toBe(
      'watch-disconnected',
    );
    const state = stateAt(reader, { gvr: 'pods.v1', time: after.time });
    expect(state.gap).toBeUndefined();
    expect(state.objects).toEqual(after.objects);
    expect(reader.problems).toEqual([]);
    reader.close();
  });
});
