// Seeding: a whole cluster built directly into the store (no controller runs), so 150,000 pods over
// ~1,000 nodes and ~100 namespaces take seconds. Shapes match what the controllers would have made:
// Deployment -> ReplicaSet -> pods with controller ownerReferences and pod-template-hash labels,
// Services and Endpoints per app, and a mix of pod states (mostly Running, some crash-looping,
// some still creating, a few unschedulable).
import type { KubeObject } from '../../shared/kube/object';
import { formatTime } from './clock';
import type { ObjectStore } from './object-store';
import { setPodStage } from './pod-lifecycle';
import type { SeededRandom } from './random';
import { seedCronJob, seedDaemonSet, seedStatefulSet } from './seed-extras';
import { objectKey } from './resource-type';
import {
  buildDeployment,
  buildEndpoints,
  buildNode,
  buildReplicaSet,
  buildService,
  controllerReference,
  podTemplate,
  seededMeta,
} from './workload-objects';

export interface SeedOptions {
  pods: number;
  /** Default: one node per 150 pods, at least 3. */
  nodes?: number;
  /** Default: one namespace per 1,500 pods, at least 3. */
  namespaces?: number;
}

export interface SeedProgress {
  pods: number;
  totalPods: number;
}

const teamNames = [
  'payments',
  'checkout',
  'search',
  'catalog',
  'auth',
  'billing',
  'analytics',
  'media',
  'ads',
  'support',
];
const appNames = [
  'api',
  'web',
  'worker',
  'cache',
  'queue',
  'gateway',
  'indexer',
  'scheduler',
  'db',
  'frontend',
];

function readyDeploymentStatus(replicas: number): object {
  return {
    observedGeneration: 1,
    replicas,
    updatedReplicas: replicas,
    readyReplicas: replicas,
    availableReplicas: replicas,
    conditions: [
      {
        type: 'Available',
        status: 'True',
        reason: 'MinimumReplicasAvailable',
        message: 'Deployment has minimum availability.',
      },
      {
        type: 'Progressing',
        status: 'True',
        reason: 'NewReplicaSetAvailable',
        message: 'ReplicaSet has successfully progressed.',
      },
    ],
  };
}

export function seedCluster(
  store: ObjectStore,
  random: SeededRandom,
  now: number,
  options: SeedOptions,
  onProgress?: (progress: SeedProgress) => void,
): void {
  const totalPods = Math.max(0, Math.floor(options.pods));
  const nodeCount = options.nodes ?? Math.max(3, Math.ceil(totalPods / 150));
  const namespaceCount = options.namespaces ?? Math.max(3, Math.ceil(totalPods / 1500));
  const put = (resource: string, object: KubeObject) =>
    store.load(resource, objectKey(object.metadata.namespace, object.metadata.name ?? ''), object);
  const nodeNames: string[] = [];
  for (let index = 0; index < nodeCount; index++) {
    const name = `node-${String(index).padStart(4, '0')}`;
    nodeNames.push(name);
    put('nodes', buildNode(name, index, seededMeta(random, now, {}), now));
  }
  const namespaces: string[] = [];
  for (let index = 0; index < namespaceCount; index++) {
    const name = `${teamNames[index % teamNames.length]}-${String(Math.floor(index / teamNames.length)).padStart(2, '0')}`;
    namespaces.push(name);
    put('namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: seededMeta(random, now, { name, labels: { 'kubernetes.io/metadata.name': name } }),
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    });
    put('configmaps', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: seededMeta(random, now, { name: 'kube-root-ca.crt', namespace: name }),
      data: { 'ca.crt': '-----BEGIN CERTIFICATE-----\n...\n-----END CERTIFICATE-----\n' },
    });
    put('secrets', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: seededMeta(random, now, { name: `${name}-credentials`, namespace: name }),
      type: 'Opaque',
      data: { password: Buffer.from(random.suffix(16)).toString('base64') },
    });
  }
  let created = 0;
  // Other workload kinds take a small share of the budget when there is room; deployments fill the rest.
  if (totalPods >= nodeCount * 10) created += seedDaemonSet(put, nodeNames, random, now);
  for (const namespace of namespaces) {
    if (totalPods - created >= 100) created += seedStatefulSet(put, namespace, 3, nodeNames, random, now);
    if (totalPods - created >= 100) created += seedCronJob(put, namespace, nodeNames, random, now);
  }
  let deploymentIndex = 0;
  while (created < totalPods) {
    const namespace = namespaces[deploymentIndex % namespaces.length];
    const app = `${appNames[Math.floor(deploymentIndex / namespaces.length) % appNames.length]}-${Math.floor(deploymentIndex / (namespaces.length * appNames.length))}`;
    deploymentIndex++;
    const replicas = Math.min(totalPods - created, 1 + random.int(10));
    const deployment = buildDeployment(
      namespace,
      app,
      replicas,
      podTemplate(app, random),
      seededMeta(random, now, {}),
    );
    deployment.status = readyDeploymentStatus(replicas);
    put('deployments.apps', deployment);
    const replicaSet = buildReplicaSet(deployment, replicas, seededMeta(random, now, {}));
    replicaSet.status = {
      replicas,
      fullyLabeledReplicas: replicas,
      readyReplicas: replicas,
      availableReplicas: replicas,
      observedGeneration: 1,
    };
    put('replicasets.apps', replicaSet);
    const addresses: { ip: string; nodeName: string; podName: string }[] = [];
    // Replicas share their template's labels, spec and owner reference (stored objects are never
    // mutated in place), which keeps 150,000 pods cheap to build and to hold.
    const template = (
      replicaSet.spec as { template: { metadata: { labels: Record<string, string> }; spec: object } }
    ).template;
    const ownerReferences = [controllerReference(replicaSet)];
    const createdAt = formatTime(now);
    for (let replica = 0; replica < replicas; replica++) {
      const pod: KubeObject = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: `${replicaSet.metadata.name}-${random.suffix(5)}`,
          namespace,
          uid: random.uid(),
          creationTimestamp: createdAt,
          labels: template.metadata.labels,
          ownerReferences,
        },
        spec: template.spec,
      };
      const roll = random.next();
      if (roll < 0.005) {
        setPodStage(pod, 'Unschedulable', now);
      } else {
        const nodeName = random.pick(nodeNames);
        pod.spec = { ...template.spec, nodeName };
        if (roll < 0.015) setPodStage(pod, 'ContainerCreating', now);
        else if (roll < 0.03) setPodStage(pod, 'CrashLoopBackOff', now, 1 + random.int(40));
        else {
          setPodStage(pod, 'Running', now);
          addresses.push({
            ip: (pod.status as { podIP: string }).podIP,
            nodeName,
            podName: pod.metadata.name ?? '',
          });
        }
      }
      put('pods', pod);
      created++;
      if (onProgress && created % 5000 === 0) onProgress({ pods: created, totalPods });
    }
    put(
      'services',
      buildService(
        namespace,
        app,
        `10.96.${(deploymentIndex >> 8) & 255}.${deploymentIndex & 255}`,
        seededMeta(random, now, {}),
      ),
    );
    put('endpoints', buildEndpoints(namespace, app, addresses, seededMeta(random, now, {})));
  }
  onProgress?.({ pods: created, totalPods });
}
