// Playback at production settings on the real clock, run by hand (not part of npm test or npm run
// bench): `npx tsx test/bench/replay-playback.ts [--pods 1000] [--rate 100] [--seconds 120]`.
// Writes a recording of --pods realistic pods (managedFields included) changing --rate times a second
// for --seconds, then plays it through a ReplaySubscription at 10x and 100x with the default frame
// (100 ms) and budget (50 ms), acknowledging batches as a renderer would, and prints the view clock's
// rate against the wall clock, the longest wall time between cursor moves, how many cursors said the
// playback was catching up, and the longest event-loop stall (perf_hooks) while playing. Goals (issue 12): N x within 10%, no stall over 250 ms.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { realClock } from '../../main/cache/real-clock';
import { HistorySource } from '../../main/bridge/history-source';
import { ReplaySubscription } from '../../main/bridge/history-replay';
import { HistoryQueries } from '../../main/history/history-queries';
import { RowProjector } from '../../main/bridge/row-projection';
import { printerFor } from '../../shared/kinds/columns';
import { RecordingWriter } from '../../main/history/recording-writer';
import { openForWriting } from '../../main/history/schema';
import type { KubeObject } from '../../shared/kube/object';
import type { HistoryCursorMessage } from '../../shared/protocol';
import { realisticPod, tempDirectory } from '../unit/history/fixtures';

const { values } = parseArgs({
  options: {
    pods: { type: 'string', default: '1000' },
    rate: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '120' },
  },
});
const podCount = Number(values.pods);
const rate = Number(values.rate);
const seconds = Number(values.seconds);

function record(file: string, start: number): number {
  const database = openForWriting(file, 'bench', start);
  const writer = new RecordingWriter(database);
  const stream = writer.stream({ gvr: 'pods.v1', scope: '' });
  const pods = Array.from({ length: podCount }, (_, index) =>
    realisticPod(`web-${index}-x7k2p`, `ns-${index % 20}`),
  );
  const keyOf = (pod: KubeObject) => `${pod.metadata.namespace}/${pod.metadata.name}`;
  let resourceVersion = 1;
  writer.transaction(() => {
    for (const pod of pods) {
      pod.metadata.resourceVersion = String(resourceVersion++);
      writer.writeChange({
        time: start,
        stream,
        type: 'Added',
        finalStateUnknown: false,
        object: pod,
        key: keyOf(pod),
      });
    }
  });
  const changes = rate * seconds;
  let end = start;
  for (let first = 0; first < changes; first += 5_000) {
    writer.transaction(() => {
      for (let index = first; index < Math.min(changes, first + 5_000); index++) {
        const previous = pods[index % podCount]!;
        const pod: KubeObject = {
          ...previous,
          metadata: {
            ...previous.metadata,
            resourceVersion: String(resourceVersion++),
            labels: { ...previous.metadata.labels, step: String(index) },
          },
        };
        pods[index % podCount] = pod;
        end = start + Math.round(((index + 1) * 1000) / rate);
        writer.writeChange({
          time: end,
          stream,
          type: 'Updated',
          finalStateUnknown: false,
          object: pod,
          key: keyOf(pod),
        });
      }
    });
  }
  writer.touch(end);
  database.close();
  return end;
}

const pods = { group: '', version: 'v1', resource: 'pods' };

async function play(source: HistorySource, start: number, end: number, speed: number): Promise<void> {
  const cursors: { wall: number; cursor: HistoryCursorMessage }[] = [];
  let lastSeq = 0;
  let done: () => void = () => {};
  const finished = new Promise<void>((resolve) => (done = resolve));
  const replay: ReplaySubscription = new ReplaySubscription({
    subscriptionId: 'bench',
    gvr: pods,
    namespace: '',
    // The app's projector for pods: the worker projects their rows (a CRD's would come as JSON).
    projector: new RowProjector(printerFor(pods)),
    clock: realClock,
    send: (message) => {
      if (message.type === 'batch') {
        lastSeq = message.seq;
        // A renderer acknowledges on its next frame.
        setTimeout(() => replay.acknowledge(lastSeq), 16);
      }
      if (message.type !== 'historyCursor') return;
      cursors.push({ wall: performance.now(), cursor: message });
      if (!message.playing && cursors.length > 1 && message.time >= end) done();
    },
  });
  const queries = new HistoryQueries();
  await replay.showState(queries, source.file, start);
  await new Promise((resolve) => setTimeout(resolve, 500));
  cursors.length = 0;
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const began = performance.now();
  await replay.play(queries, source.file, speed);
  const starting = performance.now() - began;
  await finished;
  delay.disable();
  replay.close();
  queries.close();
  const wall = performance.now() - began;
  const moving = cursors.filter((entry) => entry.cursor.playing);
  let longest = 0;
  for (let index = 1; index < moving.length; index++)
    longest = Math.max(longest, moving[index]!.wall - moving[index - 1]!.wall);
  console.log(
    `${speed}x: ${((end - start) / wall).toFixed(2)}x over ${Math.round(wall)} ms (goal ${speed}x ±10%), ` +
      `longest between cursors ${Math.round(longest)} ms, longest event-loop stall ${Math.round(delay.max / 1e6)} ms, ` +
      `${moving.length} cursors (${moving.filter((entry) => entry.cursor.catchingUp).length} catching up), ` +
      `play() itself ${Math.round(starting)} ms`,
  );
}

const directory = tempDirectory();
// The history query worker is unref'd (it never keeps an app alive): while this script waits on it,
// nothing else would, and Node would exit mid-benchmark.
const keepAlive = setInterval(() => {}, 60_000);
try {
  const start = Date.now() - 3_600_000;
  const file = directory.file('playback.kubetide');
  const writing = performance.now();
  const end = record(file, start);
  console.log(
    `recorded ${podCount} pods and ${rate * seconds} changes over ${seconds} s in ${Math.round(performance.now() - writing)} ms`,
  );
  const source = new HistorySource({ file, context: 'bench' });
  for (const speed of [10, 100]) await play(source, start, end, speed);
} finally {
  clearInterval(keepAlive);
  directory.remove();
}
