// A whole cache's record at the recording process's pace (WholeCachePace): its next slice runs only
// while the forced bytes queued or sent and not yet written are under a bound, woken by the process's
// reply that a batch is written. The record is exact all the same, live changes are never held back
// by it, and a record waiting when the recorder closes or the process dies is never left waiting.
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../main/cache/fake-clock';
import { SharedIndexInformer } from '../../../main/cache/shared-informer';
import { CaptureQueue } from '../../../main/history/capture-queue';
import { objectVersions } from '../../../main/history/object-history';
import { Recorder } from '../../../main/history/recorder';
import type { RecorderOptions } from '../../../main/history/recorder-options';
import { defaultFlushIntervalMs } from '../../../main/history/recorder-options';
import type { RecordingProcessFactory } from '../../../main/history/recording-process';
import { inlineRecordingProcess } from '../../../main/history/recording-process';
import type { RecordingReply } from '../../../main/history/recording-protocol';
import { openRecording } from '../../../main/history/recording-reader';
import { stateAt } from '../../../main/history/replay';
import { WholeCachePace } from '../../../main/history/whole-cache-pace';
import type { KubeObject } from '../../../shared/kube/object';
import { FakeControllerSource, sourceKey } from '../../support/fake-controller-source';
import type { TempDirectory } from './fixtures';
import { cacheSnapshot, podsGvr, realisticPod, settle, tempDirectory } from './fixtures';

let directory: TempDirectory | undefined;
afterEach(() => directory?.remove());

/** About four of the fixtures' 3.5 KB pods. */
const backlogBytes = 14_000;
/** About one pod per slice. */
const sliceBytes = 3_000;
/** The most a slice queues: its bytes, then one more pod. */
const sliceMost = sliceBytes + 4_000;

/**
 * The inline recording process, with its "written" replies kept until the test lets them go (one at
 * a time, or all), every batch's text noted, and an exit the test can cause.
 */
function heldProcess() {
  const replies: RecordingReply[] = [];
  const batches: string[] = [];
  const listeners: ((reply: RecordingReply) => void)[] = [];
  const exitListeners: ((error: Error) => void)[] = [];
  let holding = true;
  const deliver = (reply: RecordingReply) => {
    for (const listener of listeners) listener(reply);
  };
  const factory: RecordingProcessFactory = () => {
    const inner = inlineRecordingProcess();
    inner.onReply((reply) => {
      if (holding && reply.type === 'written') replies.push(reply);
      else deliver(reply);
    });
    return {
      post: (request) => {
        if (request.type === 'batch') batches.push(Buffer.from(request.entries).toString());
        inner.post(request);
      },
      onReply: (listener) => void listeners.push(listener),
      onExit: (listener) => void exitListeners.push(listener),
      terminate: () => inner.terminate(),
    };
  };
  return {
    factory,
    batches,
    /** "Written" replies kept back. */
    get held(): number {
      return replies.length;
    },
    /** Lets the oldest kept reply go. */
    replyOne: () => deliver(replies.shift()!),
    /** Lets every kept reply go, and later ones as they come. */
    replyAll: () => {
      holding = false;
      for (const reply of replies.splice(0)) deliver(reply);
    },
    exit: (error: Error) => {
      for (const listener of exitListeners) listener(error);
    },
  };
}

interface Recorded {
  readonly recorder: Recorder;
  readonly informers: SharedIndexInformer<KubeObject>[];
  /** Slices (and other turns) waiting to run; the test runs them. */
  readonly turns: (() => void)[];
  readonly queue: CaptureQueue;
  readonly pace: WholeCachePace;
  stop(): Promise<void>;
}

/** A Recorder on `process` recording one pods informer per source, slices on hand-driven turns. */
async function recordSources(
  sources: readonly { source: FakeControllerSource; namespace: string }[],
  file: string,
  clock: FakeClock,
  process: RecordingProcessFactory,
  options: Partial<RecorderOptions> = {},
): Promise<Recorded> {
  const turns: (() => void)[] = [];
  const recorder = await Recorder.open({
    file,
    context: 'test-context',
    clock,
    recordingProcess: process,
    resyncSliceBytes: sliceBytes,
    wholeCacheBacklogBytes: backlogBytes,
    nextTurn: (work) => void turns.push(work),
    ...options,
  });
  const controller = new AbortController();
  const informers = sources.map(({ source, namespace }) => {
    const informer = new SharedIndexInformer<KubeObject>({
      name: `pods.v1 ${namespace}`,
      listerWatcher: source,
      clock,
      reflector: { random: () => 0.5 },
    });
    recorder.attach(informer, podsGvr, namespace);
    return informer;
  });
  const running = informers.map((informer) => informer.run(controller.signal));
  const insides = recorder as unknown as { queue: CaptureQueue; pace: WholeCachePace };
  return {
    recorder,
    informers,
    turns,
    queue: insides.queue,
    pace: insides.pace,
    stop: async () => {
      controller.abort();
      await Promise.all(running);
    },
  };
}

