// The recorder's side on the informers' thread, alone: the history bench's flood (history-stream.ts's
// MODIFIED pods over 1,000 pods, through a compacting ListerWatcher into a SharedIndexInformer, as a
// feed builds its pods informer) with no recorder, or with a Recorder whose recording process is
// (--recorder) the real worker thread, or one that answers every batch at once without writing it
// ("discard": what capture costs this thread, with no worker competing for the cores). Prints this
// thread's CPU time per change, its collections by kind, its longest iterations in CPU time, and, with
// --allocations, what this thread allocated per change and where (V8's sampling heap profiler, the
// collected objects included: the garbage that feeds the scavenges).
//
//   npx tsx test/bench/history-capture.ts --events 200000 --recorder none|discard|worker
//     [--allocations] [--top 25] [--profile DIR]
//
// Compare runs as back-to-back pairs: CPU time moves with the machine's load far less than wall time,
// bytes allocated per change not at all.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realClock } from '../../main/cache/real-clock';
import { SharedIndexInformer } from '../../main/cache/shared-informer';
import { compactingListerWatcher } from '../../main/bridge/compacting-lister-watcher';
import { createObjectCompactor } from '../../main/bridge/object-compactor';
import { Recorder } from '../../main/history/recorder';
import type { RecordingProcess, RecordingProcessFactory } from '../../main/history/recording-process';
import type { RecorderRequest, RecordingReply } from '../../main/history/recording-protocol';
import { workerRecordingProcess } from '../../main/history/worker-recording-process';
import { threadCpuMs } from '../../main/history/thread-cpu-time';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import type { KubeList, KubeObject } from '../../shared/kube/object';
import { CpuStallMonitor } from './cpu-stall-monitor';
import { getBody, podsResource, waitUntil } from './harness';
import { historyListerWatcher } from './history-stream';

type RecorderKind = 'none' | 'discard' | 'worker';

interface Options {
  events: number;
  recorder: RecorderKind;
  allocations: boolean;
  top: number;
  profile: string | undefined;
}

function parseOptions(argv: readonly string[]): Options {
  const options: Options = {
    events: 200_000,
    recorder: 'worker',
    allocations: false,
    top: 25,
    profile: undefined,
  };
  for (let index = 0; index < argv.length; index++) {
    const name = argv[index];
    if (name === '--allocations') options.allocations = true;
    else if (name === '--events') options.events = Number(argv[++index]);
    else if (name === '--top') options.top = Number(argv[++index]);
    else if (name === '--profile') options.profile = argv[++index];
    else if (name === '--recorder' && ['none', 'discard', 'worker'].includes(argv[index + 1]))
      options.recorder = argv[++index] as RecorderKind;
    else
      throw new Error(
        `unknown argument ${name} (--events N --recorder none|discard|worker --allocations --top N --profile DIR)`,
      );
  }
  return options;
}

/**
 * A recording process that writes nothing: each batch is answered as written on a later task, as a
 * worker's reply would come, so the queue's bound and the Recorder's bookkeeping run as ever.
 */
const discardingProcess: RecordingProcessFactory = (): RecordingProcess => {
  const listeners: ((reply: RecordingReply) => void)[] = [];
  let changesWritten = 0;
  const reply = (message: RecordingReply) =>
    setImmediate(() => {
      for (const listener of listeners) listener(message);
    });
  return {
    post(request: RecorderRequest) {
      if (request.type === 'open') reply({ type: 'opened', lastWritten: undefined });
      else if (request.type === 'close') reply({ type: 'closed', bytes: 0 });
      else if (request.type === 'batch') {
        changesWritten += request.entryEnds.length;
        reply({
          type: 'written',
          sequence: request.sequence,
          changesWritten,
          bytes: 0,
          writeMs: 0,
          writeCpuMs: 0,
        });
      }
    },
    onReply: (listener) => void listeners.push(listener),
    onExit: () => {},
    terminate: () => Promise.resolve(),
  };
};

interface SampleNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SampleNode[];
}

