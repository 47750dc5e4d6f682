// Benchmark 5 (issue 7): main/history's Recorder attached to a Kubetide informer reading the replayed
// watch stream (M events over 1,000 pods). The recording rate counts the Recorder's own work (its
// flushes: encoding, deflating against the previous version, SQLite writes), since the informer's
// rate is the watch benchmark's; bytes per event is the file after close; rebuild is stateAt() of
// the pods at a random moment of the recording.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realClock } from '../../main/cache/real-clock';
import { SharedIndexInformer } from '../../main/cache/shared-informer';
import { Recorder } from '../../main/history/recorder';
import { openRecording } from '../../main/history/recording-reader';
import { stateAt, timeRange } from '../../main/history/replay';
import { httpListerWatcher } from '../../main/kube/lister-watcher';
import { embeddedKubeconfig } from '../../main/sim/kubeconfig';
import type { KubeList, KubeObject } from '../../shared/kube/object';
import { gvrKey } from '../../shared/kube/object';
import type { BenchOptions, BenchResult } from './harness';
import {
  atLeast,
  atMost,
  getBody,
  kubetideClient,
  kubetideTransform,
  median,
  podsResource,
  round,
  waitUntil,
} from './harness';
import { generateReplayStream, startReplayServer } from './replay-server';
import type { SyncTarget } from './sync';

const basePodCount = 1_000;
const rebuilds = 3;

export async function runHistory(options: BenchOptions, target: SyncTarget): Promise<BenchResult> {
  const base = JSON.parse(
    (await getBody(`${target.url}/api/v1/pods?limit=${basePodCount}`)).toString('utf8'),
  ) as KubeList;
  const stream = generateReplayStream(base.items, options.events);
  const server = await startReplayServer(stream);
  const directory = mkdtempSync(join(tmpdir(), 'kubetide-bench-history-'));
  const file = join(directory, 'recording.sqlite');
  const { client, close } = kubetideClient(embeddedKubeconfig(server.url));
  const recorder = new Recorder({ file, context: 'bench', clock: realClock, reportError: () => {} });
  let flushMs = 0;
  const flush = recorder.flush.bind(recorder);
  recorder.flush = () => {
    const start = performance.now();
    flush();
    flushMs += performance.now() - start;
  };
  const informer = new SharedIndexInformer<KubeObject>({
    name: 'bench history',
    listerWatcher: httpListerWatcher(client, podsResource),
    transform: kubetideTransform(),
  });
  let updates = 0;
  informer.addEventHandler({ onUpdate: () => void updates++ });
  recorder.attach(informer, podsResource);
  const stop = new AbortController();
  const running = informer.run(stop.signal);
  try {
    await waitUntil(
      () => updates >= options.events,
      30 * 60_000,
      'the recorded informer to see every event',
      20,
    );
    stop.abort();
    await running;
    recorder.flush();
    const written = recorder.stats().changesWritten;
    recorder.close();
    const bytes = recorder.stats().bytes;

    const reader = openRecording(file);
    const range = timeRange(reader);
    const samples: number[] = [];
    for (let index = 0; index < rebuilds && range; index++) {
      const time = range.start + ((index + 1) / (rebuilds + 1)) * (range.end - range.start);
      const start = performance.now();
      stateAt(reader, { gvr: gvrKey(podsResource), time });
      samples.push(performance.now() - start);
    }
    reader.close();
    const recordRate = written / (flushMs / 1000);
    const bytesPerEvent = bytes / written;
    const rebuildMs = median(samples);
    return {
      bench: 'history',
      fields: {
        events_recorded: written,
        record_events_per_s: Math.round(recordRate),
        bytes_per_event: round(bytesPerEvent),
        rebuild_ms: round(rebuildMs),
      },
      goals: [
        atLeast('history: at least 20,000 events/s recorded', recordRate, 20_000, '/s'),
        atMost('history: at most 300 bytes per event', bytesPerEvent, 300, ' B'),
        atMost('history: rebuild at most 500 ms', rebuildMs, 500, ' ms'),
      ],
      notes: [
        `the issue sizes the rebuild on a 1,000,000-event recording; this one holds ${written} (--events)`,
        'rebuild times are at 1/4, 1/2 and 3/4 of the recording',
      ],
    };
  } finally {
    stop.abort();
    await running.catch(() => {});
    recorder.close();
    close();
    await server.close();
    rmSync(directory, { recursive: true, force: true });
  }
}
