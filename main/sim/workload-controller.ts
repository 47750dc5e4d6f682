// The kube-controller-manager loops the viewer cares about, level-triggered from store events: an
// event marks its object (and its controlling owner) dirty, and each pass reconciles what is dirty.
// Deployment -> ReplicaSets, ReplicaSet/StatefulSet/DaemonSet -> pods, Job -> a pod run to
// completion. Each reconcile writes only what differs, so the loop settles once the cluster matches
// its specs.
import type { ClusterStorage } from './cluster-storage';
import type { SimClock } from './clock';
import { ControllerContext } from './controller-context';
import { reconcileDeployment } from './deployment-controller';
import type { EventRecorder } from './event-recorder';
import { reconcileJob } from './job-controller';
import type { StoredEvent } from './object-store';
import type { OwnerIndex } from './owner-index';
import { reconcileDaemonSet, reconcileReplicaSet, reconcileStatefulSet } from './pod-controllers';
import type { SeededRandom } from './random';

export class WorkloadController {
  private readonly dirty = {
    deployments: new Set<string>(),
    replicasets: new Set<string>(),
    statefulsets: new Set<string>(),
    daemonsets: new Set<string>(),
    jobs: new Set<string>(),
  };
  private readonly context: ControllerContext;
  private readonly unsubscribe: () => void;

  constructor(
    storage: ClusterStorage,
    owners: OwnerIndex,
    events: EventRecorder,
    clock: SimClock,
    random: SeededRandom,
  ) {
    this.context = new ControllerContext(storage, owners, events, clock, random);
    this.unsubscribe = storage.store.subscribe((event) => this.observe(event));
  }

  close(): void {
    this.unsubscribe();
    this.context.close();
  }

  /** One pass over everything marked dirty since the last pass. */
  reconcile(): void {
    const { context } = this;
    for (const key of take(this.dirty.deployments)) reconcileDeployment(context, key);
    for (const key of take(this.dirty.replicasets)) reconcileReplicaSet(context, key);
    for (const key of take(this.dirty.statefulsets)) reconcileStatefulSet(context, key);
    for (const key of take(this.dirty.daemonsets)) reconcileDaemonSet(context, key);
    for (const key of take(this.dirty.jobs)) reconcileJob(context, key);
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
      else if (owner.kind === 'DaemonSet') this.dirty.daemonsets.add(key);
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
      case 'daemonsets.apps':
        if (event.type !== 'DELETED') this.dirty.daemonsets.add(event.key);
        break;
      case 'nodes':
        // Node readiness decides where DaemonSet pods belong.
        for (const stored of this.context.storage.store.values('daemonsets.apps'))
          this.dirty.daemonsets.add(`${stored.object.metadata.namespace}/${stored.object.metadata.name}`);
        break;
      case 'jobs.batch':
        if (event.type !== 'DELETED') this.dirty.jobs.add(event.key);
        break;
    }
  }
}

function take(set: Set<string>): string[] {
  const keys = [...set];
  set.clear();
  return keys;
}
