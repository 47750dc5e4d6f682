// By hand: a whole cache recorded by a real Recorder and its recording worker, paced to the worker
// (WholeCachePace) or not. Lists the cluster's pods once (see cachedPods), then records them whole
// `--rounds` times, each into a fresh file, as a recorder attached to a running informer does (the
// cache recorded as a relist, reason "attached"), alternating the backlog bound: `--backlogs 0,12`
// is MiB of forced bytes unwritten before a slice waits, 0 for no bound (the record as it was before
// the pace). Per record it prints, per object: main's CPU from the attach to the record written, the
// other threads' (V8's helpers: the collector's marking) and the recording worker's; the time to
// finished() (the last slice queued, the stream's gap-close) and to written; the peaks of forced
// bytes queued or unwritten, of main's external memory and of RSS; main's GC pauses; the batches sent.
//
//   npx tsx --expose-gc test/bench/record-pace.ts [--pods 150000] [--rounds 4] [--backlogs 0,12]
//     [--profile DIR]
//
// --profile writes a V8 CPU profile of main per round (record-ROUND-BOUND.cpuprofile; read it with
// profile-summary.ts): wall time, so on a loaded machine a frame is charged while it waits for a core.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { realClock } from '../../main/cache/real-clock';
import type { SharedIndexInformer } from '../../main/cache/shared-informer';
import type { DeltaObserver } from '../../main/cache/delta-observer';
import { Recorder } from '../../main/history/recorder';
import type { StreamTap } from '../../main/history/stream-tap';
import { threadCpuMs } from '../../main/history/thread-cpu-time';
import type { KubeObject } from '../../shared/kube/object';
import { cachedPods } from './cached-pods';
import { threadCpu, threadCpuSpent } from './thread-cpu';

const { values } = parseArgs({
  options: {
    pods: { type: 'string', default: '150000' },
    rounds: { type: 'string', default: '4' },
    backlogs: { type: 'string', default: '0,12' },
    profile: { type: 'string' },
  },
});
const mebibyte = 1024 * 1024;

/** The queue's and channel's counts this bench reads (private fields, the same on the base). */
interface Insides {
  queue: { queuedForcedBytes: number; inFlightForcedBytes: number };
  channel: { sequence: number };
  attachments: Map<unknown, { tap: StreamTap }>;
}

/** A running informer as Recorder.attach reads it: started, watching, holding `objects`. */
function runningInformer(objects: readonly KubeObject[]): SharedIndexInformer<KubeObject> {
  const informer = {
    clock: realClock,
    hasStarted: () => true,
    getIndexer: () => ({ list: () => objects }),
    addDeltaObserver: (observer: DeltaObserver<KubeObject>) => {
      observer.observePhase({ phase: 'watching', since: realClock.now() });
      return { remove: () => {} };
    },
  };
  return informer as unknown as SharedIndexInformer<KubeObject>;
}

