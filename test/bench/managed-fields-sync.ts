// By hand (session 41): the sync bench against pods as a real API server lists them, managedFields
// included. The embedded cluster keeps no managedFields; kube-apiserver writes them on every object
// (server-side field tracking, on since 1.18), a third to a half of a pod's bytes, and clients differ
// most there: client-node parses and keeps them, Kubetide cuts them from the text before parsing
// (managed-fields-cut.ts). This captures the embedded cluster's pods LIST, gives each item the two
// entries a ReplicaSet's pod has on a real cluster (kube-controller-manager's metadata and spec, the
// kubelet's status, as FieldsV1 sets of the pod's own fields), closes the cluster, serves that body from
// memory (a watch is held open and silent) and times the sync bench's contenders on it, in turn:
//   npx tsx test/bench/managed-fields-sync.ts [--pods 150000] [--rounds 2] [--contenders floor,kubetide,client_node]
import { parseArgs } from 'node:util';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import type { KubeList, KubeObject } from '../../shared/kube/object';
import { getBody, runInChild } from './harness';
import { startMemoryListServer } from './memory-list-server';
import type { SyncReport } from './sync-child';

const { values } = parseArgs({
  options: {
    pods: { type: 'string', default: '150000' },
    rounds: { type: 'string', default: '2' },
    contenders: { type: 'string', default: 'floor,kubetide,client_node' },
  },
});

type FieldSet = Record<string, unknown>;

/** The key of a list element in a FieldsV1 set: `k:{…}` by its merge key, else `v:` and its value. */
function elementKey(element: unknown): string {
  if (element !== null && typeof element === 'object' && !Array.isArray(element)) {
    const record = element as Record<string, unknown>;
    for (const keys of [['uid'], ['containerPort', 'protocol'], ['name'], ['type'], ['ip']]) {
      if (keys.every((key) => record[key] !== undefined))
        return `k:${JSON.stringify(Object.fromEntries(keys.map((key) => [key, record[key]])))}`;
    }
  }
  return `v:${JSON.stringify(element)}`;
}

/** `value`'s fields as the API server's field manager sets them down (FieldsV1). */
function fieldSet(value: unknown): FieldSet {
  const set: FieldSet = {};
  if (Array.isArray(value)) {
    for (const element of value) {
      const inner = element !== null && typeof element === 'object' ? fieldSet(element) : {};
      set[elementKey(element)] = Object.keys(inner).length > 0 ? { '.': {}, ...inner } : {};
    }
    return set;
  }
  if (value === null || typeof value !== 'object') return set;
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const inner = child !== null && typeof child === 'object' ? fieldSet(child) : {};
    set[`f:${key}`] = Object.keys(inner).length > 0 ? { '.': {}, ...inner } : {};
  }
  return set;
}

/** `pod` with the managedFields a real cluster's pod of a ReplicaSet carries, last in its metadata. */
function withManagedFields(pod: KubeObject): KubeObject {
  const { metadata } = pod;
  const time = metadata.creationTimestamp ?? '2026-01-01T00:00:00Z';
  const managed = {
    'f:metadata': {
      ...(metadata.generateName ? { 'f:generateName': {} } : {}),
      ...(metadata.labels ? { 'f:labels': { '.': {}, ...fieldSet(metadata.labels) } } : {}),
      ...(metadata.ownerReferences
        ? { 'f:ownerReferences': { '.': {}, ...fieldSet(metadata.ownerReferences) } }
        : {}),
    },
    'f:spec': fieldSet(pod.spec),
  };
  const entry = (manager: string, fieldsV1: FieldSet, subresource?: string) => ({
    manager,
    operation: 'Update',
    apiVersion: 'v1',
    time,
    fieldsType: 'FieldsV1',
    fieldsV1,
    ...(subresource ? { subresource } : {}),
  });
  const managedFields = [entry('kube-controller-manager', managed)];
  if (pod.status) managedFields.push(entry('kubelet', { 'f:status': fieldSet(pod.status) }, 'status'));
  return { ...pod, metadata: { ...metadata, managedFields } as KubeObject['metadata'] };
}

const cluster = await startEmbeddedCluster({ pods: Number(values.pods), seed: 7, simulate: false });
const plain = await getBody(`${cluster.url}/api/v1/pods`);
const kubeconfig = cluster.kubeconfigYaml();
const clusterUrl = cluster.url;
await cluster.close();
const list = JSON.parse(plain.toString('utf8')) as KubeList;
// Item by item: the whole body passes V8's longest string (~512 MiB) at 150,000 pods.
const { items, ...head } = list;
const body = Buffer.concat([
  Buffer.from(`${JSON.stringify(head).slice(0, -1)},"items":[`),
  ...items.flatMap((item, index) => [
    Buffer.from(`${index > 0 ? ',' : ''}${JSON.stringify(withManagedFields(item))}`),
  ]),
  Buffer.from(']}'),
]);
console.log(
  `${items.length} pods: ${(plain.length / 2 ** 20).toFixed(0)} MiB as listed, ` +
    `${(body.length / 2 ** 20).toFixed(0)} MiB with managedFields`,
);

const server = await startMemoryListServer(() => ({ body }));
const config = Buffer.from(kubeconfig.replace(clusterUrl, server.url)).toString('base64');

for (let round = 0; round < Number(values.rounds); round++) {
  for (const contender of values.contenders.split(',')) {
    const report = await runInChild<SyncReport>(new URL('./sync-child.ts', import.meta.url), [
      contender,
      server.url,
      config,
    ]);
    server.dropWatches();
    console.log(
      `${contender.padEnd(11)} synced ${report.count} in ${report.syncMs.toFixed(0)} ms; CPU ${report.cpuMs.toFixed(0)} ms, ` +
        `main ${report.mainThreadCpuMs.toFixed(0)} ms; ${Math.round(report.bytesPerObject)} B a pod retained`,
    );
  }
}
server.close();
