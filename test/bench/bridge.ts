// Benchmark 3 (issue 7): N pods synced through the whole app path (ClusterSession -> Feed ->
// SharedIndexInformer -> row projection -> BatchStream -> a structured-clone hop as IPC does ->
// renderer/store's MirrorStore), then 2,000 pod changes per second written into the embedded cluster.
// Latency runs from a watch event arriving at the Reflector (the ListerWatcher's watcher yielding it)
// to the frame in which the mirror applied the row carrying that resourceVersion.
import { ClusterSession } from '../../main/bridge/cluster-session';
import type { ListerWatcherFactory } from '../../main/cache/informer-factory';
import type { ListerWatcher, Watcher } from '../../main/cache/lister-watcher';
import type { BufferedWatcher } from '../../main/cache/reflector-watch';
import { httpListerWatcher } from '../../main/kube/lister-watcher';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import type { KubeObject, WatchEvent } from '../../shared/kube/object';
import { objectKey } from '../../shared/protocol/row';
import type { DeltaBatch, ServerMessage } from '../../shared/protocol/server-messages';
import type { FrameScheduler } from '../../renderer/store/frame-scheduler';
import { MirrorStore } from '../../renderer/store/mirror-store';
import type { BenchOptions, BenchResult } from './harness';
import {
  atMost,
  collectGarbage,
  kubetideClient,
  median,
  percentile,
  podsResource,
  round,
  waitUntil,
} from './harness';

const churnPerSecond = 2_000;
/** Churn lasts 5 s, or less when --events asks for fewer events than 5 s of churn writes. */
const maxChurnDurationMs = 5_000;
const churnTickMs = 10;
/** requestAnimationFrame at 60 Hz, as a timer (Node has no frames). */
const frameMs = 16;
const subscriptionId = 'bench-pods';

/** Records when each watch event reached the Reflector, by "namespace/name@resourceVersion". */
function arrivalRecording(
  inner: ListerWatcher<KubeObject>,
  arrivals: Map<string, number>,
): ListerWatcher<KubeObject> {
  return {
    supportsWatchList: inner.supportsWatchList,
    list: (options, signal, transformItem) => inner.list(options, signal, transformItem),
    async watch(options, signal): Promise<Watcher<KubeObject>> {
      const watcher = await inner.watch(options, signal);
      const record = (event: WatchEvent<KubeObject>) => {
        if (event.type === 'BOOKMARK' || event.type === 'ERROR') return;
        const { metadata } = event.object;
        arrivals.set(
          `${objectKey(metadata.namespace, metadata.name ?? '')}@${metadata.resourceVersion}`,
          performance.now(),
        );
      };
      const recorded: Watcher<KubeObject> & Partial<BufferedWatcher<KubeObject>> = {
        stop: () => watcher.stop(),
        [Symbol.asyncIterator](): AsyncIterator<WatchEvent<KubeObject>> {
          const iterator = watcher[Symbol.asyncIterator]();
          return {
            async next() {
              const result = await iterator.next();
              if (!result.done) record(result.value);
              return result;
            },
            return: () => iterator.return?.() ?? Promise.resolve({ done: true, value: undefined }),
          };
        },
      };
      // Events the watcher has already received are taken as the app takes them, without a promise each.
      const buffered = watcher as Watcher<KubeObject> & Partial<BufferedWatcher<KubeObject>>;
      if (typeof buffered.takeBuffered === 'function') {
        const take = buffered.takeBuffered.bind(buffered);
        recorded.takeBuffered = () => {
          const event = take();
          if (event) record(event);
          return event;
        };
      }
      return recorded;
    },
  };
}

/** Writes `perTick` changed pods every tick, each a new object sharing the old one's untouched parts. */
function startChurn(cluster: EmbeddedCluster, perSecond: number): { stop(): number } {
  const keys = [...cluster.store.values('pods')].map((stored) =>
    objectKey(stored.object.metadata.namespace, stored.object.metadata.name ?? ''),
  );
  let written = 0;
  let cursor = 0;
  const perTick = (perSecond * churnTickMs) / 1000;
  const timer = setInterval(() => {
    for (let index = 0; index < perTick; index++) {
      const key = keys[(cursor = (cursor + 7919) % keys.length)];
      const current = cluster.store.get('pods', key);
      if (!current) continue;
      const object = current.object;
      const status = (object.status ?? {}) as { containerStatuses?: { restartCount?: number }[] };
      cluster.store.put('pods', key, {
        ...object,
        metadata: { ...object.metadata },
        status: {
          ...status,
          containerStatuses: (status.containerStatuses ?? []).map((container) => ({
            ...container,
            restartCount: (container.restartCount ?? 0) + 1,
          })),
        },
      });
      written += 1;
    }
  }, churnTickMs);
  return {
    stop() {
      clearInterval(timer);
      return written;
    },
  };
}

