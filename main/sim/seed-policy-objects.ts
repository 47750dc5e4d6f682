// What a running cluster holds of the policy and scheduling kinds beside its workloads: the two
// PriorityClasses kube-apiserver creates at start, an ingress controller's IngressClass, a
// ControllerRevision for every DaemonSet and StatefulSet (revision 1, as their controllers record
// the template), and per application namespace an HPA on its first Deployment (CPU at 80%, the
// utilization the metrics pipeline last saw), a PodDisruptionBudget for it and for the namespace's
// StatefulSet, a ResourceQuota counting the namespace's pods and a LimitRange with container
// defaults. Seeded once, after the workloads: no controller keeps them current.
import { createHash } from 'node:crypto';
import type { KubeObject } from '../../shared/kube/object';
import { builtinNamespaces } from './builtin-namespaces';
import type { ClusterStorage } from './cluster-storage';
import type { ResourceType } from './resource-type';
import { controllerReference } from './workload-objects';

type Resource = (name: string, group?: string) => ResourceType;

export function seedPolicyObjects(storage: ClusterStorage, resource: Resource): void {
  const create = (
    name: string,
    group: string | undefined,
    namespace: string | undefined,
    object: KubeObject,
  ) => storage.create(resource(name, group), namespace, object);
  for (const [name, value] of [
    ['system-cluster-critical', 2_000_000_000],
    ['system-node-critical', 2_000_001_000],
  ] as const) {
    create('priorityclasses', 'scheduling.k8s.io', undefined, {
      metadata: { name },
      value,
      globalDefault: false,
      preemptionPolicy: 'PreemptLowerPriority',
      description: `Used for ${name === 'system-node-critical' ? 'system' : 'system critical'} pods that must not be moved from their current node.`,
    });
  }
  create('ingressclasses', 'networking.k8s.io', undefined, {
    metadata: { name: 'nginx', annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' } },
    spec: { controller: 'k8s.io/ingress-nginx' },
  });
  for (const [kind, stored] of [
    ...[...storage.store.values('daemonsets.apps')].map((entry) => ['DaemonSet', entry] as const),
    ...[...storage.store.values('statefulsets.apps')].map((entry) => ['StatefulSet', entry] as const),
  ]) {
    const owner: KubeObject = { apiVersion: 'apps/v1', kind, ...stored.object };
    const template = (owner.spec as { template?: unknown } | undefined)?.template;
    const hash = templateHash(template);
    create('controllerrevisions', 'apps', owner.metadata.namespace, {
      metadata: {
        name: `${owner.metadata.name}-${hash}`,
        labels: { ...(owner.metadata.labels ?? {}), 'controller-revision-hash': hash },
        ownerReferences: [controllerReference(owner)],
      },
      data: { spec: { template: { ...(template as object), $patch: 'replace' } } },
      revision: 1,
    });
  }
  const podsByNamespace = new Map<string, number>();
  for (const pod of storage.store.values('pods')) {
    const namespace = pod.object.metadata.namespace ?? '';
    podsByNamespace.set(namespace, (podsByNamespace.get(namespace) ?? 0) + 1);
  }
  const firstDeployment = new Map<string, KubeObject>();
  for (const stored of storage.store.values('deployments.apps')) {
    const namespace = stored.object.metadata.namespace ?? '';
    if (!builtinNamespaces.has(namespace) && !firstDeployment.has(namespace))
      firstDeployment.set(namespace, stored.object);
  }
  for (const [namespace, deployment] of firstDeployment) {
    seedNamespacePolicies(create, namespace, deployment, podsByNamespace.get(namespace) ?? 0);
  }
  for (const stored of storage.store.values('statefulsets.apps')) {
    const statefulSet = stored.object;
    const replicas = (statefulSet.status as { readyReplicas?: number } | undefined)?.readyReplicas ?? 0;
    create('poddisruptionbudgets', 'policy', statefulSet.metadata.namespace, {
      metadata: { name: `${statefulSet.metadata.name}-pdb` },
      spec: { minAvailable: 2, selector: { matchLabels: { app: statefulSet.metadata.name ?? '' } } },
      status: budgetStatus(replicas, 2),
    });
  }
}

type Create = (
  name: string,
  group: string | undefined,
  namespace: string | undefined,
  object: KubeObject,
) => unknown;

function seedNamespacePolicies(
  create: Create,
  namespace: string,
  deployment: KubeObject,
  pods: number,
): void {
  const name = deployment.metadata.name ?? '';
  const replicas = (deployment.spec as { replicas?: number } | undefined)?.replicas ?? 1;
  const labels = (deployment.spec as { selector?: { matchLabels?: Record<string, string> } }).selector
    ?.matchLabels;
  create('horizontalpodautoscalers', 'autoscaling', namespace, {
    metadata: { name },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name },
      minReplicas: 1,
      maxReplicas: Math.max(10, replicas * 2),
      metrics: [
        {
          type: 'Resource',
          resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } },
        },
      ],
    },
    status: {
      currentReplicas: replicas,
      desiredReplicas: replicas,
      currentMetrics: [
        {
          type: 'Resource',
          resource: {
            name: 'cpu',
            current: { averageUtilization: 20 + ((replicas * 7) % 60), averageValue: '50m' },
          },
        },
      ],
    },
  });
  create('poddisruptionbudgets', 'policy', namespace, {
    metadata: { name },
    spec: { maxUnavailable: '25%', selector: { matchLabels: labels ?? { app: name } } },
    status: budgetStatus(replicas, replicas - Math.max(1, Math.floor(replicas / 4))),
  });
  create('resourcequotas', undefined, namespace, {
    metadata: { name: 'compute-resources' },
    spec: { hard: quotaHard },
    status: {
      hard: quotaHard,
      used: {
        pods: String(pods),
        'requests.cpu': `${pods * 100}m`,
        'requests.memory': `${pods * 128}Mi`,
        'limits.cpu': `${pods * 200}m`,
        'limits.memory': `${pods * 256}Mi`,
      },
    },
  });
  create('limitranges', undefined, namespace, {
    metadata: { name: 'container-defaults' },
    spec: {
      limits: [
        {
          type: 'Container',
          default: { cpu: '200m', memory: '256Mi' },
          defaultRequest: { cpu: '100m', memory: '128Mi' },
        },
      ],
    },
  });
}

const quotaHard = {
  pods: '500',
  'requests.cpu': '50',
  'requests.memory': '64Gi',
  'limits.cpu': '100',
  'limits.memory': '128Gi',
};

/** A budget's status as the disruption controller writes it for `healthy` pods, `desired` of them required. */
function budgetStatus(healthy: number, desired: number): object {
  return {
    observedGeneration: 1,
    currentHealthy: healthy,
    desiredHealthy: desired,
    expectedPods: healthy,
    disruptionsAllowed: Math.max(0, healthy - desired),
  };
}

/** The controller-revision-hash of a template (the controllers hash it; any stable hash reads alike). */
function templateHash(template: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(template ?? {}))
    .digest('hex')
    .slice(0, 10);
}
