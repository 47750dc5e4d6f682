// The Recorder's contract with the informers it records: deltas are only buffered on the informer's
// path, one transaction per flush writes them (so a kill loses at most a flush interval), the delta
// types are those that reached the indexer, and an informer joined while running is recorded too.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../main/cache/fake-clock';
import { SharedIndexInformer } from '../../../main/cache/shared-informer';
import { objectVersions } from '../../../main/history/object-history';
import { Recorder } from '../../../main/history/recorder';
import {
  batchBytes,
  defaultFlushIntervalMs,
  wholeCacheBatchBytes,
} from '../../../main/history/recorder-options';
import type { RecordingProcessFactory } from '../../../main/history/recording-process';
import { inlineRecordingProcess } from '../../../main/history/recording-process';
import type { RecorderRequest } from '../../../main/history/recording-protocol';
import { openRecording } from '../../../main/history/recording-reader';
import { recordingMarks, stateAt } from '../../../main/history/replay';
import type { KubeObject } from '../../../shared/kube/object';
import { FakeControllerSource } from '../../support/fake-controller-source';
import type { TempDirectory } from './fixtures';
import { podsGvr, realisticPod, recordedInformer, settle, tempDirectory } from './fixtures';

let directory: TempDirectory | undefined;
afterEach(() => directory?.remove());

function changesOnDisk(file: string): number {
  const database = new Database(file, { readonly: true });
  try {
    return (database.prepare('SELECT count(*) AS count FROM changes').get() as { count: number }).count;
  } finally {
    database.close();
  }
}

