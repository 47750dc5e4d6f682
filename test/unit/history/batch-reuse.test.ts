// A batch's buffer is handed to the recording process and filled again only once the process gives
// it back (its "written" reply carries it): a buffer in flight, or held by the channel, is never
// written while the process may still read it, and a recording made through reused buffers (a real
// worker thread, the buffers transferred there and back) holds exactly the objects captured.
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../main/cache/fake-clock';
import { CaptureQueue } from '../../../main/history/capture-queue';
import { objectVersions } from '../../../main/history/object-history';
import { RecordingChannel } from '../../../main/history/recording-channel';
import type { RecordingProcess, RecordingProcessFactory } from '../../../main/history/recording-process';
import type { RecorderRequest, RecordingReply } from '../../../main/history/recording-protocol';
import { openRecording } from '../../../main/history/recording-reader';
import { workerRecordingProcess } from '../../../main/history/worker-recording-process';
import type { KubeObject } from '../../../shared/kube/object';
import { FakeControllerSource } from '../../support/fake-controller-source';
import type { TempDirectory } from './fixtures';
import { realisticPod, recordedInformer, settle, tempDirectory } from './fixtures';

let directory: TempDirectory | undefined;
afterEach(() => directory?.remove());

type BatchRequest = Extract<RecorderRequest, { type: 'batch' }>;

/** A process that reads nothing until the test says so: every batch posted, and its replies' listeners. */
function lazyProcess(): {
  process: RecordingProcess;
  batches: BatchRequest[];
  reply(reply: RecordingReply): void;
} {
  const batches: BatchRequest[] = [];
  const listeners: ((reply: RecordingReply) => void)[] = [];
  return {
    batches,
    reply: (reply) => listeners.forEach((listener) => listener(reply)),
    process: {
      post: (request) => void (request.type === 'batch' && batches.push(request)),
      onReply: (listener) => void listeners.push(listener),
      onExit: () => {},
      terminate: () => Promise.resolve(),
    },
  };
}

function textOf(batch: BatchRequest): string {
  return Buffer.from(batch.entries.buffer, batch.entries.byteOffset, batch.entries.byteLength).toString();
}

function written(batch: BatchRequest, changesWritten: number): RecordingReply {
  const { sequence, entries } = batch;
  return { type: 'written', sequence, changesWritten, bytes: 0, writeMs: 0, writeCpuMs: 0, entries };
}

describe("reusing a batch's buffer", () => {
  it('writes a buffer again only once the process gave it back', () => {
    const { process, batches, reply } = lazyProcess();
    const queue = new CaptureQueue(64 * 1024 * 1024);
    const channel = new RecordingChannel(process, queue, {
      written: () => {},
      died: () => {},
      failed: () => {},
    });
    const pods = new Map(['web-1', 'web-2', 'web-3', 'web-4'].map((name) => [name, realisticPod(name)]));
    const pod = (name: string) => pods.get(name)!;
    queue.appendObjectChange(1, 1, 2, 'default/web-1', pod('web-1'));
    channel.send(1);
    const first = textOf(batches[0]);
    expect(JSON.parse(first)).toEqual([[1, 1, 2, 'default/web-1', pod('web-1')]]);
    // Batch 1 is in flight, unread: batch 2 goes into another buffer, batch 1 is left as it was.
    queue.appendObjectChange(2, 1, 2, 'default/web-2', pod('web-2'));
    channel.send(2);
    const second = textOf(batches[1]);
    expect(batches[1].entries.buffer).not.toBe(batches[0].entries.buffer);
    expect(textOf(batches[0])).toBe(first);
    // Held by the channel: not the queue's either.
    const release = channel.hold();
    queue.appendObjectChange(3, 1, 2, 'default/web-3', pod('web-3'));
    channel.send(3);
    queue.appendObjectChange(4, 1, 2, 'default/web-4', pod('web-4'));
    expect(textOf(batches[0])).toBe(first);
    expect(textOf(batches[1])).toBe(second);
    release();
    expect(batches).toHaveLength(3);
    expect(JSON.parse(textOf(batches[2]))).toEqual([[3, 1, 2, 'default/web-3', pod('web-3')]]);
    const third = textOf(batches[2]);
    // Batch 1 read and given back: the next batch opened is written into its buffer, no other.
    reply(written(batches[0], 1));
    channel.send(4);
    expect(JSON.parse(textOf(batches[3]))).toEqual([[4, 1, 2, 'default/web-4', pod('web-4')]]);
    queue.appendObjectChange(5, 1, 2, 'default/web-1', pod('web-1'));
    channel.send(5);
    expect(batches[4].entries.buffer).toBe(batches[0].entries.buffer);
    expect(JSON.parse(textOf(batches[4]))).toEqual([[5, 1, 2, 'default/web-1', pod('web-1')]]);
    expect(textOf(batches[1])).toBe(second);
    expect(textOf(batches[2])).toBe(third);
  });

  it('records through a worker thread, its buffers transferred there and back, exactly what was captured', async () => {
    directory = tempDirectory();
    const file = directory.file('reused.kubetide');
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    // Without managedFields, which the recording leaves out.
    const pods = Array.from({ length: 6 }, (_, index) => {
      const { managedFields: _managedFields, ...metadata } = realisticPod(`web-${index}-x`).metadata;
      return source.add({ ...realisticPod(`web-${index}-x`), metadata });
    });
    const givenBack: number[] = [];
    const process: RecordingProcessFactory = () => {
      const worker = workerRecordingProcess();
      return {
        ...worker,
        onReply: (listener) =>
          worker.onReply((reply) => {
            if (reply.type === 'written' && reply.entries) givenBack.push(reply.entries.byteLength);
            listener(reply);
          }),
      };
    };
    const run = await recordedInformer(source, file, clock, { recordingProcess: process });
    await settle();
    await run.recorder.flushed();
    const versions = new Map<string, KubeObject[]>(pods.map((pod) => [pod.metadata.uid!, [pod]]));
    for (let step = 0; step < 60; step++) {
      const index = step % pods.length;
      const changed = {
        ...pods[index],
        metadata: {
          ...pods[index].metadata,
          annotations: { step: `é ✓ "${step}"\n`.repeat(1 + (step % 7) * 40) },
        },
      };
      pods[index] = source.modify(changed);
      versions.get(changed.metadata.uid!)!.push(pods[index]);
      await settle();
      // A batch a step or two: each written and its buffer given back before the next is filled.
      if (step % 2 === 1) await run.recorder.flushed();
    }
    await run.recorder.flushed();
    await run.stop();
    await run.recorder.close();
    expect(givenBack.length).toBeGreaterThan(25);
    expect(givenBack.every((bytes) => bytes > 0)).toBe(true);
    const reader = openRecording(file);
    for (const [uid, expected] of versions) {
      const recorded = objectVersions(reader, { uid }).map((change) => JSON.stringify(change.object));
      expect(recorded).toEqual(expected.map((version) => JSON.stringify(version)));
    }
    expect(reader.problems).toEqual([]);
    reader.close();
  });
});
