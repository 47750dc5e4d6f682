// What recording metric samples costs at Kubernetes' published limit (150,000 pods, 5,000 nodes):
// bytes on disk per sample and per poll, the polling thread's time to number a poll
// (MetricSampleCapture) and the recording process's time to write it. Values walk randomly per
// container, as the embedded cluster's do, which compresses worse than a quiet real cluster.
// Then a moment's every pod asked of the query worker, as a travel asks it: main's CPU to the reply's bytes.
// Run by hand: npx tsx test/bench/metric-samples-size.ts [pods] [polls]
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { MetricSampleCapture } from '../../main/history/metric-sample-capture';
import { metricsAt, usageOver } from '../../main/history/metric-sample-reader';
import { encodedReplyBytes } from '../../main/bridge/outgoing-message';
import { HistoryQueries } from '../../main/history/history-queries';
import { openRecording } from '../../main/history/recording-reader';
import { threadCpuMs } from '../../main/history/thread-cpu-time';
import { RecordingServer } from '../../main/history/recording-server';
import type { MetricsList } from '../../main/kube/metrics-list';
import { metricsUsageOf } from '../../main/kube/metrics-usage';
import type { MetricSamplesEntry } from '../../main/history/recording-protocol';

const pods = Number(process.argv[2] ?? 150_000);
const polls = Number(process.argv[3] ?? 8);
const nodes = Math.max(1, Math.round(pods / 30));
const directory = mkdtempSync(join(tmpdir(), 'kubetide-metric-size-'));
const file = join(directory, 'size.kubetide');
const server = new RecordingServer(() => {});
const start = Date.parse('2026-01-01T00:00:00Z');
server.handle({ type: 'open', settings: { file, context: 'bench' }, now: start });

let seed = 42;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
// Per container: [millicores, KiB], walking.
const usage = Array.from({ length: pods }, (_, index) =>
  Array.from({ length: index % 4 === 0 ? 2 : 1 }, () => [1 + random() * 400, 20_000 + random() * 400_000]),
);
const nodeUsage = Array.from({ length: nodes }, () => [2000 + random() * 6000, 8e6 + random() * 24e6]);
const walk = (value: number) => Math.max(1, value * (0.9 + random() * 0.2));

