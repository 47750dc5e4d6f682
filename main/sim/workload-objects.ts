// Builders for the objects a cluster is made of, shaped as the real controllers make them: a
// ReplicaSet named <deployment>-<pod-template-hash> owned by its Deployment, pods named
// <replicaset>-<suffix> owned by their ReplicaSet (controller: true), nodes with conditions and
// capacity. Used both by seeding (objects built directly) and by the simulated controllers.
import type { KubeObject, OwnerReference } from '../../shared/kube/object';
import { formatTime } from './clock';
import type { SeededRandom } from './random';
import { unstructuredJson } from './unstructured-json';

type Json = Record<string, unknown>;

const hashAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

/** The rollout revision kube-controller-manager writes on a Deployment and its ReplicaSets. */
export const revisionAnnotation = 'deployment.kubernetes.io/revision';

/**
 * A stable short hash of a pod template, in the alphabet of Kubernetes' pod-template-hash. Taken over
 * the template with its keys sorted and its null members left out, as the controller hashes the typed
 * struct whatever order a client wrote and whether it wrote a zero value (`creationTimestamp: null`)
 * or nothing: a template written back (`kubectl rollout undo` patches in the old ReplicaSet's, as Go
 * marshals it) finds its ReplicaSet again.
 */
export function templateHash(template: unknown): string {
  if (typeof template !== 'object' || template === null) return hashOf(template);
  // Stored objects are never mutated in place, so a template's hash holds while the object lives: a
  // Deployment reconciled again and again under churn sorts its template once.
  let hash = templateHashes.get(template);
  if (hash === undefined) templateHashes.set(template, (hash = hashOf(template)));
  return hash;
}

const templateHashes = new WeakMap<object, string>();

function hashOf(template: unknown): string {
  let hash = 0x811c9dc5;
  const text = unstructuredJson(withoutNulls(template ?? {}));
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  let encoded = '';
  for (let index = 0; index < 10; index++) {
    encoded += hashAlphabet[hash % hashAlphabet.length];
    hash = Math.floor(hash / hashAlphabet.length) ^ (Math.imul(index + 1, 0x9e3779b1) >>> 0);
    hash >>>= 0;
  }
  return encoded;
}

function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value !== 'object' || value === null) return value;
  const copy: Json = {};
  for (const [key, member] of Object.entries(value)) if (member !== null) copy[key] = withoutNulls(member);
  return copy;
}

export function controllerReference(owner: KubeObject): OwnerReference {
  return {
    apiVersion: owner.apiVersion ?? 'v1',
    kind: owner.kind ?? '',
    name: owner.metadata.name ?? '',
    uid: owner.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** Metadata for an object stored directly (seeding): uid and creation time filled in. */
export function seededMeta(random: SeededRandom, now: number, meta: Json): KubeObject['metadata'] {
  return { ...meta, uid: random.uid(), creationTimestamp: formatTime(now) };
}

const images = [
  'nginx:1.27',
  'redis:7.4',
  'postgres:16',
  'busybox:1.36',
  'envoyproxy/envoy:v1.31',
  'grafana/grafana:11.2',
  'registry.k8s.io/pause:3.10',
];

export function podTemplate(app: string, random: SeededRandom): Json {
  const image = random.pick(images);
  const containers: Json[] = [
    {
      name: app.split('-')[0] || 'app',
      image,
      ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
      env: [
        { name: 'APP', value: app },
        { name: 'LOG_LEVEL', value: random.pick(['info', 'debug', 'warn']) },
      ],
      // 10-100m: about 150 pods a node (seed.ts) then ask for half a node's allocatable CPU and use
      // about a quarter, as a scheduled cluster does; 50-500m asked 2.6 nodes' worth of every node and
      // its pods' usage (metrics-usage.ts scales it to the requests) read 130-160% in kubectl top.
      resources: {
        requests: { cpu: `${10 + random.int(10) * 10}m`, memory: `${64 * (1 + random.int(8))}Mi` },
      },
      imagePullPolicy: 'IfNotPresent',
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
    },
  ];
  if (random.chance(0.3))
    containers.push({
      name: 'sidecar',
      image: 'envoyproxy/envoy:v1.31',
      resources: { requests: { cpu: '10m', memory: '32Mi' } },
      imagePullPolicy: 'IfNotPresent',
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
    });
  return {
    metadata: { labels: { app } },
    spec: {
      containers,
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      schedulerName: 'default-scheduler',
      serviceAccountName: 'default',
    },
  };
}

export function buildDeployment(
  namespace: string,
  name: string,
  replicas: number,
  template: Json,
  meta: KubeObject['metadata'],
): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      ...meta,
      name,
      namespace,
      labels: { app: name },
      // Its controller has rolled out its first ReplicaSet (buildReplicaSet's revision 1).
      annotations: { ...meta.annotations, [revisionAnnotation]: '1' },
      generation: 1,
    },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    },
  };
}