async function record(objects: readonly KubeObject[], backlogMiB: number, profile?: string) {
  const directory = mkdtempSync(join(tmpdir(), 'kubetide-record-pace-'));
  const before = threadCpu();
  const recorder = await Recorder.open({
    file: join(directory, 'paced.kubetide'),
    context: 'bench',
    clock: realClock,
    // The base has no such option, and records unpaced whatever it is given.
    ...({ wholeCacheBacklogBytes: backlogMiB > 0 ? backlogMiB * mebibyte : Infinity } as object),
  });
  // The worker's thread: the one the open started (this Node names every thread "node").
  const known = new Set(before.map((thread) => thread.id));
  const workerIds = threadCpu()
    .filter((thread) => !known.has(thread.id))
    .map((thread) => thread.id);
  const insides = recorder as unknown as Insides;
  const peaks = { forcedQueued: 0, forcedUnwritten: 0, external: 0, rss: 0 };
  const sample = () => {
    const { queuedForcedBytes, inFlightForcedBytes } = insides.queue;
    const memory = process.memoryUsage();
    peaks.forcedQueued = Math.max(peaks.forcedQueued, queuedForcedBytes);
    peaks.forcedUnwritten = Math.max(peaks.forcedUnwritten, queuedForcedBytes + inFlightForcedBytes);
    peaks.external = Math.max(peaks.external, memory.external);
    peaks.rss = Math.max(peaks.rss, memory.rss);
  };
  const sampler = setInterval(sample, 50);
  let gcMs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMs += entry.duration;
  });
  observer.observe({ entryTypes: ['gc'] });
  const load = loadavg()[0];
  const threadsStart = threadCpu();
  const mainStart = threadCpuMs()!;
  const session = new Session();
  if (profile) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
  }
  const firstBatch = insides.channel.sequence;
  const start = performance.now();
  recorder.attach(runningInformer(objects), { group: '', version: 'v1', resource: 'pods' }, '');
  const [{ tap }] = insides.attachments.values();
  await new Promise<void>((done) => tap.whenCacheRecorded(done));
  const finishedMs = performance.now() - start;
  const mainAtFinished = threadCpuMs()! - mainStart;
  await recorder.flushed();
  const writtenMs = performance.now() - start;
  const mainMs = threadCpuMs()! - mainStart;
  const spent = threadCpuSpent(threadsStart, threadCpu());
  if (profile) {
    const { profile: taken } = await session.post('Profiler.stop');
    session.disconnect();
    mkdirSync(join(profile, '..'), { recursive: true });
    writeFileSync(profile, JSON.stringify(taken));
  }
  sample();
  clearInterval(sampler);
  observer.disconnect();
  const stats = recorder.stats();
  const batches = insides.channel.sequence - firstBatch;
  await recorder.close();
  rmSync(directory, { recursive: true, force: true });
  // Every other thread: V8's helpers (the collector's marking, compiling) and libuv's pool.
  const helpersMs = spent
    .filter((thread) => thread.id !== process.pid && !workerIds.includes(thread.id))
    .reduce((sum, thread) => sum + thread.ms, 0);
  const workerMs = spent
    .filter((thread) => workerIds.includes(thread.id))
    .reduce((sum, thread) => sum + thread.ms, 0);
  const perObject = (ms: number) => Math.round((ms * 1000 * 10) / objects.length) / 10;
  const megabytes = (bytes: number) => Math.round(bytes / 1e6);
  return {
    backlog_mib: backlogMiB,
    main_us_per_object: perObject(mainMs),
    main_to_finished_us_per_object: perObject(mainAtFinished),
    helpers_us_per_object: perObject(helpersMs),
    worker_us_per_object: perObject(workerMs),
    finished_s: Math.round(finishedMs / 100) / 10,
    written_s: Math.round(writtenMs / 100) / 10,
    peak_forced_queued_mb: megabytes(peaks.forcedQueued),
    peak_forced_unwritten_mb: megabytes(peaks.forcedUnwritten),
    peak_external_mb: megabytes(peaks.external),
    peak_rss_mb: megabytes(peaks.rss),
    gc_ms: Math.round(gcMs),
    changes_written: stats.changesWritten,
    batches,
    load: Math.round(load * 10) / 10,
    load_after: Math.round(loadavg()[0] * 10) / 10,
  };
}

async function main(): Promise<void> {
  const objects = await cachedPods(Number(values.pods));
  process.stderr.write(`${objects.length} objects cached\n`);
  const backlogs = values.backlogs.split(',').map(Number);
  // A small record first, so that no round pays for compiling the path.
  await record(objects.slice(0, 5_000), backlogs[0]);
  const rounds = [];
  for (let round = 0; round < Number(values.rounds); round++) {
    // Alternated, every other cycle reversed: a, b, b, a, a, b, ... (a, b, c, c, b, a, ...).
    const cycle = Math.floor(round / backlogs.length);
    const index = round % backlogs.length;
    const backlog = backlogs[cycle % 2 === 0 ? index : backlogs.length - 1 - index];
    (globalThis as { gc?: () => void }).gc?.();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const profile = values.profile && join(values.profile, `record-${round + 1}-${backlog}.cpuprofile`);
    const result = await record(objects, backlog, profile);
    process.stderr.write(`${JSON.stringify(result)}\n`);
    rounds.push(result);
  }
  process.stdout.write(`${JSON.stringify({ objects: objects.length, rounds }, null, 2)}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
