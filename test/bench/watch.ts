// Benchmark 2 (issue 7): one pre-generated stream of M watch events (MODIFIED pods of about 3.4 KB,
// managedFields included), served by the replay server in this process, read in turn by Kubetide's
// full pipeline, client-node's informer and the floor (split lines and JSON.parse), three rounds
// each. Each reader runs in a fresh child process, so none pays for the embedded cluster's heap or
// another's garbage. A reader's rate runs from its WATCH reaching the server to its handler seeing
// the M-th event.
import type { KubeList } from '../../shared/kube/object';
import type { BenchOptions, BenchResult } from './harness';
import { atLeast, atMost, getBody, median, round, runInChild } from './harness';
import type { ReplayServer } from './replay-server';
import { generateReplayStream, startReplayServer } from './replay-server';
import type { SyncTarget } from './sync';
import type { WatchChildReport } from './watch-child';
import type { WatchReader } from './watch-readers';
import { watchReaders } from './watch-readers';

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

/** Each reader reads the stream this many times, in a rotating order; the medians are reported. */
const rounds = 3;

/** The reading of the median rate, with the median stall and CPU of all its rounds. */
function medianReading(readings: Reading[]): Reading {
  const byRate = [...readings].sort((left, right) => left.eventsPerSecond - right.eventsPerSecond);
  return {
    ...byRate[Math.floor(byRate.length / 2)],
    maxLoopStallMs: median(readings.map((reading) => reading.maxLoopStallMs)),
    cpuMicrosecondsPerEvent: median(readings.map((reading) => reading.cpuMicrosecondsPerEvent)),
  };
}

export async function runWatch(options: BenchOptions, target: SyncTarget): Promise<BenchResult> {
  const base = JSON.parse(
    (await getBody(`${target.url}/api/v1/pods?limit=${basePodCount}`)).toString('utf8'),
  ) as KubeList;
  const stream = generateReplayStream(base.items, options.events);
  const server = await startReplayServer(stream);
  try {
    const readings: Record<WatchReader, Reading[]> = { floor: [], kubetide: [], client_node: [] };
    for (let round = 0; round < rounds; round++) {
      for (let turn = 0; turn < watchReaders.length; turn++) {
        const reader = watchReaders[(round + turn) % watchReaders.length];
        readings[reader].push(await read(reader, server, options.events));
      }
    }
    const floor = medianReading(readings.floor);
    const kubetide = medianReading(readings.kubetide);
    const clientNode = medianReading(readings.client_node);
    const stall = kubetide.maxLoopStallMs;
    const overFloor = kubetide.eventsPerSecond / floor.eventsPerSecond;
    const overClientNode = kubetide.eventsPerSecond / clientNode.eventsPerSecond;
    return {
      bench: 'watch',
      fields: {
        events: options.events,
        rounds,
        bytes_per_event: Math.round(stream.bytes / stream.events),
        kubetide_events_per_s: Math.round(kubetide.eventsPerSecond),
        client_node_events_per_s: Math.round(clientNode.eventsPerSecond),
        floor_events_per_s: Math.round(floor.eventsPerSecond),
        max_loop_stall_ms: round(stall),
        max_loop_stall_ms_worst_round: round(Math.max(...readings.kubetide.map((r) => r.maxLoopStallMs))),
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
        `each reader read the stream ${rounds} times in a rotating order: rates are the median round's, stalls and CPU the medians of the rounds`,
        `by CPU time per event Kubetide is ${round(floor.cpuMicrosecondsPerEvent / kubetide.cpuMicrosecondsPerEvent)}x the floor and ${round(clientNode.cpuMicrosecondsPerEvent / kubetide.cpuMicrosecondsPerEvent)}x client-node; the goals judge the wall rates`,
        "a stall on the floor or client-node as long as Kubetide's is the machine (preemption), not the pipeline",
      ],
    };
  } finally {
    await server.close();
  }
}
