// By hand (issue 15, session 19): the bridge's CPU for a first LIST of `--pods` pods, in this process,
// without a page, a cluster or a load of other processes' making: each pod (compacted as the informer's
// transform leaves it, so a ReplicaSet's pods share their parts) is shown by a ListPreview, whose rows
// go to a BatchStream (coalescing, sent rows, every batch's bytes as the WebSocket gets them:
// batchBytes), then taken back as the informer's delivery takes them (ListPreview.take, the feed's
// rows looked up and set). Prints the CPU of each part per round; the pods are made anew each round.
//
//   npx tsx test/bench/bridge-listing.ts [--pods 150000] [--rounds 3]
import { parseArgs } from 'node:util';
import { batchBytes } from '../../main/bridge/batch-bytes';
import { BatchStream } from '../../main/bridge/batch-stream';
import { ListPreview } from '../../main/bridge/list-preview';
import { createObjectCompactor } from '../../main/bridge/object-compactor';
import { RowProjector } from '../../main/bridge/row-projection';
import { ShardedMap } from '../../main/cache/sharded-map';
import { realClock } from '../../main/cache/real-clock';
import { podPrinter } from '../../shared/kinds/columns/pods';
import type { KubeObject } from '../../shared/kube/object';
import { objectKey } from '../../shared/protocol/row';
import type { Row } from '../../shared/protocol/row';
import type { DeltaBatch } from '../../shared/protocol/server-messages';

const { values } = parseArgs({
  options: {
    pods: { type: 'string', default: '150000' },
    rounds: { type: 'string', default: '3' },
  },
});
const count = Number(values.pods);

/** Pods of Deployments of 40 replicas, as an API server's JSON decodes them, compacted. */
function listedPods(): KubeObject[] {
  const compactor = createObjectCompactor();
  const pods: KubeObject[] = [];
  for (let index = 0; index < count; index++) {
    const replicaSet = Math.floor(index / 40);
    const namespace = `team-${index % 40}`;
    const app = `api-${replicaSet % 300}`;
    const hash = `7f${(replicaSet * 7919).toString(36).padStart(8, '0')}`;
    const name = `${app}-${hash}-${(index * 104729).toString(36).slice(-5)}`;
    const text = JSON.stringify({
      metadata: {
        name,
        namespace,
        uid: `${index.toString(16).padStart(8, '0')}-aaaa-bbbb-cccc-${(index * 31).toString(16).padStart(12, '0')}`,
        resourceVersion: String(1_000 + index),
        creationTimestamp: '2026-12-01T10:00:00Z',
        labels: { app, 'pod-template-hash': hash },
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'ReplicaSet',
            name: `${app}-${hash}`,
            uid: `rs-${hash}`,
            controller: true,
          },
        ],
      },
      spec: {
        nodeName: `node-${index % 500}`,
        containers: [
          { name: 'app', image: 'nginx:1.25', resources: { requests: { cpu: '100m', memory: '128Mi' } } },
        ],
      },
      status: {
        phase: 'Running',
        podIP: '10.0.0.1',
        conditions: [{ type: 'Ready', status: 'True' }],
        containerStatuses: [
          {
            name: 'app',
            ready: true,
            restartCount: 0,
            state: { running: { startedAt: '2026-12-01T10:00:02Z' } },
          },
        ],
      },
    });
    pods.push(compactor.transform(JSON.parse(text) as KubeObject) as KubeObject);
  }
  return pods;
}

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

for (let round = 0; round < Number(values.rounds); round++) {
  const pods = listedPods();
  const projector = new RowProjector(podPrinter);
  let bytesMs = 0;
  let bytes = 0;
  const stream = new BatchStream({
    subscriptionId: 's1',
    clock: realClock,
    // A page that keeps up: every batch goes as soon as it is full.
    maxUnacknowledgedBatches: Number.MAX_SAFE_INTEGER,
    send: (batch) => {
      const started = cpuMs();
      bytes += batchBytes(batch as DeltaBatch).length;
      bytesMs += cpuMs() - started;
    },
  });
  stream.snapshot([]);
  const now = realClock.now();
  const preview = new ListPreview(
    (object) => projector.project(object, now),
    (change) => stream.record(change),
  );
  const started = cpuMs();
  for (const pod of pods) preview.show(objectKey(pod.metadata.namespace, pod.metadata.name ?? ''), pod);
  stream.flush();
  const shown = cpuMs();
  const rows = new ShardedMap<Row>();
  for (const pod of pods) {
    const key = objectKey(pod.metadata.namespace, pod.metadata.name ?? '');
    const previewed = preview.take(key, pod);
    if (rows.get(key) === undefined && previewed?.current) rows.set(key, previewed.row);
  }
  const delivered = cpuMs();
  stream.close();
  console.log(
    `round ${round}: ${count} pods shown and sent ${(shown - started).toFixed(0)} ms of CPU ` +
      `(batchBytes ${bytesMs.toFixed(0)} ms, ${(bytes / 2 ** 20).toFixed(1)} MiB), delivered ${(delivered - shown).toFixed(0)} ms`,
  );
}
