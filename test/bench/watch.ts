// Benchmark 2 (issue 7): one pre-generated stream of M watch events, served by the replay server,
// read in turn by Kubetide's full pipeline, client-node's informer and the floor (split lines and
// JSON.parse). Each reader's rate runs from the moment its WATCH reached the server to the moment its
// handler saw the M-th event; the event loop's longest stall is taken during Kubetide's run.
import http from 'node:http';
import { makeInformer } from '@kubernetes/client-node';
import type { V1Pod } from '@kubernetes/client-node';
import { SharedIndexInformer } from '../../main/cache/shared-informer';
import { httpListerWatcher } from '../../main/kube/lister-watcher';
import type { TransformFunc } from '../../main/cache/store';
import { embeddedKubeconfig } from '../../main/sim/kubeconfig';
import type { KubeList, KubeObject } from '../../shared/kube/object';
import type { BenchOptions, BenchResult } from './harness';
import {
  atLeast,
  atMost,
  clientNodeConfig,
  clientNodeCoreApi,
  collectGarbage,
  getBody,
  kubetideClient,
  kubetideTransform,
  podsResource,
  round,
  startLoopStallMonitor,
} from './harness';
import type { ReplayServer, ReplayStream } from './replay-server';
import { generateReplayStream, startReplayServer } from './replay-server';
import type { SyncTarget } from './sync';

/** Distinct pods the stream cycles over. */
const basePodCount = 1_000;
const readTimeoutMs = 10 * 60_000;

interface Reading {
  /** Milliseconds from the WATCH reaching the server to the M-th event handled. */
  elapsedMs: number;
  maxLoopStallMs: number;
  /** Process CPU time (user + system) spent per event over the reading, in microseconds. */
  cpuMicrosecondsPerEvent: number;
}

/**
 * Runs one reader with the event-loop monitor and CPU accounting around it. CPU time per event is
 * reported beside the wall rate because on a shared machine it is the steadier of the two.
 */
async function measured(events: number, read: () => Promise<number>): Promise<Reading> {
  collectGarbage();
  const monitor = startLoopStallMonitor();
  const cpuBefore = process.cpuUsage();
  const elapsedMs = await read();
  const cpu = process.cpuUsage(cpuBefore);
  return {
    elapsedMs,
    maxLoopStallMs: monitor.stop(),
    cpuMicrosecondsPerEvent: (cpu.user + cpu.system) / events,
  };
}

/** Resolves when `count()` reaches `target`; the reader calls `check` after each event. */
function countdown(target: number): { seen: () => void; done: Promise<number> } {
  let seen = 0;
  let finish: (at: number) => void = () => {};
  const done = new Promise<number>((resolve, reject) => {
    finish = resolve;
    setTimeout(() => reject(new Error(`watch reader saw ${seen} of ${target} events in time`)), readTimeoutMs).unref();
  });
  return {
    seen() {
      seen += 1;
      if (seen === target) finish(performance.now());
    },
    done,
  };
}

function elapsedFromStreamStart(server: ReplayServer, startsBefore: number, end: number): number {
  const start = server.streamStarts[startsBefore];
  if (start === undefined) throw new Error('the reader never opened the replayed watch');
  return end - start;
}

export async function readWithKubetide(
  server: ReplayServer,
  events: number,
  transform: TransformFunc = kubetideTransform(),
): Promise<number> {
  const { client, close } = kubetideClient(embeddedKubeconfig(server.url));
  const informer = new SharedIndexInformer<KubeObject>({
    name: 'bench watch',
    listerWatcher: httpListerWatcher(client, podsResource),
    transform,
  });
  const progress = countdown(events);
  informer.addEventHandler({ onUpdate: () => progress.seen() });
  const startsBefore = server.streamStarts.length;
  const stop = new AbortController();
  const running = informer.run(stop.signal);
  const end = await progress.done;
  stop.abort();
  await running;
  close();
  return elapsedFromStreamStart(server, startsBefore, end);
}