function podsIn(namespace: string, count: number): FakeControllerSource {
  const source = new FakeControllerSource();
  for (let index = 0; index < count; index++) source.add(realisticPod(`web-${index}-x`, namespace));
  return source;
}

describe('a whole cache recorded at the recording process pace', () => {
  it('never has more than the bound unwritten, per record waiting, and still records the caches exactly', async () => {
    directory = tempDirectory();
    const file = directory.file('paced.kubetide');
    const clock = new FakeClock();
    const process = heldProcess();
    const sources = [
      { source: podsIn('default', 40), namespace: 'default' },
      { source: podsIn('payments', 25), namespace: 'payments' },
    ];
    const run = await recordSources(sources, file, clock, process.factory);
    let most = 0;
    const runTurns = () => {
      for (let turn = run.turns.shift(); turn; turn = run.turns.shift()) {
        turn();
        most = Math.max(most, run.queue.unwrittenForcedBytes);
      }
    };
    await settle();
    // Both lists are in their caches, watched: both records began, and run until the bound.
    runTurns();
    // Past the bound by at most a slice per record (each record waiting goes on for one slice).
    expect(most).toBeLessThanOrEqual(backlogBytes + 2 * sliceMost);
    expect(run.queue.unwrittenForcedBytes).toBeGreaterThanOrEqual(backlogBytes);
    expect(run.pace.waitingRecords).toBe(2);
    // What waits is sent: the reply that makes room will come (on a microtask).
    await settle();
    expect(process.held).toBeGreaterThan(0);

    // One reply at a time: each lets the records go on, a slice each, never past the bound again.
    let replies = 0;
    while (process.held > 0) {
      process.replyOne();
      replies++;
      await settle();
      runTurns();
      // The batch the records wait on next is answered on a microtask.
      await settle();
    }
    expect(replies).toBeGreaterThan(5);
    expect(most).toBeLessThanOrEqual(backlogBytes + 2 * sliceMost);
    expect(run.pace.waitingRecords).toBe(0);
    process.replyAll();
    await clock.stepAsync(defaultFlushIntervalMs);
    await run.recorder.flushed();
    const end = clock.now();
    const objects = run.informers
      .flatMap((informer) => cacheSnapshot(informer))
      .sort((a, b) => (sourceKey(a) < sourceKey(b) ? -1 : 1));
    await run.stop();
    await run.recorder.close();

    const reader = openRecording(file);
    const state = stateAt(reader, { gvr: 'pods.v1', time: end });
    expect(state.gap).toBeUndefined();
    expect(state.objects).toEqual(objects);
    expect(objects.length).toBe(65);
    for (const pod of objects)
      expect(objectVersions(reader, { uid: pod.metadata.uid! }).map((version) => version.type)).toEqual([
        'Replaced',
      ]);
    expect(reader.problems).toEqual([]);
    reader.close();
  });

  it('holds no live change back: one made while the record waits is sent at the next flush', async () => {
    directory = tempDirectory();
    const file = directory.file('live.kubetide');
    const clock = new FakeClock();
    const process = heldProcess();
    const source = podsIn('default', 30);
    const run = await recordSources([{ source, namespace: 'default' }], file, clock, process.factory);
    await settle();
    for (let turn = run.turns.shift(); turn; turn = run.turns.shift()) turn();
    expect(run.pace.waitingRecords).toBe(1);
    // The first object of the snapshot is recorded: its change is live, queued as it comes.
    const [first] = run.informers[0].getIndexer().list();
    const batchesBefore = process.batches.length;
    source.modify({ ...first, metadata: { ...first.metadata, labels: { live: 'changed' } } });
    await settle();
    await clock.stepAsync(defaultFlushIntervalMs);
    const sent = process.batches.slice(batchesBefore);
    expect(sent.some((batch) => batch.includes('"live":"changed"'))).toBe(true);
    // The record still waits for the process: the change went ahead of it.
    expect(run.pace.waitingRecords).toBe(1);

    process.replyAll();
    for (let more = 0; more < 100 && (run.turns.length > 0 || run.pace.waitingRecords > 0); more++) {
      await settle();
      run.turns.shift()?.();
    }
    await clock.stepAsync(defaultFlushIntervalMs);
    await run.recorder.flushed();
    const end = clock.now();
    const objects = cacheSnapshot(run.informers[0]);
    await run.stop();
    await run.recorder.close();

    const reader = openRecording(file);
    expect(stateAt(reader, { gvr: 'pods.v1', time: end }).objects).toEqual(objects);
    expect(objectVersions(reader, { uid: first.metadata.uid! }).map((version) => version.type)).toEqual([
      'Replaced',
      'Updated',
    ]);
    expect(reader.problems).toEqual([]);
    reader.close();
  });

  it('drops a record waiting when the recorder closes: no slice runs after, no timer is left', async () => {
    directory = tempDirectory();
    const clock = new FakeClock();
    const process = heldProcess();
    const run = await recordSources(
      [{ source: podsIn('default', 30), namespace: 'default' }],
      directory.file('closed.kubetide'),
      clock,
      process.factory,
    );
    await settle();
    for (let turn = run.turns.shift(); turn; turn = run.turns.shift()) turn();
    expect(run.pace.waitingRecords).toBe(1);
    await run.stop();
    await run.recorder.close();
    expect(run.pace.waitingRecords).toBe(0);
    // The replies the record waited for come after all: nothing runs.
    process.replyAll();
    await settle();
    expect(run.turns).toEqual([]);
    expect(clock.waiterCount()).toBe(0);
  });

  it('lets a record waiting go on when the process dies, so that it finishes and its waiters are told', async () => {
    directory = tempDirectory();
    const clock = new FakeClock();
    const process = heldProcess();
    const recorder = await Recorder.open({
      file: directory.file('died.kubetide'),
      context: 'test-context',
      clock,
      recordingProcess: process.factory,
      resyncSliceBytes: sliceBytes,
      wholeCacheBacklogBytes: backlogBytes,
      nextTurn: (work) => void turns.push(work),
      reportError: () => {},
    });
    const turns: (() => void)[] = [];
    const pace = (recorder as unknown as { pace: WholeCachePace }).pace;
    const release = recorder.holdWholeCaches();
    const informer = new SharedIndexInformer<KubeObject>({
      name: 'pods.v1',
      listerWatcher: podsIn('default', 30),
      clock,
      reflector: { random: () => 0.5 },
    });
    recorder.attach(informer, podsGvr, '');
    const controller = new AbortController();
    const running = informer.run(controller.signal);
    await settle();
    let written = false;
    const released = release().then(() => (written = true));
    for (let turn = turns.shift(); turn; turn = turns.shift()) turn();
    expect(pace.waitingRecords).toBe(1);
    await settle();
    expect(written).toBe(false);

    process.exit(new Error('the recording worker exited with code 1'));
    expect(pace.waitingRecords).toBe(0);
    // The record goes on (queuing nothing) to its end, without waiting for any reply.
    for (let turn = turns.shift(); turn; turn = turns.shift()) turn();
    await released;
    expect(written).toBe(true);
    expect(turns).toEqual([]);
    controller.abort();
    await running;
    await recorder.close();
  });
});

