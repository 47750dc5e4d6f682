// What every simulated controller works with: storage, the owner index, the event recorder, the
// clock and the seeded random stream, plus the helpers they share to find what an owner owns and
// to converge an owner's pods on a desired set.
import type { KubeObject } from '../../shared/kube/object';
import type { ClusterStorage } from './cluster-storage';
import type { SimClock, SimTimer } from './clock';
import type { EventRecorder } from './event-recorder';
import type { OwnerIndex } from './owner-index';
import { podStageOf } from './pod-lifecycle';
import type { SeededRandom } from './random';
import type { ResourceType } from './resource-type';
import { buildPod } from './workload-objects';

export type Json = Record<string, unknown>;

export type WorkloadResource =
  'pods' | 'deployments' | 'replicasets' | 'statefulsets' | 'daemonsets' | 'jobs';

export function splitKey(key: string): [string, string] {
  const slash = key.indexOf('/');
  return [key.slice(0, slash), key.slice(slash + 1)];
}

export function specOf(object: KubeObject): Json {
  return (object.spec as Json | undefined) ?? {};
}

export function replicasOf(object: KubeObject): number {
  const replicas = specOf(object).replicas;
  return typeof replicas === 'number' ? replicas : 1;
}

export function statusNumber(object: KubeObject, field: string): number {
  const value = (object.status as Json | undefined)?.[field];
  return typeof value === 'number' ? value : 0;
}

export class ControllerContext {
  readonly types: Record<WorkloadResource, ResourceType>;
  readonly timers = new Set<SimTimer>();

  constructor(
    readonly storage: ClusterStorage,
    readonly owners: OwnerIndex,
    readonly events: EventRecorder,
    readonly clock: SimClock,
    readonly random: SeededRandom,
  ) {
    const find = (resource: string, group: string) =>
      storage.catalog.findAnyVersion(group, resource) as ResourceType;
    this.types = {
      pods: find('pods', ''),
      deployments: find('deployments', 'apps'),
      replicasets: find('replicasets', 'apps'),
      statefulsets: find('statefulsets', 'apps'),
      daemonsets: find('daemonsets', 'apps'),
      jobs: find('jobs', 'batch'),
    };
  }

  /** Runs `work` after `delayMs` on the clock; cancelled by close(). */
  after(delayMs: number, work: () => void): void {
    const timer = this.clock.setTimeout(() => {
      this.timers.delete(timer);
      work();
    }, delayMs);
    this.timers.add(timer);
  }

  close(): void {
    for (const timer of this.timers) timer.stop();
    this.timers.clear();
  }
}

/** The live objects of `resource` whose ownerReferences name `owner`. */
export function owned(context: ControllerContext, owner: KubeObject, resource: string): KubeObject[] {
  return context.owners
    .dependentsOf(owner.metadata.uid ?? '', resource)
    .map((ref) => context.storage.store.get(ref.resource, ref.key)?.object)
    .filter((object): object is KubeObject => object !== undefined);
}

/** A pod to create: its name, and its node when the controller places it itself (DaemonSet). */
export type PodToCreate = string | { name: string; nodeName: string };

/** Deletes and creates pods so `owner` has the ones `desired` asks for; returns its pods after. */
export function reconcilePods(
  context: ControllerContext,
  owner: KubeObject,
  type: ResourceType,
  desired: (existing: KubeObject[]) => { create: PodToCreate[]; remove: KubeObject[] },
): KubeObject[] {
  const pods = owned(context, owner, 'pods');
  const { create, remove } = desired(pods);
  for (const pod of remove) {
    context.storage.delete(context.types.pods, pod.metadata.namespace, pod.metadata.name ?? '');
    context.events.record(
      owner,
      'Normal',
      'SuccessfulDelete',
      `Deleted pod: ${pod.metadata.name}`,
      `${type.singularName}-controller`,
    );
  }
  for (const wanted of create) {
    const built = buildPod(owner, typeof wanted === 'string' ? wanted : wanted.name, {});
    if (typeof wanted !== 'string') built.spec = { ...(built.spec as Json), nodeName: wanted.nodeName };
    try {
      const pod = context.storage.create(context.types.pods, owner.metadata.namespace, built).object;
      context.events.record(
        owner,
        'Normal',
        'SuccessfulCreate',
        `Created pod: ${pod.metadata.name}`,
        `${type.singularName}-controller`,
      );
    } catch {
      // A name taken by a pod still being deleted: the next pass retries.
    }
  }
  return owned(context, owner, 'pods');
}

/** status.replicas/readyReplicas... of a ReplicaSet or StatefulSet from its pods. */
export function writeReplicaStatus(
  context: ControllerContext,
  type: ResourceType,
  owner: KubeObject,
  pods: KubeObject[],
): void {
  const ready = pods.filter((pod) => podStageOf(pod) === 'Running').length;
  const current = context.storage.find(type, owner.metadata.namespace, owner.metadata.name ?? '')?.object;
  if (!current) return;
  const fields: Json = {
    replicas: pods.length,
    readyReplicas: ready,
    availableReplicas: ready,
    observedGeneration: current.metadata.generation,
    ...(type.kind === 'ReplicaSet'
      ? { fullyLabeledReplicas: pods.length }
      : { currentReplicas: pods.length, updatedReplicas: pods.length }),
  };
  // Most passes find the status as it was (a pod changed, not how many are ready): the write would be
  // a no-op, so the object is not copied and compared for nothing.
  if (holdsAll(current.status as Json | undefined, fields)) return;
  context.storage.mutate(type, owner.metadata.namespace, owner.metadata.name ?? '', (copy) => {
    copy.status = { ...(copy.status as Json | undefined), ...fields };
  });
}

/** True when `status` already has every one of `fields` at the same value. */
function holdsAll(status: Json | undefined, fields: Json): boolean {
  for (const [field, value] of Object.entries(fields)) if (status?.[field] !== value) return false;
  return true;
}
