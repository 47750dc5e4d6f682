// The kube-controller-manager loops the viewer cares about, level-triggered from store events:
// Deployment -> ReplicaSets (rolling update by pod-template-hash, scaling), ReplicaSet -> pods,
// StatefulSet -> ordinal pods, Job -> a pod run to completion. Each reconcile writes only what
// differs, so the loop settles once the cluster matches its specs.
import type { KubeObject } from '../../shared/kube/object';
import type { ClusterStorage } from './cluster-storage';
import type { SimClock, SimTimer } from './clock';
import { formatTime } from './clock';
import type { EventRecorder } from './event-recorder';
import type { StoredEvent } from './object-store';
import type { OwnerIndex } from './owner-index';
import { podStageOf } from './pod-lifecycle';
import type { SeededRandom } from './random';
import type { ResourceType } from './resource-type';
import { buildPod, buildReplicaSet, templateHash } from './workload-objects';

type Json = Record<string, unknown>;

function splitKey(key: string): [string, string] {
  const slash = key.indexOf('/');
  return [key.slice(0, slash), key.slice(slash + 1)];
}

function specOf(object: KubeObject): Json {
  return (object.spec as Json | undefined) ?? {};
}

function replicasOf(object: KubeObject): number {
  const replicas = specOf(object).replicas;
  return typeof replicas === 'number' ? replicas : 1;
}

function statusNumber(object: KubeObject, field: string): number {
  const value = (object.status as Json | undefined)?.[field];
  return typeof value === 'number' ? value : 0;
}

export class WorkloadController {
  private readonly dirty = { deployments: new Set<string>(), replicasets: new Set<string>(), statefulsets: new Set<string>(), jobs: new Set<string>() };
  private readonly types: Record<'pods' | 'deployments' | 'replicasets' | 'statefulsets' | 'jobs', ResourceType>;
  private readonly unsubscribe: () => void;
  private readonly timers = new Set<SimTimer>();

  constructor(
    private readonly storage: ClusterStorage,
    private readonly owners: OwnerIndex,
    private readonly events: EventRecorder,
    private readonly clock: SimClock,
    private readonly random: SeededRandom,
  ) {
    const find = (resource: string, group: string) => storage.catalog.findAnyVersion(group, resource) as ResourceType;
    this.types = { pods: find('pods', ''), deployments: find('deployments', 'apps'), replicasets: find('replicasets', 'apps'), statefulsets: find('statefulsets', 'apps'), jobs: find('jobs', 'batch') };
    this.unsubscribe = storage.store.subscribe((event) => this.observe(event));
  }

  close(): void {
    this.unsubscribe();
    for (const timer of this.timers) timer.stop();
    this.timers.clear();
  }

  /** True when some owner waits for a reconcile. */
  get busy(): boolean {
    return Object.values(this.dirty).some((set) => set.size > 0);
  }

  /** One pass over everything marked dirty since the last pass. */
  reconcile(): void {
    for (const key of this.take(this.dirty.deployments)) this.reconcileDeployment(key);
    for (const key of this.take(this.dirty.replicasets)) this.reconcileReplicaSet(key);
    for (const key of this.take(this.dirty.statefulsets)) this.reconcileStatefulSet(key);
    for (const key of this.take(this.dirty.jobs)) this.reconcileJob(key);
  }

  private take(set: Set<string>): string[] {
    const keys = [...set];
    set.clear();
    return keys;
  }

  private observe(event: StoredEvent): void {
    const object = event.stored.object;
    const namespace = object.metadata.namespace ?? '';
    const owner = object.metadata.ownerReferences?.find((reference) => reference.controller);
    const markOwner = () => {
      if (!owner) return;
      const key = `${namespace}/${owner.name}`;
      if (owner.kind === 'ReplicaSet') this.dirty.replicasets.add(key);
      else if (owner.kind === 'Deployment') this.dirty.deployments.add(key);
      else if (owner.kind === 'StatefulSet') this.dirty.statefulsets.add(key);
      else if (owner.kind === 'Job') this.dirty.jobs.add(key);
    };
    switch (event.resource) {
      case 'pods':
        markOwner();
        break;
      case 'replicasets.apps':
        if (event.type !== 'DELETED') this.dirty.replicasets.add(event.key);
        markOwner();
        break;
      case 'deployments.apps':
        if (event.type !== 'DELETED') this.dirty.deployments.add(event.key);
        break;
      case 'statefulsets.apps':
        if (event.type !== 'DELETED') this.dirty.statefulsets.add(event.key);
        break;
      case 'jobs.batch':
        if (event.type !== 'DELETED') this.dirty.jobs.add(event.key);
        break;
    }
  }

  private owned(owner: KubeObject, resource: string): KubeObject[] {
    return this.owners
      .dependentsOf(owner.metadata.uid ?? '', resource)
      .map((ref) => this.storage.store.get(ref.resource, ref.key)?.object)
      .filter((object): object is KubeObject => object !== undefined);
  }

