// Benchmark 2 (issue 7): one pre-generated stream of M watch events (MODIFIED pods of about 3.4 KB,
// managedFields included), served by the replay server in this process, read in turn by Kubetide's
// full pipeline, client-node's informer and the floor (split lines and JSON.parse). Each reader runs
// in a fresh child process, so none pays for the embedded cluster's heap or another's garbage. A
// reader's rate runs from its WATCH reaching the server to its handler seeing the M-th event.
import type { KubeList } from '../../shared/kube/object';
import type { BenchOptions, BenchResult } from './harness';
import { atLeast, atMost, getBody, round, runInChild } from './harness';
import type { ReplayServer } from './replay-server';
import { generateReplayStream, startReplayServer } from './replay-server';
import type { SyncTarget } from './sync';
import type { WatchChildReport } from './watch-child';
import type { WatchReader } from './watch-readers';

/** Distinct pods the stream cycles over. */
const basePodCount = 1_000;

interface Reading extends WatchChildReport {
  eventsPerSecond: number;
}

async function read(reader: WatchReader, server: ReplayServer, events: number): Promise<Reading> {
  const startsBefore = server.streamStarts.length;
  const report = await runInChild<WatchChildReport>(new URL('./watch-child.ts', import.meta.url), [
    reader,
    server.url,
    String(events),
  ]);
  const start = server.streamStarts[startsBefore];
  if (start === undefined) throw new Error(`the ${reader} reader never opened the replayed watch`);
  return { ...report, eventsPerSecond: events / ((report.endEpochMs - start) / 1000) };
}

export async function runWatch(options: BenchOptions, target: SyncTarget): Promise<BenchResult> {
  const base = JSON.parse(
    (await getBody(`${target.url}/api/v1/pods?limit=${basePodCount}`)).toString('utf8'),
  ) as KubeList;
  const stream = generateReplayStream(base.items, options.events);
  const server = await startReplayServer(stream);
  try {
    const floor = await read('floor', server, options.events);
    const kubetide = await read('kubetide', server, options.events);
    const clientNode = await read('client_node', server, options.events);
    const stall = kubetide.maxLoopStallMs;
    const overFloor = kubetide.eventsPerSecond / floor.eventsPerSecond;
    const overClientNode = kubetide.eventsPerSecond / clientNode.eventsPerSecond;
    return {
      bench: 'watch',
      fields: {
        events: options.events,
        bytes_per_event: Math.round(stream.bytes / stream.events),
        kubetide_events_per_s: Math.round(kubetide.eventsPerSecond),
        client_node_events_per_s: Math.round(clientNode.eventsPerSecond),
        floor_events_per_s: Math.round(floor.eventsPerSecond),
        max_loop_stall_ms: round(stall),
        floor_max_loop_stall_ms: round(floor.maxLoopStallMs),
        client_node_max_loop_stall_ms: round(clientNode.maxLoopStallMs),
        kubetide_cpu_us_per_event: round(kubetide.cpuMicrosecondsPerEvent),
        client_node_cpu_us_per_event: round(clientNode.cpuMicrosecondsPerEvent),
        floor_cpu_us_per_event: round(floor.cpuMicrosecondsPerEvent),
      },
      goals: [
        atLeast('watch: at least 0.7x the floor', overFloor, 0.7, 'x floor'),
        atLeast('watch: at least 1.25x client-node', overClientNode, 1.25, 'x'),
        atMost('watch: max_loop_stall_ms at most 50', stall, 50, ' ms'),
      ],
      notes: [
        `by CPU time per event Kubetide is ${round(floor.cpuMicrosecondsPerEvent / kubetide.cpuMicrosecondsPerEvent)}x the floor and ${round(clientNode.cpuMicrosecondsPerEvent / kubetide.cpuMicrosecondsPerEvent)}x client-node; the goals judge the wall rates`,
        "a stall on the floor or client-node as long as Kubetide's is the machine (preemption), not the pipeline",
      ],
    };
  } finally {
    await server.close();
  }
}
