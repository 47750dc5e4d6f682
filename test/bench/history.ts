// Benchmark 5 (issues 7 and 12): main/history's Recorder, recording from its worker thread, attached
// to a Kubetide informer reading a stream of `--history-events` MODIFIED pods over 1,000 pods,
// generated lazily (history-stream.ts) so that the 1,000,000 events the issue sizes the recording at
// never sit in memory together.
// - record rate: changes written per second of the recording worker's own time, its thread's CPU time
//   where the platform tells it (parsing, encoding, compression, SQLite; not the time a loaded machine
//   gave other processes), with its wall time and the run's (first event to last change on disk) beside;
// - main-thread stall: the longest event-loop delay (perf_hooks monitorEventLoopDelay) while recording,
//   informer included: what a window would feel;
// - capture-stamp delay: a second, paced run at 2,000 changes/s, each event carrying the time it was
//   sent; the delay is the recorded time minus that (p99);
// - bytes per change: the file after close; rebuild: stateAt() of all the pods at random moments,
//   each on a freshly opened reader so no version decoded by an earlier sample is reused;
// - export: the whole recording exported by its worker thread, and this thread's longest stall meanwhile.
// KUBETIDE_BENCH_NICENESS=N runs the recording worker at nice value N instead of the app's.
// KUBETIDE_BENCH_HISTORY_STALLS_ONLY=1 measures the stalls alone: no rebuild, export or flood baseline.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { realClock } from '../../main/cache/real-clock';
import { SharedIndexInformer } from '../../main/cache/shared-informer';
import { compactingListerWatcher } from '../../main/bridge/compacting-lister-watcher';
import { createObjectCompactor } from '../../main/bridge/object-compactor';
import { Recorder } from '../../main/history/recorder';
import { recordingWorkerNiceness, recordingWorkerProcess } from '../../main/history/worker-recording-process';
import { threadCpuMs } from '../../main/history/thread-cpu-time';
import { StreamTap } from '../../main/history/stream-tap';
import { CacheResync } from '../../main/history/cache-resync';
import { exportInWorker } from '../../main/history/export-in-worker';
import { objectVersions } from '../../main/history/object-history';
import { openRecording } from '../../main/history/recording-reader';
import { stateAt, timeRange } from '../../main/history/replay';
import type { KubeList, KubeObject } from '../../shared/kube/object';
import { gvrKey } from '../../shared/kube/object';
import type { BenchOptions, BenchResult } from './harness';
import { atLeast, atMost, getBody, median, podsResource, round, waitUntil } from './harness';
import type { CpuStall, MonotonicSpan, WallStallBreakdown } from './cpu-stall-monitor';
import { CpuStallMonitor, describeWallStall } from './cpu-stall-monitor';
import { IdleLoopControl } from './idle-loop-control';
import type { RoleTimes } from './thread-shares';
import { ThreadShares, describeRoleTimes } from './thread-shares';
import type { IdleLoopReport } from './idle-loop-child';
import { emittedAnnotation, historyListerWatcher } from './history-stream';
import type { SyncTarget } from './sync';

const basePodCount = 1_000;
const rebuilds = 5;
const pacedRate = 2_000;
const pacedSeconds = 10;

/**
 * The recording worker's nice value: the app's (recordingWorkerNiceness), or KUBETIDE_BENCH_NICENESS's
 * to compare (above 0: the worker yields a shared core to the informers' thread sooner).
 */
const workerNiceness = Number(process.env.KUBETIDE_BENCH_NICENESS ?? recordingWorkerNiceness);

/** Only the stalls: the recording, then the paced runs (no rebuild, export or flood baseline). */
const stallsOnly = process.env.KUBETIDE_BENCH_HISTORY_STALLS_ONLY === '1';

/**
 * The recorder's own work on the informers' thread, timed around each call: the tap's capture of
 * each key's deltas (stamp, serialize, queue), each slice of a cache recorded whole, and each batch
 * sent to the worker. A run's max stall
 * mixes in the informer, GC and other processes; this is the part the recorder adds.
 */
const mainThreadWork = { totalMs: 0, maxMs: 0 };