/** The ReplicaSet a Deployment's controller creates for its current template. */
export function buildReplicaSet(
  deployment: KubeObject,
  replicas: number,
  meta: KubeObject['metadata'],
): KubeObject {
  const spec = deployment.spec as Json;
  const source = (spec.template as Json | undefined) ?? {};
  const hash = templateHash(source);
  const labels = {
    ...((source.metadata as Json | undefined)?.labels as Record<string, string>),
    'pod-template-hash': hash,
  };
  // The template's spec is shared, not copied: stored objects are never mutated in place.
  const template: Json = { ...source, metadata: { ...(source.metadata as Json), labels } };
  const selector = spec.selector as { matchLabels?: Record<string, string> };
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      ...meta,
      name: `${deployment.metadata.name}-${hash}`,
      namespace: deployment.metadata.namespace,
      labels,
      annotations: {
        'deployment.kubernetes.io/desired-replicas': String(spec.replicas ?? 1),
        'deployment.kubernetes.io/max-replicas': String(Math.ceil(Number(spec.replicas ?? 1) * 1.25)),
        [revisionAnnotation]: '1',
      },
      ownerReferences: [controllerReference(deployment)],
      generation: 1,
    },
    spec: {
      replicas,
      selector: { matchLabels: { ...selector.matchLabels, 'pod-template-hash': hash } },
      template,
    },
  };
}

/**
 * A pod from an owner's template (ReplicaSet, StatefulSet, DaemonSet or Job), not yet scheduled.
 * `shareSpec` lets seeding reuse one spec object for all replicas; safe because stored objects are
 * never mutated in place.
 */
export function buildPod(
  owner: KubeObject,
  name: string,
  meta: KubeObject['metadata'],
  shareSpec = false,
): KubeObject {
  const template = ((owner.spec as Json).template as Json | undefined) ?? {};
  const templateMeta = (template.metadata as Json | undefined) ?? {};
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      ...meta,
      name,
      namespace: owner.metadata.namespace,
      labels: { ...(templateMeta.labels as Record<string, string> | undefined) },
      ownerReferences: [controllerReference(owner)],
    },
    spec: (shareSpec ? template.spec : structuredClone(template.spec ?? { containers: [] })) as Json,
    status: { phase: 'Pending', qosClass: 'Burstable' },
  };
}

export function buildNode(
  name: string,
  index: number,
  meta: KubeObject['metadata'],
  now: number,
): KubeObject {
  const time = formatTime(now);
  const zone = `zone-${'abc'[index % 3]}`;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      ...meta,
      name,
      labels: {
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'topology.kubernetes.io/zone': zone,
        ...(index < 3 ? { 'node-role.kubernetes.io/control-plane': '' } : {}),
      },
    },
    spec: { podCIDR: `10.244.${index & 255}.0/24`, podCIDRs: [`10.244.${index & 255}.0/24`] },
    status: {
      capacity: { cpu: '16', memory: '65851340Ki', pods: '250', 'ephemeral-storage': '102687672Ki' },
      allocatable: { cpu: '15890m', memory: '63653388Ki', pods: '250', 'ephemeral-storage': '94636476Ki' },
      conditions: nodeConditions(true, time),
      addresses: [
        { type: 'InternalIP', address: `192.168.${(index >> 8) & 255}.${index & 255}` },
        { type: 'Hostname', address: name },
      ],
      nodeInfo: {
        kubeletVersion: 'v1.32.0',
        kubeProxyVersion: 'v1.32.0',
        containerRuntimeVersion: 'containerd://1.7.22',
        osImage: 'Ubuntu 24.04.1 LTS',
        kernelVersion: '6.8.0-45-generic',
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
    },
  };
}

export function nodeConditions(ready: boolean, time: string): Json[] {
  const pressure = (type: string, reason: string) => ({
    type,
    status: 'False',
    reason,
    message: `kubelet has no ${type}`,
    lastHeartbeatTime: time,
    lastTransitionTime: time,
  });
  return [
    pressure('MemoryPressure', 'KubeletHasSufficientMemory'),
    pressure('DiskPressure', 'KubeletHasNoDiskPressure'),
    pressure('PIDPressure', 'KubeletHasSufficientPID'),
    ready
      ? {
          type: 'Ready',
          status: 'True',
          reason: 'KubeletReady',
          message: 'kubelet is posting ready status',
          lastHeartbeatTime: time,
          lastTransitionTime: time,
        }
      : {
          type: 'Ready',
          status: 'Unknown',
          reason: 'NodeStatusUnknown',
          message: 'Kubelet stopped posting node status.',
          lastHeartbeatTime: time,
          lastTransitionTime: time,
        },
  ];
}

export function isNodeReady(node: KubeObject): boolean {
  const conditions = ((node.status as Json | undefined)?.conditions as Json[] | undefined) ?? [];
  return conditions.some((condition) => condition.type === 'Ready' && condition.status === 'True');
}

/** Cordoned (`kubectl cordon`, `drain`): spec.unschedulable, which the scheduler honours. */
export function isCordoned(node: KubeObject): boolean {
  return (node.spec as { unschedulable?: boolean } | undefined)?.unschedulable === true;
}

export function buildService(
  namespace: string,
  app: string,
  clusterIP: string,
  meta: KubeObject['metadata'],
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { ...meta, name: app, namespace, labels: { app } },
    spec: {
      type: 'ClusterIP',
      selector: { app },
      ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }],
      clusterIP,
      clusterIPs: [clusterIP],
      sessionAffinity: 'None',
    },
    status: { loadBalancer: {} },
  };
}

export function buildEndpoints(
  namespace: string,
  app: string,
  addresses: { ip: string; nodeName: string; podName: string }[],
  meta: KubeObject['metadata'],
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { ...meta, name: app, namespace, labels: { app } },
    subsets: addresses.length
      ? [
          {
            addresses: addresses.map((address) => ({
              ip: address.ip,
              nodeName: address.nodeName,
              targetRef: { kind: 'Pod', namespace, name: address.podName },
            })),
            ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
          },
        ]
      : [],
  };
}
