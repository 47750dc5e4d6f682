// Background change at a chosen rate: the things that keep a real cluster's watch streams busy.
// Each action is drawn from the seeded stream, so a seed reproduces the same sequence of changes.
// The rate counts actions; the controllers' follow-up writes (a deleted pod being replaced, a
// rollout progressing) come on top.
import type { KubeObject } from '../../shared/kube/object';
import type { ClusterStorage } from './cluster-storage';
import type { SimClock } from './clock';
import type { EventRecorder } from './event-recorder';
import type { Kubelet } from './kubelet';
import { podStageOf, restartCountOf, setPodStage } from './pod-lifecycle';
import type { SeededRandom } from './random';
import type { ResourceType } from './resource-type';

export type ChurnAction =
  | 'restartPod'
  | 'recoverPod'
  | 'deletePod'
  | 'scaleDeployment'
  | 'rollDeployment'
  | 'failNode'
  | 'createJob'
  | 'updateConfigMap';

const weights: [ChurnAction, number][] = [
  ['restartPod', 30],
  ['recoverPod', 15],
  ['deletePod', 20],
  ['scaleDeployment', 12],
  ['rollDeployment', 5],
  ['failNode', 1],
  ['createJob', 7],
  ['updateConfigMap', 10],
];
const totalWeight = weights.reduce((sum, [, weight]) => sum + weight, 0);

export class Churn {
  private types: Record<'pods' | 'deployments' | 'jobs' | 'configmaps', ResourceType>;
  private jobCounter = 0;

  constructor(
    private readonly storage: ClusterStorage,
    private readonly kubelet: Kubelet,
    private readonly events: EventRecorder,
    private readonly clock: SimClock,
    private readonly random: SeededRandom,
  ) {
    const find = (resource: string, group: string) =>
      storage.catalog.findAnyVersion(group, resource) as ResourceType;
    this.types = {
      pods: find('pods', ''),
      deployments: find('deployments', 'apps'),
      jobs: find('jobs', 'batch'),
      configmaps: find('configmaps', ''),
    };
  }

  /** Performs `count` randomly chosen actions. */
  step(count: number): void {
    for (let index = 0; index < count; index++) this.perform(this.choose());
  }

  perform(action: ChurnAction): void {
    switch (action) {
      case 'restartPod':
        return this.onRandom('pods', (pod) => {
          const stage = podStageOf(pod);
          if (stage !== 'Running' && stage !== 'CrashLoopBackOff') return;
          const updated = this.storage.mutate(
            this.types.pods,
            pod.metadata.namespace,
            pod.metadata.name ?? '',
            (copy) => setPodStage(copy, 'CrashLoopBackOff', this.clock.now(), restartCountOf(copy) + 1),
          );
          if (updated)
            this.events.record(
              updated.object,
              'Warning',
              'BackOff',
              'Back-off restarting failed container',
              'kubelet',
            );
        });
      case 'recoverPod':
        return this.onRandom('pods', (pod) => {
          if (podStageOf(pod) !== 'CrashLoopBackOff') return;
          this.storage.mutate(this.types.pods, pod.metadata.namespace, pod.metadata.name ?? '', (copy) =>
            setPodStage(copy, 'Running', this.clock.now(), restartCountOf(copy)),
          );
        });
      case 'deletePod':
        return this.onRandom('pods', (pod) => {
          if (pod.metadata.ownerReferences?.some((owner) => owner.kind === 'ReplicaSet'))
            this.storage.delete(this.types.pods, pod.metadata.namespace, pod.metadata.name ?? '');
        });
      case 'scaleDeployment':
        return this.onRandom('deployments.apps', (deployment) => {
          const replicas = Number((deployment.spec as { replicas?: number }).replicas ?? 1);
          const next = Math.max(
            0,
            Math.min(12, replicas + (replicas <= 1 || this.random.chance(0.5) ? 1 : -1)),
          );
          this.storage.mutate(
            this.types.deployments,
            deployment.metadata.namespace,
            deployment.metadata.name ?? '',
            (copy) => {
              (copy.spec as { replicas?: number }).replicas = next;
            },
          );
        });
      case 'rollDeployment':
        return this.onRandom('deployments.apps', (deployment) => {
          this.storage.mutate(
            this.types.deployments,
            deployment.metadata.namespace,
            deployment.metadata.name ?? '',
            (copy) => {
              const template = (
                copy.spec as { template: { metadata?: { annotations?: Record<string, string> } } }
              ).template;
              template.metadata = {
                ...template.metadata,
                annotations: {
                  ...template.metadata?.annotations,
                  'kubectl.kubernetes.io/restartedAt': new Date(this.clock.now()).toISOString(),
                },
              };
            },
          );
        });
      case 'failNode': {
        // One node down at a time, as on a real cluster where a failure is an incident, not a rate:
        // a failed node's evictions are ~20 changes a pod (150 pods a node at 150,000 pods), so a
        // share of the actions failing nodes made node failures most of the churn.
        if (this.kubelet.failedNodes > 0) return;
        const ready = this.kubelet.readyNodes();
        // Never take the last nodes down: rescheduled pods need somewhere to go.
        if (ready.length > 3) this.kubelet.failNode(this.random.pick(ready));
        return;
      }
      case 'createJob':
        return this.onRandom('namespaces', (namespace) => {
          const name = `batch-${(this.jobCounter++).toString(36)}-${this.random.suffix(4)}`;
          try {
            this.storage.create(this.types.jobs, namespace.metadata.name, {
              metadata: { name, labels: { job: name } },
              spec: {
                ttlSecondsAfterFinished: 60,
                template: {
                  metadata: { labels: { job: name } },
                  spec: {
                    restartPolicy: 'Never',
                    containers: [{ name: 'task', image: 'busybox:1.36', command: ['sh', '-c', 'echo done'] }],
                  },
                },
              },
            });
          } catch {
            // A terminating namespace refuses new objects; skip this action.
          }
        });
      case 'updateConfigMap':
        return this.onRandom('configmaps', (configMap) => {
          this.storage.mutate(
            this.types.configmaps,
            configMap.metadata.namespace,
            configMap.metadata.name ?? '',
            (copy) => {
              copy.data = {
                ...(copy.data as Record<string, string> | undefined),
                revision: String(this.random.int(1_000_000)),
              };
            },
          );
        });
    }
  }

  private choose(): ChurnAction {
    let roll = this.random.next() * totalWeight;
    for (const [action, weight] of weights) {
      roll -= weight;
      if (roll < 0) return action;
    }
    return weights[0][0];
  }

  private onRandom(resource: string, act: (object: KubeObject) => void): void {
    const keys = this.storage.store.sortedKeys(resource);
    if (keys.size === 0) return;
    const key = keys.at(this.random.int(keys.size)) as string;
    const stored = this.storage.store.get(resource, key);
    if (stored) act(stored.object);
  }
}
