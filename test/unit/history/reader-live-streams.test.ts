// A reader opened on a live recording sees streams the recorder adds after it opened: an informer
// started later (per namespace, once a limited user adds one) must show in density and in replay. And
// refreshed, it sees the metadata the writer moved (the timeline's end), without reopening the file.
import { afterEach, expect, it } from 'vitest';
import { SharedIndexInformer } from '../../../main/cache/shared-informer';
import { openRecording } from '../../../main/history/recording-reader';
import { eventDensity, stateAt } from '../../../main/history/replay';
import type { KubeObject } from '../../../shared/kube/object';
import { FakeControllerSource } from '../../support/fake-controller-source';
import type { TempDirectory } from './fixtures';
import { podsGvr, realisticPod, recordedInformer, settle, tempDirectory } from './fixtures';
import { FakeClock } from '../../../main/cache/fake-clock';
import { RecordingWriter } from '../../../main/history/recording-writer';
import { openForWriting } from '../../../main/history/schema';

let directory: TempDirectory | undefined;
afterEach(() => directory?.remove());

it('finds a stream added after the reader opened', async () => {
  directory = tempDirectory();
  const file = directory.file('live.kubetide');
  const clock = new FakeClock();
  const first = await recordedInformer(new FakeControllerSource(), file, clock);
  await settle();
  await first.recorder.flushed();
  const reader = openRecording(file);

  const payments = new FakeControllerSource();
  payments.add(realisticPod('api-1', 'payments'));
  const informer = new SharedIndexInformer<KubeObject>({
    name: 'pods.v1 in payments',
    listerWatcher: payments,
    clock,
  });
  first.recorder.attach(informer, podsGvr, 'payments');
  const stop = new AbortController();
  const running = informer.run(stop.signal);
  await settle();
  await clock.stepAsync(1000);
  await first.recorder.flushed();

  expect(reader.streams().map((stream) => stream.scope)).toEqual(['', 'payments']);
  const state = stateAt(reader, { gvr: 'pods.v1', time: clock.now() });
  expect(state.objects.map((pod) => `${pod.metadata.namespace}/${pod.metadata.name}`)).toEqual([
    'payments/api-1',
  ]);
  expect([...eventDensity(reader, { from: 0, to: clock.now() + 1, buckets: 1 }).keys()]).toEqual(['pods.v1']);
  reader.close();
  stop.abort();
  await running;
  await first.stop();
  await first.recorder.close();
});

it('reads the metadata the writer moved since it opened once refreshed', () => {
  directory = tempDirectory();
  const file = directory.file('live.kubetide');
  const database = openForWriting(file, 'test', 1_000);
  const writer = new RecordingWriter(database);
  writer.touch(2_000);
  const reader = openRecording(file);
  writer.touch(9_000);
  expect(reader.metadata.lastWritten).toBe(2_000);
  reader.refresh();
  expect(reader.metadata.lastWritten).toBe(9_000);
  reader.close();
  database.close();
});