describe('the pace of whole caches, alone', () => {
  /** A forced Replaced of about `bytes` bytes. */
  const forced = (queue: CaptureQueue, bytes: number) =>
    queue.appendObjectChange(1, 1, 0, 'default/web', { data: 'x'.repeat(bytes) }, true);

  it("keeps a waiting record's tail from the flush timer while sent batches are unwritten, but not a live change", () => {
    const queue = new CaptureQueue(1024 * 1024);
    const sends: number[] = [];
    const turns: (() => void)[] = [];
    const pace = new WholeCachePace(queue, 10_000, {
      send: () => void sends.push(queue.pendingBytes),
      nextTurn: (work) => void turns.push(work),
    });
    forced(queue, 6_000);
    queue.take(1);
    forced(queue, 6_000);
    queue.take(2);
    // A slice's tail, queued after the batches that passed the bound.
    forced(queue, 500);
    let slices = 0;
    pace.nextTurn(() => slices++);
    expect(turns).toEqual([]);
    // The sent batches are over the bound by themselves: a reply will come, nothing is sent early.
    expect(sends).toEqual([]);
    expect(pace.tailWaits()).toBe(true);
    queue.appendChange('[2,1,1,"default/live",{}]');
    expect(pace.tailWaits()).toBe(false);

    queue.written(1);
    pace.written();
    expect(turns.length).toBe(1);
    turns.shift()!();
    expect(slices).toBe(1);
    expect(pace.tailWaits()).toBe(false);
  });

  it('sends what is queued when a record must wait and what is sent alone is under the bound', () => {
    const queue = new CaptureQueue(1024 * 1024);
    const sends: number[] = [];
    const pace = new WholeCachePace(queue, 10_000, {
      send: () => void sends.push(queue.pendingForcedBytes),
      nextTurn: () => {},
    });
    forced(queue, 12_000);
    pace.nextTurn(() => {});
    expect(pace.waitingRecords).toBe(1);
    expect(sends.length).toBe(1);
    expect(sends[0]).toBeGreaterThan(12_000);
  });
});
