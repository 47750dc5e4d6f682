// Recorder.holdWhile / RecordingChannel.hold: while a travel's moment is rebuilt, what the informers
// capture is stamped and queued as ever but kept from the recording process, then written once the
// rebuild settles; past the hold's byte bound it all goes as it would have. Nothing is lost, every
// change keeps its arrival, and the history invariant holds throughout.
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../main/cache/fake-clock';
import { SharedIndexInformer } from '../../../main/cache/shared-informer';
import { CaptureQueue } from '../../../main/history/capture-queue';
import { objectVersions } from '../../../main/history/object-history';
import { Recorder } from '../../../main/history/recorder';
import { RecordingChannel } from '../../../main/history/recording-channel';
import type { RecordingProcessFactory } from '../../../main/history/recording-process';
import { inlineRecordingProcess } from '../../../main/history/recording-process';
import type { RecorderRequest, RecordingReply } from '../../../main/history/recording-protocol';
import { openRecording } from '../../../main/history/recording-reader';
import { stateAt } from '../../../main/history/replay';
import type { KubeObject } from '../../../shared/kube/object';
import { FakeControllerSource } from '../../support/fake-controller-source';
import { uncoveredSpans } from '../../support/recording-coverage';
import type { TempDirectory } from './fixtures';
import { cacheSnapshot, podsGvr, realisticPod, settle, tempDirectory } from './fixtures';

let directory: TempDirectory | undefined;
afterEach(() => directory?.remove());

/** The inline recording process, noting the sequence of every batch posted to it. */
function countingProcess(posted: number[]): RecordingProcessFactory {
  return () => {
    const process = inlineRecordingProcess();
    return {
      ...process,
      post: (request: RecorderRequest) => {
        if (request.type === 'batch') posted.push(request.sequence);
        process.post(request);
      },
    };
  };
}

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

/** The recording process's reply that batch `sequence` is written. */
function writtenReply(sequence: number): RecordingReply {
  return {
    type: 'written',
    sequence,
    changesWritten: sequence,
    bytes: 0,
    writeMs: 0,
    writeCpuMs: 0,
    entries: new Uint8Array(0),
  };
}

