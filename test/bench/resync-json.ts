// What a whole-cache record costs the informers' thread, alone: the pods as the informer caches them
// (a cluster process's pods listed through Kubetide's SharedIndexInformer, compacted as a feed's),
// each written as a forced Replaced change the way CacheResync queues it, a candidate at a time, in
// alternated rounds. Prints CPU per object of this thread and of the whole process (V8's scavenger
// runs partly on helper threads), wall time per object, and the collections' time (PerformanceObserver
// 'gc' entries), per candidate and round. --profile writes each candidate's first round as a V8 CPU
// profile: its times are wall time (the sampler charges the running frame while the thread waits for
// a core), so on a loaded machine they read several times the CPU time.
//
//   npx tsx --expose-gc test/bench/resync-json.ts [--pods 150000] [--rounds 3]
//     [--only resync,queue,writeJson,stringify] [--in-flight 0|N|all] [--profile DIR]
//
// Candidates: `resync` is the path as it is, CacheResync's slices (its bookkeeping per key) queuing
// each object as StreamTap does; `queue` is its CaptureQueue.appendObjectChange alone, forced. Both
// take a batch at wholeCacheBatchBytes and give it back once `--in-flight` later ones are sent (0, the
// default: at once, so its buffer is reused; `all`: only when the record is done, as when the worker
// writes far behind the record, at 150,000 pods). `writeJson` is json-bytes' writeJson alone into a
// reused buffer; `stringify` is JSON.stringify and one Buffer.write into the same buffer. Compare
// runs as back-to-back pairs, with the load beside them.
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { CaptureQueue } from '../../main/history/capture-queue';
import type { TakenBatch } from '../../main/history/capture-queue';
import { CacheResync, keyOf } from '../../main/history/cache-resync';
import type { ByteSink } from '../../main/history/json-bytes';
import { writeJson } from '../../main/history/json-bytes';
import { encodeDeltaType } from '../../main/history/recorded-change';
import { defaultResyncSliceBytes, wholeCacheBatchBytes } from '../../main/history/recorder-options';
import { threadCpuMs } from '../../main/history/thread-cpu-time';
import type { KubeObject } from '../../shared/kube/object';
import { cachedPods } from './cached-pods';

const candidates = ['resync', 'queue', 'writeJson', 'stringify'] as const;
type Candidate = (typeof candidates)[number];

interface Options {
  pods: number;
  rounds: number;
  only: Candidate[];
  /** Batches sent and not yet given back: a worker writing behind the record. */
  inFlight: number;
  profile: string | undefined;
}

function parseOptions(argv: readonly string[]): Options {
  const options: Options = {
    pods: 150_000,
    rounds: 3,
    only: [...candidates],
    inFlight: 0,
    profile: undefined,
  };
  for (let index = 0; index < argv.length; index++) {
    const name = argv[index];
    if (name === '--pods') options.pods = Number(argv[++index]);
    else if (name === '--rounds') options.rounds = Number(argv[++index]);
    else if (name === '--profile') options.profile = argv[++index];
    else if (name === '--in-flight') {
      const inFlight = argv[++index];
      options.inFlight = inFlight === 'all' ? Infinity : Number(inFlight);
    } else if (name === '--only') {
      const only = argv[++index].split(',');
      for (const candidate of only)
        if (!candidates.includes(candidate as Candidate)) throw new Error(`unknown candidate ${candidate}`);
      options.only = only as Candidate[];
    } else
      throw new Error(
        `unknown argument ${name} (--pods N --rounds N --only a,b --in-flight N|all --profile DIR)`,
      );
  }
  return options;
}

/** A reused buffer, emptied whenever a batch's worth is written (the worker gives batches back). */
class ReusedSink implements ByteSink {
  bytes = Buffer.allocUnsafeSlow(wholeCacheBatchBytes * 2);
  used = 0;
  ensure(free: number): void {
    if (this.used + free <= this.bytes.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(this.bytes.length * 2, this.used + free));
    this.bytes.copy(grown, 0, 0, this.used);
    this.bytes = grown;
  }
  /** A batch's worth written: handed over, and its buffer back at once. */
  batchDone(): void {
    if (this.used >= wholeCacheBatchBytes) this.used = 0;
  }
}