let captureMs = 0;
const pending: MetricSamplesEntry[] = [];
let writeMs = 0;
const capture = new MetricSampleCapture({
  // Written after the poll is numbered: the recording process is another thread in the product.
  record: (samples) => void pending.push(samples),
  // A Deployment's pods, named as its ReplicaSet names them; no cache (uid unknown).
  cachedObject: () => undefined,
});
let samples = 0;
// A histogram per poll: one enabled again counts its first turn from its last sample, before it was
// disabled, so the last poll's writing and this one's list read as one turn of seconds.
const delay = { percentile99: 0, max: 0 };
for (let poll = 0; poll < polls; poll++) {
  const timestamp = new Date(start + poll * 15_000).toISOString();
  const podList: MetricsList = {
    items: usage.map((containers, index) => ({
      metadata: {
        namespace: `team-${index % 500}`,
        name: `web-${Math.floor(index / 10)}-7d9f8c6b5-${index % 10}`,
      },
      timestamp,
      window: '15s',
      containers: containers.map((container, position) => {
        container[0] = walk(container[0]!);
        container[1] = walk(container[1]!);
        return {
          name: position === 0 ? 'app' : 'proxy',
          usage: { cpu: `${Math.round(container[0] * 1e6)}n`, memory: `${Math.round(container[1])}Ki` },
        };
      }),
    })),
  };
  const nodeList: MetricsList = {
    items: nodeUsage.map((node, index) => {
      node[0] = walk(node[0]!);
      node[1] = walk(node[1]!);
      return {
        metadata: { name: `node-${index}` },
        timestamp,
        window: '15s',
        usage: { cpu: `${Math.round(node[0] * 1e6)}n`, memory: `${Math.round(node[1])}Ki` },
      };
    }),
  };
  samples += (podList.items ?? []).reduce((total, item) => total + (item.containers?.length ?? 0), 0) + nodes;
  const started = performance.now();
  const pollDelay = monitorEventLoopDelay({ resolution: 1 });
  pollDelay.enable();
  await capture.capture('pods', [metricsUsageOf('pods', podList)], start + poll * 15_000);
  await capture.capture('nodes', [metricsUsageOf('nodes', nodeList)], start + poll * 15_000);
  captureMs += performance.now() - started;
  pollDelay.disable();
  delay.percentile99 = Math.max(delay.percentile99, pollDelay.percentile(99));
  delay.max = Math.max(delay.max, pollDelay.max);
  const writing = performance.now();
  for (const samples of pending.splice(0)) server.handle({ type: 'metric-samples', samples, now: start });
  writeMs += performance.now() - writing;
}
server.handle({ type: 'close', now: start + polls * 15_000 });
const bytes = statSync(file).size;
const database = new Database(file, { readonly: true });
const { payloads } = database
  .prepare('SELECT sum(length(payload)) AS payloads FROM metric_samples')
  .get() as {
  payloads: number;
};
const { series } = database.prepare('SELECT count(*) AS series FROM metric_series').get() as {
  series: number;
};
database.close();
// Reading back, as the query worker does: a moment's every pod (travel), one pod over the recording.
const reader = openRecording(file);
let readStarted = performance.now();
const moment = metricsAt(reader.database, 'pods', start + (polls - 1) * 15_000 + 5_000);
const momentMs = performance.now() - readStarted;
// Another moment of the same reader, as the next travel asks it (the series are read once, see metricsAt).
readStarted = performance.now();
metricsAt(reader.database, 'pods', start + (polls - 2) * 15_000 + 5_000);
const nextMomentMs = performance.now() - readStarted;
readStarted = performance.now();
const podUsage = usageOver(
  reader.database,
  { kind: 'Pod', namespace: 'team-0', name: 'web-0-7d9f8c6b5-0' },
  240,
);
const usageMs = performance.now() - readStarted;
reader.close();
// The same moment as a travel asks it of the query worker: main's own CPU from the question to the
// reply's bytes for the socket (the worker's JSON bytes moved to main, the envelope written around
// them: see EncodedValue), the median of five.
const queries = new HistoryQueries();
// The query worker does not keep a process alive (see HistoryQueries); this one has nothing else.
const keepAlive = setInterval(() => {}, 1_000);
await queries.timeline(file, { buckets: 1, now: Date.now() });
const replyCpuMs: number[] = [];
let replyBytes = 0;
for (let round = 0; round < 5; round++) {
  const cpuBefore = threadCpuMs() ?? 0;
  const { value, parts } = await queries.metricsAt(file, 'pods', start + (polls - 1) * 15_000 + 5_000);
  replyBytes =
    encodedReplyBytes({ type: 'reply', requestId: round, ok: true, value }).length +
    parts.reduce(
      (sum, part, index) =>
        sum + encodedReplyBytes({ type: 'replyPart', requestId: round, index, value: part }).length,
      0,
    );
  replyCpuMs.push((threadCpuMs() ?? 0) - cpuBefore);
}
queries.close();
clearInterval(keepAlive);
replyCpuMs.sort((left, right) => left - right);
const perPoll = payloads / polls;
console.log(
  `${pods} pods, ${nodes} nodes, ${polls} polls, ${samples} samples:\n` +
    `  file ${(bytes / 2 ** 20).toFixed(1)} MiB, of which ${series} series (once per pod container or node) ` +
    `and payloads of ${(payloads / samples).toFixed(2)} bytes per sample, ${(perPoll / 2 ** 20).toFixed(2)} MiB per poll ` +
    `(${((perPoll * 5760) / 2 ** 30).toFixed(1)} GiB per day at 15 s)\n` +
    `  per poll: numbering ${(captureMs / polls).toFixed(0)} ms on the polling thread, ` +
    `writing ${(writeMs / polls).toFixed(0)} ms in the recording process\n` +
    `  turns of the polling thread: 99th percentile (the worst poll's) ${(delay.percentile99 / 1e6).toFixed(0)} ms, ` +
    `longest ${(delay.max / 1e6).toFixed(0)} ms (garbage collections included)\n` +
    `  reading: a moment's ${moment.keys.length} pods in ${momentMs.toFixed(0)} ms (the next ${nextMomentMs.toFixed(0)} ms), ` +
    `one pod's ${podUsage.points.length} polls in ${usageMs.toFixed(0)} ms\n` +
    `  a moment asked of the query worker: main's CPU to the reply's ${(replyBytes / 2 ** 20).toFixed(1)} MiB ` +
    `for the socket ${replyCpuMs[2].toFixed(1)} ms (median of five)`,
);
rmSync(directory, { recursive: true, force: true });