describe('holding the recording while a moment is rebuilt', () => {
  it('posts nothing while the work runs (holds nest), then every change, each at its arrival', async () => {
    directory = tempDirectory();
    const file = directory.file('held.kubetide');
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    const pods = Array.from({ length: 4 }, (_, index) => source.add(realisticPod(`web-${index}-x`)));
    const posted: number[] = [];
    const start = clock.now();
    const recorder = await Recorder.open({
      file,
      context: 'test-context',
      clock,
      recordingProcess: countingProcess(posted),
    });
    const informer = new SharedIndexInformer<KubeObject>({
      name: 'pods.v1',
      listerWatcher: source,
      clock,
      reflector: { random: () => 0.5 },
    });
    recorder.attach(informer, podsGvr, '');
    // Listed after its listing gap opened, so the gap and the list's relist mark are told apart.
    await clock.stepAsync(100);
    const controller = new AbortController();
    const running = informer.run(controller.signal);
    const recorded = {
      recorder,
      informer,
      stop: async () => {
        controller.abort();
        await running;
      },
    };
    await settle();
    await clock.stepAsync(1000);
    await recorded.recorder.flushed();
    const written = recorded.recorder.stats().changesWritten;
    const postedBefore = posted.length;
    // Every batch sent is written: the recording is current.
    expect(recorded.recorder.writingBehindMs()).toBe(0);

    const first = deferred();
    const second = deferred();
    recorded.recorder.holdWhile(first.promise);
    recorded.recorder.holdWhile(second.promise);
    const arrivals: number[] = [];
    for (let step = 0; step < 5; step++) {
      const pod = pods[step % pods.length];
      source.modify({ ...pod, metadata: { ...pod.metadata, labels: { step: String(step) } } });
      await settle();
      arrivals.push(clock.now());
      // Each flush interval (100 ms) sends a batch: held, never posted.
      await clock.stepAsync(300);
    }
    expect(posted.length).toBe(postedBefore);
    expect(recorded.recorder.stats().changesWritten).toBe(written);
    expect(recorded.recorder.stats().buffered).toBe(5);
    // The recording's end trails the clock by the held stretch: the timeline says so.
    expect(recorded.recorder.writingBehindMs()).toBeGreaterThanOrEqual(5 * 300);

    first.resolve();
    await settle();
    await clock.stepAsync(300);
    expect(posted.length).toBe(postedBefore);

    // A failed rebuild releases its hold as a finished one does.
    second.reject(new Error('rebuild failed'));
    await settle();
    expect(posted.length).toBeGreaterThan(postedBefore);
    // In order, none skipped.
    expect(posted).toEqual(posted.map((_, index) => posted[0] + index));
    await clock.stepAsync(100);
    await recorded.recorder.flushed();
    expect(recorded.recorder.stats().changesWritten).toBe(written + 5);
    expect(recorded.recorder.writingBehindMs()).toBe(0);
    const end = clock.now();
    const live = cacheSnapshot(recorded.informer);
    await recorded.stop();
    await recorded.recorder.close();

    const reader = openRecording(file);
    expect(stateAt(reader, { gvr: 'pods.v1', time: end }).objects).toEqual(live);
    const updates = pods.flatMap((pod) =>
      objectVersions(reader, { uid: pod.metadata.uid! }).filter((version) => version.type === 'Updated'),
    );
    expect(updates.map((version) => version.time).sort((a, b) => a - b)).toEqual(arrivals);
    expect(uncoveredSpans(reader, 'pods.v1', start, end)).toEqual([]);
    expect(reader.problems).toEqual([]);
    reader.close();
  });

  it('knows since when captured changes wait to be written: the last written batch, or the first sent', () => {
    const replies: ((reply: RecordingReply) => void)[] = [];
    const queue = new CaptureQueue(1024 * 1024);
    const channel = new RecordingChannel(
      {
        post: () => {},
        onReply: (listener) => void replies.push(listener),
        onExit: () => {},
        terminate: () => Promise.resolve(),
      },
      queue,
      { written: () => {}, died: () => {}, failed: () => {} },
    );
    const written = (sequence: number) => {
      for (const listener of replies) listener(writtenReply(sequence));
    };
    const entry = '[1,1,2,"default/web",{}]';
    expect(channel.unwrittenSince()).toBeUndefined();
    for (const now of [1_000, 2_000, 3_000]) {
      queue.appendChange(entry);
      channel.send(now);
    }
    // Nothing written yet: the first batch sent holds the oldest change.
    expect(channel.unwrittenSince()).toBe(1_000);
    written(1);
    // Changes up to the first batch's time are on disk; the rest came after it.
    expect(channel.unwrittenSince()).toBe(1_000);
    written(2);
    expect(channel.unwrittenSince()).toBe(2_000);
    written(3);
    // All written: current, however long ago the last change came.
    expect(channel.unwrittenSince()).toBeUndefined();
  });

  it('gives up past its byte bound: what was held goes in order, and later batches as they come', () => {
    const posted: { sequence: number; now: number }[] = [];
    const replies: ((reply: RecordingReply) => void)[] = [];
    const queue = new CaptureQueue(1024 * 1024);
    const channel = new RecordingChannel(
      {
        post: (request) => {
          if (request.type === 'batch') posted.push({ sequence: request.sequence, now: request.now });
        },
        onReply: (listener) => void replies.push(listener),
        onExit: () => {},
        terminate: () => Promise.resolve(),
      },
      queue,
      { written: () => {}, died: () => {}, failed: () => {} },
      2_500,
    );
    const entry = `[1,1,2,"default/web","${'x'.repeat(1_000)}"]`;
    const release = channel.hold();
    for (let now = 1; now <= 2; now++) {
      queue.appendChange(entry);
      channel.send(now);
    }
    expect(posted).toEqual([]);
    expect(channel.heldBatches).toBe(2);
    // The third passes 2,500 held bytes: all three go, in order, stamped when they were sent.
    queue.appendChange(entry);
    channel.send(3);
    expect(posted).toEqual([
      { sequence: 1, now: 1 },
      { sequence: 2, now: 2 },
      { sequence: 3, now: 3 },
    ]);
    // Given up: the rest of the hold sends as without one.
    queue.appendChange(entry);
    channel.send(4);
    expect(posted.at(-1)).toEqual({ sequence: 4, now: 4 });
    expect(channel.heldBatches).toBe(0);
    // The queue counted the held batches as in flight all along: its bound saw every byte.
    expect(queue.bufferedChanges).toBe(4);
    release();

    // A new hold holds again; a flush is owed what was held.
    channel.hold();
    queue.appendChange(entry);
    channel.send(5);
    expect(posted).toHaveLength(4);
    void channel.flushed();
    expect(posted.at(-1)).toEqual({ sequence: 5, now: 5 });
  });

  it('posts at most its window of bytes ahead of the writes, so a hold leaves the process idle within it', async () => {
    const posted: number[] = [];
    const replies: ((reply: RecordingReply) => void)[] = [];
    const queue = new CaptureQueue(64 * 1024 * 1024);
    const closed: string[] = [];
    const channel = new RecordingChannel(
      {
        post: (request) => {
          if (request.type === 'batch') posted.push(request.sequence);
          if (request.type === 'close') {
            closed.push(`close after ${posted.length}`);
            for (const listener of replies) listener({ type: 'closed', bytes: 0 });
          }
        },
        onReply: (listener) => void replies.push(listener),
        onExit: () => {},
        terminate: () => Promise.resolve(),
      },
      queue,
      { written: () => {}, died: () => {}, failed: () => {} },
      64 * 1024 * 1024,
      // Three of its batches.
      3 * 1_100,
    );
    const written = (sequence: number) => {
      for (const listener of replies) listener(writtenReply(sequence));
    };
    const send = (now: number) => {
      // About 1,030 bytes a batch.
      queue.appendChange(`[1,1,2,"default/web","${'x'.repeat(1_000)}"]`);
      channel.send(now);
    };
    // A burst (a big cluster's first list): three posted, the rest wait here, not in the process.
    for (let now = 1; now <= 6; now++) send(now);
    expect(posted).toEqual([1, 2, 3]);
    expect(channel.heldBatches).toBe(3);
    // Each write lets one more go, in order.
    written(1);
    expect(posted).toEqual([1, 2, 3, 4]);
    // A travel holds: the process finishes what it has (2, 3, 4) and is given nothing more.
    const release = channel.hold();
    written(2);
    written(3);
    send(7);
    expect(posted).toEqual([1, 2, 3, 4]);
    release();
    expect(posted).toEqual([1, 2, 3, 4, 5, 6]);
    // A flush is owed everything, a window at a time; a close posts the rest at once, then closes.
    const flushed = channel.flushed();
    written(4);
    written(5);
    expect(posted).toEqual([1, 2, 3, 4, 5, 6, 7]);
    written(6);
    written(7);
    await flushed;
    send(8);
    send(9);
    channel.hold();
    send(10);
    await channel.close(11);
    expect(posted).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(closed).toEqual(['close after 10']);
  });

  it('writes what it held when the recorder closes before the work settles', async () => {
    directory = tempDirectory();
    const file = directory.file('closed.kubetide');
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    const pod = source.add(realisticPod('web-0-x'));
    const posted: number[] = [];
    const recorder = await Recorder.open({
      file,
      context: 'test-context',
      clock,
      recordingProcess: countingProcess(posted),
    });
    const informer = new SharedIndexInformer<KubeObject>({
      name: 'pods.v1',
      listerWatcher: source,
      clock,
      reflector: { random: () => 0.5 },
    });
    recorder.attach(informer, podsGvr, '');
    await clock.stepAsync(100);
    const controller = new AbortController();
    const running = informer.run(controller.signal);
    await settle();
    await clock.stepAsync(1000);
    await recorder.flushed();

    const rebuild = deferred();
    recorder.holdWhile(rebuild.promise);
    source.modify({ ...pod, metadata: { ...pod.metadata, labels: { v: '2' } } });
    await settle();
    const changed = clock.now();
    await clock.stepAsync(300);
    const postedBefore = posted.length;
    controller.abort();
    await running;
    await recorder.close();
    expect(posted.length).toBeGreaterThan(postedBefore);
    rebuild.resolve();
    await settle();

    const reader = openRecording(file);
    const versions = objectVersions(reader, { uid: pod.metadata.uid! });
    expect(versions.map((version) => [version.type, version.time])).toEqual([
      ['Replaced', expect.any(Number)],
      ['Updated', changed],
    ]);
    reader.close();
  });
});