/** Bytes allocated by function (self), largest first, from a sampling heap profile. */
function allocationsBy(head: SampleNode): { total: number; by: [string, number][] } {
  const by = new Map<string, number>();
  let total = 0;
  const walk = (node: SampleNode) => {
    total += node.selfSize;
    if (node.selfSize > 0) {
      const { functionName, url, lineNumber } = node.callFrame;
      const file = url.slice(url.lastIndexOf('/') + 1);
      const name = `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
      by.set(name, (by.get(name) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child);
  };
  walk(head);
  return { total, by: [...by].sort((left, right) => right[1] - left[1]) };
}

async function basePods(): Promise<KubeObject[]> {
  const cluster = await startEmbeddedCluster({ pods: 1_000, seed: 7, simulate: false });
  try {
    const list = JSON.parse(
      (await getBody(`${cluster.url}/api/v1/pods?limit=1000`)).toString('utf8'),
    ) as KubeList;
    return list.items;
  } finally {
    await cluster.close();
  }
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const pods = await basePods();
  const directory = mkdtempSync(join(tmpdir(), 'kubetide-history-capture-'));
  const recorder =
    options.recorder === 'none'
      ? undefined
      : await Recorder.open({
          file: join(directory, 'recording.sqlite'),
          context: 'bench',
          clock: realClock,
          reportError: (error) => console.error(error),
          recordingProcess: options.recorder === 'worker' ? workerRecordingProcess : discardingProcess,
        });
  const compactor = createObjectCompactor();
  const informer = new SharedIndexInformer<KubeObject>({
    name: 'bench history capture',
    listerWatcher: compactingListerWatcher(
      historyListerWatcher({ basePods: pods, events: options.events }),
      compactor,
      realClock,
    ),
    transform: compactor.transform,
  });
  let updates = 0;
  informer.addEventHandler({ onUpdate: () => void updates++ });
  recorder?.attach(informer, podsResource);
  const session = new Session();
  session.connect();
  if (options.allocations) {
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  }
  if (options.profile) {
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  const stalls = new CpuStallMonitor();
  stalls.start();
  const cpuStart = threadCpuMs()!;
  const started = performance.now();
  const stop = new AbortController();
  const running = informer.run(stop.signal);
  await waitUntil(() => updates >= options.events, 60 * 60_000, 'every event', 20);
  await recorder?.flushed();
  const cpuMs = threadCpuMs()! - cpuStart;
  const wallMs = performance.now() - started;
  const maxCpuMs = stalls.stop();
  const cpuStalls = stalls.cpuStalls();
  const collections = stalls.collectionTotals();
  const allocations = options.allocations
    ? allocationsBy(
        ((await session.post('HeapProfiler.stopSampling')) as { profile: { head: SampleNode } }).profile.head,
      )
    : undefined;
  if (options.profile) {
    const { profile } = (await session.post('Profiler.stop')) as { profile: unknown };
    mkdirSync(options.profile, { recursive: true });
    writeFileSync(join(options.profile, `capture-${options.recorder}.cpuprofile`), JSON.stringify(profile));
  }
  session.disconnect();
  stop.abort();
  await running;
  const stats = recorder?.stats();
  await recorder?.close();
  rmSync(directory, { recursive: true, force: true });
  const perChange = (value: number) => Math.round((value / options.events) * 10) / 10;
  const report = {
    recorder: options.recorder,
    events: options.events,
    written: stats?.changesWritten ?? null,
    dropped: stats?.dropped ?? null,
    wall_s: Math.round(wallMs / 100) / 10,
    main_cpu_ms: Math.round(cpuMs),
    main_cpu_us_per_change: perChange(cpuMs * 1000),
    main_max_stall_cpu_ms: maxCpuMs === undefined ? null : Math.round(maxCpuMs * 10) / 10,
    longest_cpu_iterations: cpuStalls.map(
      (stall) =>
        `${stall.cpuMs.toFixed(1)}/${stall.wallMs.toFixed(0)} ms at ${stall.span.startUs} ${stall.span.endUs} ${stall.collections.join(', ')}`,
    ),
    collections,
    ...(allocations
      ? {
          allocated_bytes_per_change: Math.round(allocations.total / options.events),
          allocated_by_function: Object.fromEntries(
            allocations.by
              .slice(0, options.top)
              .map(([name, bytes]) => [name, Math.round(bytes / options.events)]),
          ),
        }
      : {}),
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