  private reconcileDeployment(key: string): void {
    const [namespace, name] = splitKey(key);
    const deployment = this.storage.find(this.types.deployments, namespace, name)?.object;
    if (!deployment) return;
    const desired = replicasOf(deployment);
    const hash = templateHash(specOf(deployment).template);
    const replicaSets = this.owned(deployment, 'replicasets.apps');
    let current = replicaSets.find((replicaSet) => replicaSet.metadata.labels?.['pod-template-hash'] === hash);
    const old = replicaSets.filter((replicaSet) => replicaSet !== current);
    const surge = Math.max(1, Math.ceil(desired * 0.25));
    if (!current) {
      const revision = 1 + Math.max(0, ...old.map((replicaSet) => Number(replicaSet.metadata.annotations?.['deployment.kubernetes.io/revision'] ?? 0)));
      const built = buildReplicaSet(deployment, old.length ? Math.min(desired, surge) : desired, {});
      built.metadata.annotations = { ...built.metadata.annotations, 'deployment.kubernetes.io/revision': String(revision) };
      try {
        current = this.storage.create(this.types.replicasets, namespace, built).object;
      } catch {
        return;
      }
      this.events.record(deployment, 'Normal', 'ScalingReplicaSet', `Scaled up replica set ${current.metadata.name} from 0 to ${replicasOf(current)}`, 'deployment-controller');
    } else if (replicasOf(current) !== desired) {
      const target = old.some((replicaSet) => replicasOf(replicaSet) > 0) ? Math.min(desired, replicasOf(current) + surge) : desired;
      if (target !== replicasOf(current)) this.scaleReplicaSet(deployment, current, target);
    }
    let oldAllowed = Math.max(0, desired - statusNumber(current, 'readyReplicas'));
    for (const replicaSet of old) {
      const target = Math.min(replicasOf(replicaSet), oldAllowed);
      oldAllowed -= target;
      if (target !== replicasOf(replicaSet)) this.scaleReplicaSet(deployment, replicaSet, target);
    }
    const all = [current, ...old];
    const sum = (field: string) => all.reduce((total, replicaSet) => total + statusNumber(replicaSet, field), 0);
    const ready = sum('readyReplicas');
    const time = formatTime(this.clock.now());
    this.storage.mutate(this.types.deployments, namespace, name, (copy) => {
      const previous = (copy.status as Json | undefined) ?? {};
      const available = ready >= desired - Math.floor(desired * 0.25);
      const status: Json = {
        observedGeneration: copy.metadata.generation,
        replicas: sum('replicas'),
        updatedReplicas: statusNumber(current, 'replicas'),
        readyReplicas: ready,
        availableReplicas: ready,
        ...(sum('replicas') - ready > 0 ? { unavailableReplicas: sum('replicas') - ready } : {}),
        conditions: [
          { type: 'Available', status: available ? 'True' : 'False', reason: available ? 'MinimumReplicasAvailable' : 'MinimumReplicasUnavailable', message: available ? 'Deployment has minimum availability.' : 'Deployment does not have minimum availability.' },
          { type: 'Progressing', status: 'True', reason: ready === desired ? 'NewReplicaSetAvailable' : 'ReplicaSetUpdated', message: `ReplicaSet "${current?.metadata.name}" ${ready === desired ? 'has successfully progressed.' : 'is progressing.'}` },
        ],
      };
      const conditionsChanged = JSON.stringify((previous.conditions as Json[] | undefined)?.map((condition) => [condition.type, condition.status, condition.reason])) !== JSON.stringify((status.conditions as Json[]).map((condition) => [condition.type, condition.status, condition.reason]));
      if (!conditionsChanged) status.conditions = previous.conditions;
      else for (const condition of status.conditions as Json[]) Object.assign(condition, { lastUpdateTime: time, lastTransitionTime: time });
      copy.status = status;
    });
  }

  private scaleReplicaSet(deployment: KubeObject, replicaSet: KubeObject, replicas: number): void {
    const from = replicasOf(replicaSet);
    this.storage.mutate(this.types.replicasets, replicaSet.metadata.namespace, replicaSet.metadata.name ?? '', (copy) => {
      (copy.spec as Json).replicas = replicas;
      copy.metadata.annotations = { ...copy.metadata.annotations, 'deployment.kubernetes.io/desired-replicas': String(replicasOf(deployment)) };
    });
    this.events.record(deployment, 'Normal', 'ScalingReplicaSet', `Scaled ${replicas > from ? 'up' : 'down'} replica set ${replicaSet.metadata.name} from ${from} to ${replicas}`, 'deployment-controller');
  }

