// npm run soak -- --minutes M [--pods 150000] [--churn R] [--warmup W] [--sample-seconds S]
// Sustained churn from the embedded cluster (in a child process) through the whole main-side path (informers for five
// kinds, a ClusterSession and BridgeHost, a renderer BridgeClient mirroring pods over the in-memory
// transport). Each sample is taken after a forced GC: heap used, RSS, active handles and requests.
// Verdict: after warm-up, heap and handles must level off (least-squares slope under the thresholds
// below); the exit code is 1 when they do not, or when too few samples remain to tell.
import { realClock } from '../../main/cache/real-clock';
import { SharedInformerFactory } from '../../main/cache/informer-factory';
import { BridgeHost } from '../../main/bridge/bridge-host';
import { ClusterSession } from '../../main/bridge/cluster-session';
import { createInMemoryTransportPair } from '../../main/bridge/in-memory-transport';
import { Kubeconfig } from '../../main/kube/kubeconfig';
import { httpListerWatcherFactory } from '../../main/kube/lister-watcher';
import { RestClient } from '../../main/kube/rest-client';
import { BridgeClient } from '../../renderer/transport/bridge-client';
import type { BridgeLink } from '../../renderer/transport/bridge-link';
import { startClusterProcess } from './cluster-process';
import { judgeTrend } from './trend';
import type { Point } from './trend';

/** Heap growth per minute after warm-up that still counts as level: 1% of 150k pods' cache a minute. */
const heapThresholdBytesPerMinute = 4 * 1024 * 1024;
/** Handles (sockets, timers) per minute after warm-up that still count as level. */
const handleThresholdPerMinute = 1;

interface SoakArguments {
  minutes: number;
  pods: number;
  churn: number;
  warmupMinutes: number;
  sampleSeconds: number;
}

function parseArguments(argv: readonly string[]): SoakArguments {
  const parsed: SoakArguments = {
    minutes: 10,
    pods: 150_000,
    churn: 100,
    warmupMinutes: 2,
    sampleSeconds: 60,
  };
  const names: Record<string, keyof SoakArguments> = {
    '--minutes': 'minutes',
    '--pods': 'pods',
    '--churn': 'churn',
    '--warmup': 'warmupMinutes',
    '--sample-seconds': 'sampleSeconds',
  };
  for (let index = 0; index < argv.length; index += 2) {
    const key = names[argv[index]];
    const value = Number(argv[index + 1]);
    if (!key || !Number.isFinite(value) || value < 0)
      throw new Error(
        `bad argument ${argv[index]} ${argv[index + 1] ?? ''}; usage: ${Object.keys(names).join(' N ')} N`,
      );
    parsed[key] = value;
  }
  return parsed;
}

const mebibytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const options = parseArguments(process.argv.slice(2));
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error('run with node --expose-gc (npm run soak does)');
  console.log(
    `soak: ${options.minutes} min, ${options.pods.toLocaleString('en-US')} pods, churn ${options.churn}/s, ` +
      `warm-up ${options.warmupMinutes} min, a sample every ${options.sampleSeconds} s`,
  );
  const cluster = await startClusterProcess(options.pods, 1);
  const client = new RestClient(Kubeconfig.fromString(cluster.kubeconfigYaml).connect());
  const newListerWatcher = httpListerWatcherFactory(client);
  const factory = new SharedInformerFactory(newListerWatcher, { reportError: () => undefined });
  const kinds = ['pods', 'nodes', 'events', 'deployments', 'replicasets'].map((resource) => ({
    group: resource === 'deployments' || resource === 'replicasets' ? 'apps' : '',
    version: 'v1',
    resource,
  }));
  const informers = kinds.map((gvr) => factory.forResource(gvr).informer());
  const stop = new AbortController();
  factory.start(stop.signal);
  const session = new ClusterSession({
    context: 'soak',
    newListerWatcher,
    clock: realClock,
    log: () => undefined,
  });
  const host = new BridgeHost({
    session,
    listContexts: () => [{ name: 'soak', cluster: 'soak' }],
    openSession: async () => session,
    log: () => undefined,
  });
  const renderer = new BridgeClient({
    scheduler: { requestFrame: (callback) => void setTimeout(callback, 16) },
    open: async () => {
      const pair = createInMemoryTransportPair('soak');
      host.accept(pair.server);
      return pair.client as unknown as BridgeLink;
    },
  });
  renderer.start();
  while (renderer.state.getState().connection.phase !== 'open') await sleep(50);
  const podSubscription = await renderer.subscribe(kinds[0]);
  while (!informers.every((informer) => informer.hasSynced())) await sleep(500);
  await cluster.setChurn(options.churn);
  console.log('synced; churn started');

  const heap: Point[] = [];
  const handles: Point[] = [];
  const started = Date.now();
  for (let sample = 1; sample * options.sampleSeconds <= options.minutes * 60; sample++) {
    await sleep(started + sample * options.sampleSeconds * 1000 - Date.now());
    collect();
    const minute = (Date.now() - started) / 60_000;
    const memory = process.memoryUsage();
    const active = process.getActiveResourcesInfo().length;
    const server = await cluster.stats();
    heap.push({ x: minute, y: memory.heapUsed });
    handles.push({ x: minute, y: active });
    console.log(
      `sample ${sample} at ${minute.toFixed(1)} min: heap ${mebibytes(memory.heapUsed)} MiB, ` +
        `rss ${mebibytes(memory.rss)} MiB, handles ${active}, pods cached ${informers[0].getIndexer().list().length}, ` +
        `mirrored ${renderer.store.mirror(podSubscription)?.rows.size ?? 0}, server pods ${server.objects.pods}, rv ${server.resourceVersion}`,
    );
  }

  renderer.close();
  await host.close();
  stop.abort();
  await factory.shutdown();
  await cluster.close();

  const heapVerdict = judgeTrend(heap, options.warmupMinutes, heapThresholdBytesPerMinute);
  const handleVerdict = judgeTrend(handles, options.warmupMinutes, handleThresholdPerMinute);
  console.log(
    `heap slope after warm-up ${mebibytes(heapVerdict.slope)} MiB/min (threshold ${mebibytes(heapThresholdBytesPerMinute)}), ` +
      `handles slope ${handleVerdict.slope.toFixed(2)}/min (threshold ${handleThresholdPerMinute}), ` +
      `${heapVerdict.samplesJudged} samples judged`,
  );
  const conclusive = heapVerdict.conclusive && handleVerdict.conclusive;
  const level = heapVerdict.levelsOff && handleVerdict.levelsOff;
  console.log(
    !conclusive
      ? 'verdict: INCONCLUSIVE (too few samples after warm-up; run longer)'
      : level
        ? 'verdict: PASS (heap and handles level off)'
        : 'verdict: FAIL (growth after warm-up)',
  );
  process.exitCode = conclusive && level ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 2;
});
