// What one pods metrics poll costs the thread that polls (Electron's main) at a given size: the
// embedded cluster in its own process serves metrics.k8s.io over HTTP, and this process runs the
// product's poll as a recording session does: MetricsPoller with the app's work (`--work worker`: the
// replies' bytes passed to the metrics worker, which decodes, sums and numbers them) or the old
// path on this thread (`--work inline`), its message cut in parts and each part encoded as a socket
// would, the samples numbered against a cache of the pods. Per poll: this thread's CPU, the poll's
// wall time and the event loop's longest turn while it ran.
// Run by hand: npx tsx test/bench/metrics-poll-main.ts [--pods 150000] [--polls 6] [--work worker|inline]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { realClock } from '../../main/cache/real-clock';
import { MetricsPoller } from '../../main/bridge/metrics-poller';
import { MetricSampleCapture } from '../../main/history/metric-sample-capture';
import { threadCpuMs } from '../../main/history/thread-cpu-time';
import { Kubeconfig } from '../../main/kube/kubeconfig';
import { listMetrics, metricsListRequest } from '../../main/kube/metrics-list';
import { InlineMetricsPollWork, type MetricsPollWork } from '../../main/bridge/metrics-poll-work';
import { MetricsWorkerWork } from '../../main/bridge/metrics-worker-work';
import type { MetricSamplesEntry } from '../../main/history/recording-protocol';
import type { CachedObject } from '../../main/history/series-owner';
import { RestClient } from '../../main/kube/rest-client';
import type { KubeObject } from '../../shared/kube/object';
import type { MetricsMessage } from '../../shared/protocol/metrics-messages';
import { startClusterProcess } from './ui-cluster';

const { values } = parseArgs({
  options: {
    pods: { type: 'string', default: '150000' },
    polls: { type: 'string', default: '6' },
    work: { type: 'string', default: 'worker' },
  },
});
const pods = Number(values.pods);
const polls = Number(values.polls);
const directory = mkdtempSync(join(tmpdir(), 'kubetide-metrics-poll-'));
const kubeconfigPath = join(directory, 'kubeconfig');
const cluster = await startClusterProcess({
  pods,
  kubeconfigPath,
  log: (message) => console.error(message),
});
try {
  const connection = Kubeconfig.fromString(readFileSync(kubeconfigPath, 'utf8')).connect();
  const client = new RestClient(connection);
  // The pods' cache as the informers hold it, for the capture's uid and workload lookups.
  const cached = new Map<string, KubeObject>();
  await client.list(
    { path: '/api/v1/pods', description: { verb: 'list', resource: 'pods' } },
    (item) => {
      const pod = item as KubeObject;
      cached.set(`${pod.metadata.namespace}/${pod.metadata.name}`, {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: pod.metadata.name,
          namespace: pod.metadata.namespace,
          uid: pod.metadata.uid,
          ...(pod.metadata.ownerReferences ? { ownerReferences: pod.metadata.ownerReferences } : {}),
          ...(pod.metadata.labels ? { labels: pod.metadata.labels } : {}),
        },
      } as KubeObject);
      return undefined;
    },
    true,
  );
  console.error(`cached ${cached.size} pods`);
  let recorded = 0;
  const record = (entry: MetricSamplesEntry) => void (recorded += entry.series.length);
  const cachedObject: CachedObject = (resource, namespace, name) =>
    resource === 'pods' ? cached.get(`${namespace}/${name}`) : undefined;
  const work: MetricsPollWork =
    values.work === 'inline'
      ? new InlineMetricsPollWork({
          clock: realClock,
          fetch: (resource, namespace, signal, keys) =>
            listMetrics(client, resource, namespace, signal, keys),
          capture: new MetricSampleCapture({ record, cachedObject }),
        })
      : new MetricsWorkerWork({
          fetch: (resource, namespace, signal, reader) =>
            client.listInto(metricsListRequest(resource, namespace, signal), reader),
          record,
          cachedObject,
          reportError: (context, error) => console.error(context, error),
        });
  let encodedBytes = 0;
  let resolvePoll: (() => void) | undefined;
  const poller = new MetricsPoller({
    clock: realClock,
    work,
    served: () => true,
    namespaces: () => [],
    // Long enough that a poll never starts by itself: each is started and measured alone.
    resolutionMs: 3_600_000,
    send: (message: MetricsMessage) => {
      encodedBytes += Buffer.byteLength(JSON.stringify(message));
      if (!message.part || message.part.index === message.part.count - 1) resolvePoll?.();
    },
  });
  const delay = monitorEventLoopDelay({ resolution: 10 });
  for (let poll = 0; poll < polls; poll++) {
    const sent = new Promise<void>((resolve) => (resolvePoll = resolve));
    encodedBytes = recorded = 0;
    delay.reset();
    delay.enable();
    const cpuBefore = threadCpuMs() ?? 0;
    const processBefore = process.cpuUsage();
    const wallBefore = performance.now();
    poller.retain('pods');
    await sent;
    // The samples come a little after the message (numbered after it is summed).
    while (recorded === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const wall = performance.now() - wallBefore;
    const cpu = (threadCpuMs() ?? 0) - cpuBefore;
    const processUsage = process.cpuUsage(processBefore);
    const processCpu = (processUsage.user + processUsage.system) / 1000;
    delay.disable();
    poller.release('pods');
    console.log(
      `poll ${poll + 1}: thread CPU ${cpu.toFixed(0)} ms (process ${processCpu.toFixed(0)}), wall ${wall.toFixed(0)} ms, ` +
        `longest turn ${(delay.max / 1e6).toFixed(1)} ms, sent ${(encodedBytes / 1e6).toFixed(1)} MB, ` +
        `recorded ${recorded} samples`,
    );
    // The next poll is due at once: release and retain again (the poller's resolution is not the subject).
    (poller as unknown as { polls: Map<string, { startedAt?: number }> }).polls.get('pods')!.startedAt =
      undefined;
  }
  poller.close();
  connection.close();
} finally {
  await cluster.close();
  rmSync(directory, { recursive: true, force: true });
}