describe('Recorder', () => {
  it('buffers deltas and writes them at the next flush, at most a flush interval later', async () => {
    directory = tempDirectory();
    const file = directory.file('flush.kubetide');
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    const run = await recordedInformer(source, file, clock);
    await settle();
    source.add(realisticPod('web-1'));
    source.add(realisticPod('web-2'));
    await settle();
    expect(run.informer.getStore().list()).toHaveLength(2);
    expect(changesOnDisk(file)).toBe(0);
    expect(run.recorder.stats().buffered).toBe(2);
    await clock.stepAsync(1000);
    expect(changesOnDisk(file)).toBe(2);
    expect(run.recorder.stats()).toMatchObject({ changesWritten: 2, buffered: 0 });
    await run.stop();
    await run.recorder.close();
  });

  it('records each delta type as it reached the indexer', async () => {
    directory = tempDirectory();
    const file = directory.file('types.kubetide');
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    const listed = source.add(realisticPod('web-1'));
    const run = await recordedInformer(source, file, clock);
    await settle();
    const added = source.add(realisticPod('web-2'));
    source.modify(listed);
    source.delete(added);
    await settle();
    await clock.stepAsync(1000);
    await run.stop();
    await run.recorder.close();
    const reader = openRecording(file);
    expect(objectVersions(reader, { uid: listed.metadata.uid! }).map((change) => change.type)).toEqual([
      'Replaced',
      'Updated',
    ]);
    expect(objectVersions(reader, { uid: added.metadata.uid! }).map((change) => change.type)).toEqual([
      'Added',
      'Deleted',
    ]);
    reader.close();
  });

  it('records an informer attached while running: its cache as a relist, then its changes', async () => {
    directory = tempDirectory();
    const file = directory.file('attached.kubetide');
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    source.add(realisticPod('web-1'));
    const informer = new SharedIndexInformer<KubeObject>({ listerWatcher: source, clock });
    const stop = new AbortController();
    const done = informer.run(stop.signal);
    await settle();
    const recorder = await Recorder.open({
      file,
      context: 'test-context',
      clock,
      recordingProcess: inlineRecordingProcess,
    });
    recorder.attach(informer, podsGvr);
    source.add(realisticPod('web-2'));
    await settle();
    const time = clock.now();
    await clock.stepAsync(1000);
    stop.abort();
    await done;
    await recorder.close();
    const reader = openRecording(file);
    expect(stateAt(reader, { gvr: 'pods.v1', time }).objects.map((pod) => pod.metadata.name)).toEqual([
      'web-1',
      'web-2',
    ]);
    // The stream is a gap from the attach until the informer's cache is recorded and it is watching.
    expect(recordingMarks(reader, 0, clock.now()).map((mark) => [mark.kind, mark.reason])).toEqual([
      ['gap', 'listing'],
      ['relist', 'attached'],
    ]);
    reader.close();
  });

  it("sends a whole cache's records in batches of up to wholeCacheBatchBytes, live changes at batchBytes", async () => {
    directory = tempDirectory();
    const file = directory.file('batches.kubetide');
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    // About 5 MiB of pods: one batch of wholeCacheBatchBytes by size, the tail by the timer.
    const podBytes = JSON.stringify(realisticPod('web-0000')).length;
    const count = Math.ceil((5 * 2 ** 20) / podBytes);
    for (let index = 0; index < count; index++)
      source.add(realisticPod(`web-${String(index).padStart(4, '0')}`));
    const informer = new SharedIndexInformer<KubeObject>({ listerWatcher: source, clock });
    const stop = new AbortController();
    const done = informer.run(stop.signal);
    await settle();
    const posted: number[] = [];
    const countingProcess: RecordingProcessFactory = () => {
      const process = inlineRecordingProcess();
      return {
        ...process,
        post: (request: RecorderRequest) => {
          if (request.type === 'batch') posted.push(request.entries.byteLength);
          process.post(request);
        },
      };
    };
    const turns: (() => void)[] = [];
    const recorder = await Recorder.open({
      file,
      context: 'test-context',
      clock,
      recordingProcess: countingProcess,
      nextTurn: (work) => void turns.push(work),
    });
    recorder.attach(informer, podsGvr);
    await settle();
    while (turns.length > 0) {
      turns.shift()!();
      await settle();
    }
    // The record's batches went by size, none by the timer (the clock has not moved).
    const recordBatches = [...posted];
    expect(recordBatches.length).toBeGreaterThanOrEqual(1);
    for (const bytes of recordBatches) {
      expect(bytes).toBeGreaterThanOrEqual(wholeCacheBatchBytes);
      expect(bytes).toBeLessThan(wholeCacheBatchBytes + 2 * podBytes);
    }
    // The record's tail goes with the timer; then live changes alone go at batchBytes, as before.
    await clock.stepAsync(defaultFlushIntervalMs);
    const recorded = posted.length;
    for (let index = 0; index < count / 2; index++)
      source.add(realisticPod(`api-${String(index).padStart(4, '0')}`));
    await settle();
    const liveBatches = posted.slice(recorded);
    expect(liveBatches.length).toBeGreaterThanOrEqual(2);
    for (const bytes of liveBatches) expect(bytes).toBeLessThan(batchBytes + 2 * podBytes);
    await clock.stepAsync(1000);
    stop.abort();
    await done;
    await recorder.close();
    expect(changesOnDisk(file)).toBe(count + Math.ceil(count / 2));
  });

  it('stops recording an informer once detached', async () => {
    directory = tempDirectory();
    const file = directory.file('detached.kubetide');
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    const run = await recordedInformer(source, file, clock);
    await settle();
    run.attachment.detach();
    source.add(realisticPod('web-1'));
    await settle();
    await clock.stepAsync(1000);
    expect(run.informer.getStore().list()).toHaveLength(1);
    expect(changesOnDisk(file)).toBe(0);
    await run.stop();
    await run.recorder.close();
  });

  it('enforces its retention policy periodically while recording', async () => {
    directory = tempDirectory();
    const file = directory.file('retained.kubetide');
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    let pod = source.add(realisticPod('web-1'));
    const retention = { maxAgeMs: 5000 };
    const run = await recordedInformer(source, file, clock, { retention, retentionCheckIntervalMs: 2000 });
    await settle();
    for (let step = 0; step < 20; step++) {
      pod = source.modify(pod);
      await settle();
      await clock.stepAsync(1000);
    }
    const end = clock.now();
    await run.stop();
    await run.recorder.close();
    const reader = openRecording(file);
    const start = reader.metadata.start!;
    expect(start).toBeGreaterThanOrEqual(end - 5000 - 2000 - 1000);
    expect(
      objectVersions(reader, { uid: pod.metadata.uid! }).filter((change) => change.time < start),
    ).toHaveLength(1);
    reader.close();
  });

  it('never writes into a SQLite database that is not a recording', async () => {
    directory = tempDirectory();
    const file = directory.file('other.db');
    const database = new Database(file);
    database.exec('CREATE TABLE notes (text TEXT)');
    database.close();
    await expect(
      Recorder.open({
        file,
        context: 'test-context',
        clock: new FakeClock(),
        recordingProcess: inlineRecordingProcess,
      }),
    ).rejects.toThrow(/not a Kubetide recording/);
  });

  it('refuses a recording of another context', async () => {
    directory = tempDirectory();
    const file = directory.file('context.kubetide');
    const clock = new FakeClock();
    await (
      await Recorder.open({ file, context: 'prod', clock, recordingProcess: inlineRecordingProcess })
    ).close();
    await expect(
      Recorder.open({ file, context: 'staging', clock, recordingProcess: inlineRecordingProcess }),
    ).rejects.toThrow(/records context "prod", not "staging"/);
  });
});