/** Calls under way of the methods timed: one inside another (a resync's first slice) counts once. */
let timedDepth = 0;

function timeOnMainThread(target: object, method: string): void {
  const prototype = target as Record<string, (...args: unknown[]) => unknown>;
  const original = prototype[method];
  prototype[method] = function (this: unknown, ...args: unknown[]) {
    if (timedDepth > 0) return original.apply(this, args);
    timedDepth++;
    const start = performance.now();
    try {
      return original.apply(this, args);
    } finally {
      timedDepth--;
      const spent = performance.now() - start;
      mainThreadWork.totalMs += spent;
      mainThreadWork.maxMs = Math.max(mainThreadWork.maxMs, spent);
    }
  };
}
timeOnMainThread(StreamTap.prototype, 'observeDeltas');
timeOnMainThread(StreamTap.prototype, 'observePhase');
// A whole cache's later slices run in turns of their own (see CacheResync).
timeOnMainThread(CacheResync.prototype, 'slice');
timeOnMainThread(Recorder.prototype, 'send');

export interface RecordedRun {
  /** The stream's events (the informer's updates). */
  readonly events: number;
  readonly written: number;
  /** The recording process's time writing (parsing, encoding, compressing, SQLite), in s. */
  readonly writeSeconds: number;
  /** Of which its thread was on a CPU, in s (undefined where the platform does not tell). */
  readonly writeCpuSeconds: number | undefined;
  readonly seconds: number;
  readonly maxStallMs: number;
  /** The longest stall in this thread's CPU time (see CpuStallMonitor); undefined where untold. */
  readonly maxStallCpuMs: number | undefined;
  /** What the long wall-time stalls were made of (CPU, waiting for a core, collections). */
  readonly wallStalls: WallStallBreakdown;
  /** Where the longest stall in CPU time was, on a CPU profile's clock (see profile-summary --window). */
  readonly longestCpuSpan: MonotonicSpan | undefined;
  /** The longest iterations in this thread's CPU time, longest first, with their spans. */
  readonly cpuStalls: readonly CpuStall[];
  /** This thread's CPU time over the run, in ms (undefined where untold). */
  readonly mainCpuMs: number | undefined;
  /** The collections of the run by kind (see CpuStallMonitor.collectionTotals). */
  readonly collections: string;
  /** Every thread of the process over the run, by role (undefined where untold). */
  readonly threads: RoleTimes | undefined;
  /** The same run's stalls in a process with no work (the machine's share). */
  readonly control: IdleLoopReport;
  readonly bytes: number;
  readonly dropped: number;
}

/**
 * Records `events` changes of the stream into `file`, from a worker, watching the event loop. With
 * `file` undefined, runs the informer alone: the baseline the recorder's share is told from.
 */