/** Writes every object by `candidate`; returns the bytes written. */
function run(candidate: Candidate, objects: readonly KubeObject[], batchesInFlight: number): number {
  let bytes = 0;
  if (candidate === 'queue' || candidate === 'resync') {
    const queue = new CaptureQueue(64 * 1024 * 1024);
    const replaced = encodeDeltaType('Replaced', false);
    let sequence = 0;
    // The worker writes behind: batches in flight are given back once `batchesInFlight` later ones are sent.
    const inFlight: [number, Uint8Array][] = [];
    const send = (batch: TakenBatch | undefined) => {
      if (batch) inFlight.push([sequence, batch.entries]);
      while (inFlight.length > (batch ? batchesInFlight : 0)) queue.written(...inFlight.shift()!);
    };
    const append = (key: string, object: KubeObject): number => {
      const written = queue.appendObjectChange(1_700_000_000_000, 1, replaced, key, object, true);
      bytes += written;
      if (queue.pendingBytes >= wholeCacheBatchBytes) send(queue.take(++sequence));
      return written;
    };
    if (candidate === 'queue') for (const object of objects) append(keyOf(object), object);
    else {
      // Slices run back to back here: the turns between them are the event loop's, not the record's.
      const turns: (() => void)[] = [];
      new CacheResync(objects, defaultResyncSliceBytes, {
        replaced: append,
        nextTurn: (work) => void turns.push(work),
        finished: () => {},
      }).start();
      for (let turn = turns.shift(); turn !== undefined; turn = turns.shift()) turn();
    }
    send(queue.take(++sequence));
    send(undefined);
    return bytes;
  }
  const sink = new ReusedSink();
  for (const object of objects) {
    const start = sink.used;
    if (candidate === 'writeJson') writeJson(sink, object);
    else {
      const text = JSON.stringify(object);
      sink.ensure(text.length * 3);
      sink.used += sink.bytes.write(text, sink.used, 'utf8');
    }
    bytes += sink.used - start;
    sink.batchDone();
  }
  return bytes;
}

interface Round {
  candidate: Candidate;
  round: number;
  thread_us_per_object: number;
  process_us_per_object: number;
  wall_us_per_object: number;
  gc_ms: number;
  bytes_per_object: number;
  load: number;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const objects = await cachedPods(options.pods);
  process.stderr.write(`${objects.length} objects cached\n`);
  let gcMs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMs += entry.duration;
  });
  observer.observe({ entryTypes: ['gc'] });
  // One warm-up pass each, so no candidate pays for the others' compilation.
  for (const candidate of options.only) run(candidate, objects.slice(0, 5_000), options.inFlight);
  const session = new Session();
  if (options.profile) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
  }
  const rounds: Round[] = [];
  for (let round = 1; round <= options.rounds; round++)
    for (const candidate of options.only) {
      // Collections the last candidate left to do are not this one's.
      (globalThis as { gc?: () => void }).gc?.();
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (options.profile && round === 1) await session.post('Profiler.start');
      gcMs = 0;
      const load = loadavg()[0];
      const processStart = process.cpuUsage();
      const threadStart = threadCpuMs()!;
      const wallStart = performance.now();
      const bytes = run(candidate, objects, options.inFlight);
      const wallMs = performance.now() - wallStart;
      const threadMs = threadCpuMs()! - threadStart;
      const processUsage = process.cpuUsage(processStart);
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (options.profile && round === 1) {
        const { profile } = await session.post('Profiler.stop');
        mkdirSync(options.profile, { recursive: true });
        writeFileSync(join(options.profile, `resync-${candidate}.cpuprofile`), JSON.stringify(profile));
      }
      const perObject = (us: number) => Math.round((us / objects.length) * 100) / 100;
      const result: Round = {
        candidate,
        round,
        thread_us_per_object: perObject(threadMs * 1000),
        process_us_per_object: perObject(processUsage.user + processUsage.system),
        wall_us_per_object: perObject(wallMs * 1000),
        gc_ms: Math.round(gcMs),
        bytes_per_object: Math.round(bytes / objects.length),
        load: Math.round(load * 10) / 10,
      };
      rounds.push(result);
      process.stderr.write(`${JSON.stringify(result)}\n`);
    }
  observer.disconnect();
  if (options.profile) session.disconnect();
  process.stdout.write(`${JSON.stringify({ objects: objects.length, rounds }, null, 2)}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
