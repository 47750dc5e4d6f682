// Benchmark 5 (issue 7): main/history's Recorder attached to a Kubetide informer reading a stream of
// `--history-events` MODIFIED pods over 1,000 pods, generated lazily (history-stream.ts) so that the
// 1,000,000 events the issue sizes the recording at never sit in memory together. The recording rate
// counts the Recorder's own work (its flushes: encoding, compressing against the previous version,
// SQLite writes), since the informer's rate is the watch benchmark's; bytes per event is the file
// after close; rebuild is stateAt() of all the pods at random moments of the recording, each on a
// freshly opened reader so no version decoded by an earlier sample is reused.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realClock } from '../../main/cache/real-clock';
import { SharedIndexInformer } from '../../main/cache/shared-informer';
import { Recorder } from '../../main/history/recorder';
import { openRecording } from '../../main/history/recording-reader';
import { stateAt, timeRange } from '../../main/history/replay';
import type { KubeList, KubeObject } from '../../shared/kube/object';
import { gvrKey } from '../../shared/kube/object';
import type { BenchOptions, BenchResult } from './harness';
import {
  atLeast,
  atMost,
  getBody,
  kubetideTransform,
  median,
  podsResource,
  round,
  waitUntil,
} from './harness';
import { historyListerWatcher } from './history-stream';
import type { SyncTarget } from './sync';

const basePodCount = 1_000;
const rebuilds = 5;

export async function runHistory(options: BenchOptions, target: SyncTarget): Promise<BenchResult> {
  const log = (message: string) => {
    if (!options.json) process.stderr.write(`${message}\n`);
  };
  const base = JSON.parse(
    (await getBody(`${target.url}/api/v1/pods?limit=${basePodCount}`)).toString('utf8'),
  ) as KubeList;
  const events = options.historyEvents;
  const directory = mkdtempSync(join(tmpdir(), 'kubetide-bench-history-'));
  const file = join(directory, 'recording.sqlite');
  const recorder = new Recorder({ file, context: 'bench', clock: realClock, reportError: () => {} });
  let flushMs = 0;
  // CPU time is steadier than wall time on a shared machine: another process's work does not count.
  let flushCpuMicros = 0;
  const flush = recorder.flush.bind(recorder);
  recorder.flush = () => {
    const start = performance.now();
    const cpu = process.cpuUsage();
    flush();
    const spent = process.cpuUsage(cpu);
    flushCpuMicros += spent.user + spent.system;
    flushMs += performance.now() - start;
  };
  const started = performance.now();
  const informer = new SharedIndexInformer<KubeObject>({
    name: 'bench history',
    listerWatcher: historyListerWatcher({
      basePods: base.items,
      events,
      progressEvery: Math.max(10_000, Math.round(events / 20)),
      onProgress: (served) => {
        const seconds = (performance.now() - started) / 1000;
        const rate = recorder.stats().changesWritten / (flushMs / 1000 || 1);
        log(
          `  history: ${served} of ${events} events streamed in ${seconds.toFixed(0)} s, recorder ${Math.round(rate)} events/s`,
        );
      },
    }),
    transform: kubetideTransform(),
  });
  let updates = 0;
  informer.addEventHandler({ onUpdate: () => void updates++ });
  recorder.attach(informer, podsResource);
  const stop = new AbortController();
  const running = informer.run(stop.signal);
  try {
    await waitUntil(() => updates >= events, 60 * 60_000, 'the recorded informer to see every event', 20);
    stop.abort();
    await running;
    recorder.flush();
    const written = recorder.stats().changesWritten;
    recorder.close();
    const bytes = recorder.stats().bytes;

    const samples: number[] = [];
    const range = openAndClose(file);
    for (let index = 0; index < rebuilds && range; index++) {
      const time = range.start + Math.random() * (range.end - range.start);
      const reader = openRecording(file);
      const start = performance.now();
      stateAt(reader, { gvr: gvrKey(podsResource), time });
      samples.push(performance.now() - start);
      reader.close();
    }
    const recordRate = written / (flushMs / 1000);
    const bytesPerEvent = bytes / written;
    const rebuildMs = median(samples);
    return {
      bench: 'history',
      fields: {
        events_recorded: written,
        record_events_per_s: Math.round(recordRate),
        record_cpu_us_per_event: round(flushCpuMicros / written),
        bytes_per_event: round(bytesPerEvent),
        rebuild_ms: round(rebuildMs),
      },
      goals: [
        atLeast('history: at least 20,000 events/s recorded', recordRate, 20_000, '/s'),
        atMost('history: at most 300 bytes per event', bytesPerEvent, 300, ' B'),
        atMost('history: rebuild at most 500 ms', rebuildMs, 500, ' ms'),
      ],
      notes: [
        `${written} changes recorded (--history-events ${events} plus the initial list of ${base.items.length})`,
        'record_cpu_us_per_event is the CPU time of the flushes (process-wide) per change: steadier than the rate',
        `rebuild is the median of ${rebuilds} stateAt() calls at random moments, each on a fresh reader`,
      ],
    };
  } finally {
    stop.abort();
    await running.catch(() => {});
    recorder.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

/** The recording's time range, read on a reader closed at once (opening is not what rebuild times). */
function openAndClose(file: string): ReturnType<typeof timeRange> {
  const reader = openRecording(file);
  try {
    return timeRange(reader);
  } finally {
    reader.close();
  }
}