  private reconcilePods(owner: KubeObject, type: ResourceType, desiredNames: (existing: KubeObject[]) => { create: string[]; remove: KubeObject[] }): KubeObject[] {
    const pods = this.owned(owner, 'pods');
    const { create, remove } = desiredNames(pods);
    for (const pod of remove) {
      this.storage.delete(this.types.pods, pod.metadata.namespace, pod.metadata.name ?? '');
      this.events.record(owner, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`, `${type.singularName}-controller`);
    }
    for (const name of create) {
      try {
        const pod = this.storage.create(this.types.pods, owner.metadata.namespace, buildPod(owner, name, {})).object;
        this.events.record(owner, 'Normal', 'SuccessfulCreate', `Created pod: ${pod.metadata.name}`, `${type.singularName}-controller`);
      } catch {
        // A name taken by a pod still being deleted: the next pass retries.
      }
    }
    return this.owned(owner, 'pods');
  }

  private writeReplicaStatus(type: ResourceType, owner: KubeObject, pods: KubeObject[]): void {
    const ready = pods.filter((pod) => podStageOf(pod) === 'Running').length;
    this.storage.mutate(type, owner.metadata.namespace, owner.metadata.name ?? '', (copy) => {
      copy.status = { ...(copy.status as Json | undefined), replicas: pods.length, readyReplicas: ready, availableReplicas: ready, observedGeneration: copy.metadata.generation, ...(type.kind === 'ReplicaSet' ? { fullyLabeledReplicas: pods.length } : { currentReplicas: pods.length, updatedReplicas: pods.length }) };
    });
  }

  private reconcileReplicaSet(key: string): void {
    const [namespace, name] = splitKey(key);
    const replicaSet = this.storage.find(this.types.replicasets, namespace, name)?.object;
    if (!replicaSet) return;
    const desired = replicasOf(replicaSet);
    const pods = this.reconcilePods(replicaSet, this.types.replicasets, (existing) => {
      const missing = Math.max(0, desired - existing.length);
      const ranked = [...existing].sort((left, right) => Number(podStageOf(left) === 'Running') - Number(podStageOf(right) === 'Running'));
      return { create: Array.from({ length: missing }, () => `${name}-${this.random.suffix(5)}`), remove: ranked.slice(0, Math.max(0, existing.length - desired)) };
    });
    this.writeReplicaStatus(this.types.replicasets, replicaSet, pods);
  }

  private reconcileStatefulSet(key: string): void {
    const [namespace, name] = splitKey(key);
    const statefulSet = this.storage.find(this.types.statefulsets, namespace, name)?.object;
    if (!statefulSet) return;
    const desired = replicasOf(statefulSet);
    const pods = this.reconcilePods(statefulSet, this.types.statefulsets, (existing) => {
      const names = new Set(existing.map((pod) => pod.metadata.name));
      const create = Array.from({ length: desired }, (_, ordinal) => `${name}-${ordinal}`).filter((podName) => !names.has(podName));
      const remove = existing.filter((pod) => Number(pod.metadata.name?.slice(name.length + 1)) >= desired);
      return { create, remove };
    });
    this.writeReplicaStatus(this.types.statefulsets, statefulSet, pods);
  }

  private reconcileJob(key: string): void {
    const [namespace, name] = splitKey(key);
    const job = this.storage.find(this.types.jobs, namespace, name)?.object;
    if (!job) return;
    const status = (job.status as Json | undefined) ?? {};
    const complete = typeof status.completionTime === 'string';
    const pods = this.owned(job, 'pods');
    if (!complete && pods.length === 0) {
      this.reconcilePods(job, this.types.jobs, () => ({ create: [`${name}-${this.random.suffix(5)}`], remove: [] }));
      return;
    }
    const succeeded = pods.filter((pod) => podStageOf(pod) === 'Succeeded').length;
    const active = pods.filter((pod) => !['Succeeded', 'Failed'].includes(podStageOf(pod))).length;
    const time = formatTime(this.clock.now());
    const finished = !complete && succeeded >= Number(specOf(job).completions ?? 1);
    this.storage.mutate(this.types.jobs, namespace, name, (copy) => {
      const next: Json = { ...(copy.status as Json | undefined), startTime: status.startTime ?? time, active: active || undefined, succeeded: succeeded || undefined, ready: 0, terminating: 0 };
      if (!next.active) delete next.active;
      if (!next.succeeded) delete next.succeeded;
      if (finished) {
        next.completionTime = time;
        next.conditions = [
          { type: 'SuccessCriteriaMet', status: 'True', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods', lastProbeTime: time, lastTransitionTime: time },
          { type: 'Complete', status: 'True', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods', lastProbeTime: time, lastTransitionTime: time },
        ];
      }
      copy.status = next;
    });
    if (!finished) return;
    this.events.record(job, 'Normal', 'Completed', 'Job completed', 'job-controller');
    const ttlSeconds = specOf(job).ttlSecondsAfterFinished;
    if (typeof ttlSeconds !== 'number') return;
    // The TTL-after-finished controller: the job (and, through the garbage collector, its pods) goes.
    const timer = this.clock.setTimeout(() => {
      this.timers.delete(timer);
      if (this.storage.find(this.types.jobs, namespace, name)) this.storage.delete(this.types.jobs, namespace, name);
    }, ttlSeconds * 1000);
    this.timers.add(timer);
  }
}