export async function record(
  file: string | undefined,
  basePods: readonly KubeObject[],
  events: number,
  log: (message: string) => void,
  rowFrames: boolean,
  control: IdleLoopControl,
  eventsPerSecond?: number,
): Promise<RecordedRun> {
  const shares = ThreadShares.open();
  const recorder =
    file === undefined
      ? undefined
      : await Recorder.open({
          file,
          context: 'bench',
          clock: realClock,
          reportError: () => {},
          recordingProcess: recordingWorkerProcess(workerNiceness),
          ...(rowFrames ? {} : { rowFrames: false }),
        });
  // The threads Recorder.open started are the recording worker's.
  shares?.discover('recording');
  const started = performance.now();
  // As a feed builds its pods informer (main/bridge/feed.ts): the LIST's items compacted in turns
  // ahead of DeltaFIFO, the same compactor as the informer's transform.
  const compactor = createObjectCompactor();
  const informer = new SharedIndexInformer<KubeObject>({
    name: 'bench history',
    listerWatcher: compactingListerWatcher(
      historyListerWatcher({
        basePods,
        events,
        ...(eventsPerSecond ? { eventsPerSecond } : {}),
        progressEvery: Math.max(10_000, Math.round(events / 20)),
        onProgress: (served) => {
          const seconds = (performance.now() - started) / 1000;
          log(
            `  history: ${served} of ${events} events streamed in ${seconds.toFixed(0)} s, ${recorder?.stats().changesWritten ?? 0} written`,
          );
        },
      }),
      compactor,
      realClock,
    ),
    transform: compactor.transform,
  });
  let updates = 0;
  informer.addEventHandler({ onUpdate: () => void updates++ });
  recorder?.attach(informer, podsResource);
  await control.measure();
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const cpuStalls = new CpuStallMonitor();
  // Threads started since (libuv's pool, at its first use) are told as "other".
  shares?.discover('other');
  cpuStalls.start(shares);
  const cpuStart = threadCpuMs();
  const stop = new AbortController();
  const running = informer.run(stop.signal);
  try {
    await waitUntil(() => updates >= events, 60 * 60_000, 'the recorded informer to see every event', 20);
    await recorder?.flushed();
    const seconds = (performance.now() - started) / 1000;
    delay.disable();
    const maxStallCpuMs = cpuStalls.stop();
    const mainCpuMs = cpuStart === undefined ? undefined : threadCpuMs()! - cpuStart;
    const controlReport = await control.report();
    stop.abort();
    await running;
    await recorder?.close();
    const stats = recorder?.stats();
    return {
      events,
      written: stats?.changesWritten ?? 0,
      writeSeconds: (stats?.writeMs ?? 0) / 1000,
      writeCpuSeconds: stats?.writeCpuMs === undefined ? undefined : stats.writeCpuMs / 1000,
      seconds,
      maxStallMs: delay.max / 1e6,
      maxStallCpuMs,
      wallStalls: cpuStalls.wallStalls(),
      longestCpuSpan: cpuStalls.longestSpan(),
      cpuStalls: cpuStalls.cpuStalls(),
      mainCpuMs,
      collections: cpuStalls.collectionTotals(),
      threads: cpuStalls.threadTotals(),
      control: controlReport,
      bytes: stats?.bytes ?? 0,
      dropped: stats?.dropped ?? 0,
    };
  } finally {
    delay.disable();
    cpuStalls.stop();
    stop.abort();
    await running.catch(() => {});
    await recorder?.close();
    shares?.close();
  }
}