export async function readWithClientNode(server: ReplayServer, events: number): Promise<number> {
  const config = clientNodeConfig(server.url);
  const api = clientNodeCoreApi(config);
  const informer = makeInformer<V1Pod>(config, '/api/v1/pods', () => api.listPodForAllNamespaces());
  const progress = countdown(events);
  informer.on('update', () => progress.seen());
  informer.on('error', () => {});
  const startsBefore = server.streamStarts.length;
  await informer.start();
  const end = await progress.done;
  await informer.stop();
  return elapsedFromStreamStart(server, startsBefore, end);
}

/** The floor: the same HTTP stream, split into lines and JSON.parse'd; nothing is kept. */
export async function readWithFloor(server: ReplayServer, stream: ReplayStream, events: number): Promise<number> {
  const agent = new http.Agent({ keepAlive: true });
  const progress = countdown(events);
  const startsBefore = server.streamStarts.length;
  const list = JSON.parse((await getBody(`${server.url}/api/v1/pods`, agent)).toString('utf8')) as KubeList;
  const url = `${server.url}/api/v1/pods?watch=1&resourceVersion=${list.metadata?.resourceVersion ?? stream.listResourceVersion}`;
  const request = http.get(url, { agent }, (response) => {
    let rest = '';
    response.setEncoding('utf8');
    response.on('data', (text: string) => {
      const lines = (rest + text).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (JSON.parse(line)) progress.seen();
    });
  });
  request.on('error', () => {});
  const end = await progress.done;
  request.destroy();
  agent.destroy();
  return elapsedFromStreamStart(server, startsBefore, end);
}

export async function runWatch(options: BenchOptions, target: SyncTarget): Promise<BenchResult> {
  const base = JSON.parse(
    (await getBody(`${target.url}/api/v1/pods?limit=${basePodCount}`)).toString('utf8'),
  ) as KubeList;
  const stream = generateReplayStream(base.items, options.events);
  const server = await startReplayServer(stream);
  try {
    const rate = (reading: Reading) => options.events / (reading.elapsedMs / 1000);
    const floor = await measured(options.events, () => readWithFloor(server, stream, options.events));
    const kubetide = await measured(options.events, () => readWithKubetide(server, options.events));
    const clientNode = await measured(options.events, () => readWithClientNode(server, options.events));
    collectGarbage();
    const kubetideRate = rate(kubetide);
    const clientNodeRate = rate(clientNode);
    const floorRate = rate(floor);
    const stall = kubetide.maxLoopStallMs;
    return {
      bench: 'watch',
      fields: {
        events: options.events,
        bytes_per_event: Math.round(stream.bytes / stream.events),
        kubetide_events_per_s: Math.round(kubetideRate),
        client_node_events_per_s: Math.round(clientNodeRate),
        floor_events_per_s: Math.round(floorRate),
        max_loop_stall_ms: round(stall),
        floor_max_loop_stall_ms: round(floor.maxLoopStallMs),
        client_node_max_loop_stall_ms: round(clientNode.maxLoopStallMs),
        kubetide_cpu_us_per_event: round(kubetide.cpuMicrosecondsPerEvent),
        client_node_cpu_us_per_event: round(clientNode.cpuMicrosecondsPerEvent),
        floor_cpu_us_per_event: round(floor.cpuMicrosecondsPerEvent),
      },
      goals: [
        atLeast('watch: at least 0.7x the floor', kubetideRate / floorRate, 0.7, 'x floor'),
        atLeast('watch: at least 1.25x client-node', kubetideRate / clientNodeRate, 1.25, 'x'),
        atMost('watch: max_loop_stall_ms at most 50', stall, 50, ' ms'),
      ],
      notes: [
        `by CPU time per event Kubetide is ${round(floor.cpuMicrosecondsPerEvent / kubetide.cpuMicrosecondsPerEvent)}x the floor and ${round(clientNode.cpuMicrosecondsPerEvent / kubetide.cpuMicrosecondsPerEvent)}x client-node (the wall rates above are what the goals judge)`,
      ],
    };
  } finally {
    await server.close();
  }
}