function timerFrames(): FrameScheduler {
  return { requestFrame: (callback) => void setTimeout(callback, frameMs) };
}

export async function runBridge(options: BenchOptions, cluster: EmbeddedCluster): Promise<BenchResult> {
  const arrivals = new Map<string, number>();
  const { client, close } = kubetideClient(cluster.kubeconfigYaml());
  const newListerWatcher: ListerWatcherFactory = (gvr, namespace, tweak) =>
    arrivalRecording(httpListerWatcher(client, gvr, namespace, tweak), arrivals);
  const session = new ClusterSession({ context: 'bench', newListerWatcher, log: () => {} });
  const latencies: number[] = [];
  /** Per measured row: arrival to its batch leaving main, and that batch's send to its apply. */
  const toBatch: number[] = [];
  const batchToApplied: number[] = [];
  const sentAt = new Map<number, number>();
  const batchSizes: number[] = [];
  const pending = new Map<number, DeltaBatch>();
  let measuring = false;
  let synced = false;
  const store = new MirrorStore({
    scheduler: timerFrames(),
    onApplied: (id, seq) => {
      const now = performance.now();
      for (const [batchSeq, batch] of pending) {
        if (batchSeq > seq) continue;
        pending.delete(batchSeq);
        if (!measuring || batch.replace) continue;
        batchSizes.push(batch.upserts.length + batch.deletes.length);
        const sent = sentAt.get(batchSeq) ?? now;
        sentAt.delete(batchSeq);
        for (const row of batch.upserts) {
          const arrived = arrivals.get(`${row.key}@${row.resourceVersion}`);
          if (arrived === undefined) continue;
          latencies.push(now - arrived);
          toBatch.push(sent - arrived);
          batchToApplied.push(now - sent);
        }
      }
      connection.acknowledge(id, seq);
    },
  });
  store.open(subscriptionId);
  const connection = session.attach({
    send(message: ServerMessage) {
      if (message.type === 'batch') sentAt.set(message.seq, performance.now());
      const copy = structuredClone(message);
      if (copy.type === 'batch') pending.set(copy.seq, copy);
      if (copy.type === 'syncState' && copy.phase === 'synced') synced = true;
      if (copy.type !== 'reply' && copy.type !== 'rejected') store.receive(copy);
    },
  });
  try {
    connection.subscribe(subscriptionId, podsResource);
    const mirror = store.mirror(subscriptionId)!;
    const pods = cluster.store.count('pods');
    await waitUntil(
      () => synced && mirror.hasSnapshot && mirror.rows.size === pods,
      15 * 60_000,
      'the bridge to sync',
    );
    collectGarbage();
    arrivals.clear();
    measuring = true;
    const churnDurationMs = Math.min(maxChurnDurationMs, (options.events / churnPerSecond) * 1000);
    const churn = startChurn(cluster, churnPerSecond);
    await new Promise((resolve) => setTimeout(resolve, churnDurationMs));
    const written = churn.stop();
    await waitUntil(
      () => latencies.length >= written * 0.99 || pending.size === 0,
      30_000,
      'the last batches',
    ).catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 500));
    measuring = false;
    const p99 = percentile(latencies, 99);
    return {
      bench: 'bridge',
      fields: {
        pods,
        events_written: written,
        events_measured: latencies.length,
        p50_ms: round(percentile(latencies, 50)),
        p99_ms: round(p99),
        max_ms: round(percentile(latencies, 100)),
        p99_arrival_to_batch_ms: round(percentile(toBatch, 99)),
        p99_batch_to_applied_ms: round(percentile(batchToApplied, 99)),
        batch_size_p50: median(batchSizes),
        batch_size_max: percentile(batchSizes, 100),
        batches: batchSizes.length,
      },
      goals: [atMost('bridge: p99 at most 100 ms', p99, 100, ' ms')],
      notes: [
        `${churnPerSecond} pod writes/s for ${churnDurationMs / 1000} s; frames every ${frameMs} ms; batches cross a structuredClone`,
        ...(options.pods < 150_000 ? [`the goal is set at 150,000 pods; this run has ${pods}`] : []),
      ],
    };
  } finally {
    connection.close();
    await session.close();
    close();
  }
}