export async function runHistory(options: BenchOptions, target: SyncTarget): Promise<BenchResult> {
  const log = (message: string) => {
    if (!options.json) process.stderr.write(`${message}\n`);
  };
  const base = JSON.parse(
    (await getBody(`${target.url}/api/v1/pods?limit=${basePodCount}`)).toString('utf8'),
  ) as KubeList;
  const events = options.historyEvents;
  const directory = mkdtempSync(join(tmpdir(), 'kubetide-bench-history-'));
  // Beside every run: a loop with no work, the machine's share of its stalls.
  const control = await IdleLoopControl.start();
  try {
    const file = join(directory, 'recording.sqlite');
    const run = await record(file, base.items, events, log, options.historyFrames, control);
    const recorderMain = { ...mainThreadWork };
    const samples: number[] = [];
    const range = openAndClose(file);
    for (let index = 0; index < (stallsOnly ? 0 : rebuilds) && range; index++) {
      const time = range.start + Math.random() * (range.end - range.start);
      const reader = openRecording(file);
      const start = performance.now();
      stateAt(reader, { gvr: gvrKey(podsResource), time });
      samples.push(performance.now() - start);
      reader.close();
    }
    // Export the whole recording in its worker, watching this thread's event loop meanwhile.
    const exportDelay = monitorEventLoopDelay({ resolution: 1 });
    exportDelay.enable();
    const exportStart = performance.now();
    const exported = stallsOnly
      ? { changes: 0 }
      : await exportInWorker(file, join(directory, 'export.kubetide'), {
          from: range?.start ?? 0,
          to: range?.end ?? Date.now(),
        });
    const exportMs = performance.now() - exportStart;
    exportDelay.disable();
    log(`  history: exported ${exported.changes} changes in ${(exportMs / 1000).toFixed(1)} s`);
    const paced = join(directory, 'paced.sqlite');
    // At most pacedSeconds, and no more changes than the main run's (a small run stays small).
    const pacedEvents = Math.min(pacedRate * pacedSeconds, events);
    log(`  history: ${pacedEvents} changes at ${pacedRate} changes/s, for the capture-stamp delay`);
    const pacedRun = await record(
      paced,
      base.items,
      pacedEvents,
      log,
      options.historyFrames,
      control,
      pacedRate,
    );
    log(`  history: the same paced stream without a recorder, for the baseline stall`);
    const pacedBaseline = await record(undefined, base.items, pacedEvents, log, false, control, pacedRate);
    log(`  history: the flood of ${events} changes without a recorder, for the baseline stall`);
    const floodBaseline = stallsOnly
      ? undefined
      : await record(undefined, base.items, events, log, false, control);
    const stampDelays = stampDelaysOf(paced);
    const workerWallRate = run.written / run.writeSeconds;
    const recordRate = run.written / (run.writeCpuSeconds ?? run.writeSeconds);
    const wallRate = run.written / run.seconds;
    const bytesPerChange = run.bytes / run.written;
    const rebuildMs = median(samples);
    const stampP99 = percentile(stampDelays, 0.99);
    return {
      bench: 'history',
      fields: {
        events_recorded: run.written,
        row_frames: options.historyFrames,
        record_events_per_s: Math.round(recordRate),
        record_worker_wall_events_per_s: Math.round(workerWallRate),
        record_wall_events_per_s: Math.round(wallRate),
        main_max_stall_ms: round(run.maxStallMs),
        main_max_stall_cpu_ms: run.maxStallCpuMs === undefined ? null : round(run.maxStallCpuMs),
        main_max_stall_run_queue_ms: round(run.wallStalls.longest[0]?.runQueueMs ?? 0),
        main_long_stalls: run.wallStalls.longStalls,
        main_long_stalls_in_cpu: run.wallStalls.longInCpu,
        main_long_stalls_mostly_run_queue: run.wallStalls.mostlyRunQueue,
        idle_loop_max_stall_ms: round(run.control.maxStallMs),
        main_cpu_us_per_change: perChange(run),
        flood_baseline_main_cpu_us_per_change: floodBaseline ? perChange(floodBaseline) : null,
        flood_baseline_max_stall_ms: floodBaseline ? round(floodBaseline.maxStallMs) : null,
        flood_baseline_max_stall_cpu_ms:
          floodBaseline?.maxStallCpuMs === undefined ? null : round(floodBaseline.maxStallCpuMs),
        recorder_main_us_per_change: round((recorderMain.totalMs * 1000) / run.written),
        recorder_main_max_ms: round(recorderMain.maxMs),
        stamp_delay_p99_ms: round(stampP99),
        paced_main_max_stall_ms: round(pacedRun.maxStallMs),
        paced_baseline_max_stall_ms: round(pacedBaseline.maxStallMs),
        bytes_per_event: round(bytesPerChange),
        dropped: run.dropped + pacedRun.dropped,
        rebuild_ms: round(rebuildMs),
        export_ms: round(exportMs),
        export_main_max_stall_ms: round(exportDelay.max / 1e6),
      },
      goals: [
        atLeast('history: at least 30,000 changes/s recorded', recordRate, 30_000, '/s'),
        atMost(
          "history: the main thread's longest stall while recording at most 20 ms",
          run.maxStallMs,
          20,
          ' ms',
        ),
        atMost('history: capture stamp within 50 ms at p99 (2,000 changes/s)', stampP99, 50, ' ms'),
        atMost('history: at most 250 bytes per change', bytesPerChange, 250, ' B'),
        atMost('history: rebuild at most 500 ms', rebuildMs, 500, ' ms'),
        atMost('history: export of the whole recording at most 10 s', exportMs, 10_000, ' ms'),
      ],
      notes: [
        `${run.written} changes recorded (--history-events ${events} plus the initial list of ${base.items.length}) in ${run.seconds.toFixed(1)} s`,
        `record rate: changes per second of the recording worker's own time (parse, encode, compress, SQLite), ${run.writeCpuSeconds === undefined ? 'its wall time (this platform does not tell a thread its CPU time)' : "its thread's CPU time"}; record_worker_wall: per second of the worker's wall time while writing (what a loaded machine stretches); record_wall: first event to last change on disk, bounded by the informer's rate`,
        'main_max_stall_ms: monitorEventLoopDelay max over the run, the informer and its JSON included (wall time: a loaded machine inflates it)',
        "*_stall_cpu_ms: the same stall counted in this thread's CPU time (the work of the longest event-loop iteration, its GC included: what a quiet machine would show; Linux only)",
        `main_max_stall_run_queue_ms: of the longest wall stall, the time the thread was runnable but waiting for a core (schedstat); main_long_stalls: iterations over 20 ms of wall time, of which *_in_cpu held 20 ms of this thread's work and *_mostly_run_queue waited more than half of it for a core`,
        `idle_loop_max_stall_ms: a process beside the recording with an idle event loop (the control): the machine's share of a stall`,
        ...stallNotes('recording', run),
        ...(floodBaseline ? stallNotes('flood without a recorder', floodBaseline) : []),
        ...stallNotes('paced with a recorder', pacedRun),
        "flood_baseline_*: the same flood with no recorder; the difference from main_max_stall_* is the recorder's share",
        "recorder_main_*: the recorder's own calls on the main thread (capture per key, batch send), timed around each call",
        "paced_baseline_max_stall_ms: the same paced stream with no recorder; the difference from paced_main_max_stall_ms is the recorder's share",
        `stamp delay: recorded time minus the time each of ${stampDelays.length} paced events was sent`,
        `rebuild is the median of ${rebuilds} stateAt() calls at random moments, each on a fresh reader`,
        `export: ${exported.changes} changes, the whole recording, by exportInWorker; export_main_max_stall_ms is this thread's longest event-loop stall meanwhile`,
      ],
    };
  } finally {
    control.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

/** The main thread's CPU time per change of a run, in us (null where untold). */
function perChange(run: RecordedRun): number | null {
  return run.mainCpuMs === undefined ? null : round((run.mainCpuMs * 1000) / run.events);
}

/** The longest wall stalls of a run and of its control, each split into CPU, run queue and GC. */
function stallNotes(name: string, run: RecordedRun): string[] {
  const { wallStalls, control } = run;
  return [
    `${name}: main thread ${run.mainCpuMs === undefined ? '?' : (run.mainCpuMs / 1000).toFixed(1)} s of CPU; collections on it: ${run.collections}`,
    `${name}: the process's threads over the run: ${run.threads ? describeRoleTimes(run.threads, run.seconds * 1000) : 'untold'}`,
    `${name}: ${wallStalls.longStalls} stalls over 20 ms wall (${wallStalls.longInCpu} over 20 ms CPU, ${wallStalls.mostlyRunQueue} mostly waiting for a core); longest: ${wallStalls.longest.slice(0, 3).map(describeWallStall).join(' | ') || 'none'}`,
    `${name}: longest iterations in CPU time (ms CPU / wall, span for profile-summary --window): ${run.cpuStalls.map(describeCpuStall).join(' | ') || 'untold'}`,
    `${name}, the idle control beside it: ${control.wallStalls.longStalls} stalls over 20 ms wall, longest ${control.maxStallMs.toFixed(0)} ms: ${control.wallStalls.longest.slice(0, 2).map(describeWallStall).join(' | ') || 'none'}`,
  ];
}

function describeCpuStall(stall: CpuStall): string {
  const collections = stall.collections.length ? ` GC ${stall.collections.join(', ')}` : '';
  return `${stall.cpuMs.toFixed(1)}/${stall.wallMs.toFixed(0)} at ${stall.span.startUs} ${stall.span.endUs}${collections}`;
}

/** For each recorded change of a paced run: its recorded time minus the time it was sent. */
function stampDelaysOf(file: string): number[] {
  const reader = openRecording(file);
  try {
    const delays: number[] = [];
    const uids = reader.database.prepare('SELECT uid FROM objects').all() as { uid: string }[];
    for (const { uid } of uids) {
      for (const change of objectVersions(reader, { uid })) {
        const emitted = change.object?.metadata.annotations?.[emittedAnnotation];
        if (emitted !== undefined) delays.push(change.time - Number(emitted));
      }
    }
    return delays;
  } finally {
    reader.close();
  }
}

function percentile(values: number[], fraction: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
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
