// The scheduler, the kubelets and the node lifecycle controller in one place: unscheduled pods are
// bound to a Ready node that is not cordoned, then go ContainerCreating -> Running after a short delay
// (job pods then complete); a node that fails turns NotReady and, after a grace period, its pods are
// evicted so their controllers recreate them elsewhere; it recovers later.
import type { KubeObject } from '../../shared/kube/object';
import type { ClusterStorage } from './cluster-storage';
import type { SimClock, SimTimer } from './clock';
import { formatTime } from './clock';
import type { EventRecorder } from './event-recorder';
import type { StoredEvent } from './object-store';
import { podStageOf, setPodStage } from './pod-lifecycle';
import type { SeededRandom } from './random';
import type { ResourceType } from './resource-type';
import { isCordoned, isNodeReady, nodeConditions } from './workload-objects';

export interface KubeletTiming {
  /** Delay from scheduling to Running (randomised up to twice this). */
  startupMs: number;
  /** How long a job's pod runs before it completes. */
  jobRunMs: number;
  /** NotReady time before the node's pods are evicted. */
  evictionGraceMs: number;
  /** How long a failed node stays NotReady. */
  nodeRecoveryMs: number;
}

export const defaultKubeletTiming: KubeletTiming = {
  startupMs: 1000,
  jobRunMs: 3000,
  evictionGraceMs: 5000,
  nodeRecoveryMs: 30_000,
};

export class Kubelet {
  private readonly unscheduled = new Set<string>();
  /** Pods found unschedulable for want of a schedulable node; retried when a node becomes one (observe). */
  private readonly parked = new Set<string>();
  private readonly podsByNode = new Map<string, Set<string>>();
  private readonly timers = new Set<SimTimer>();
  /** Nodes failNode took down, until they recover. */
  private readonly failed = new Set<string>();
  private readonly pods: ResourceType;
  private readonly nodes: ResourceType;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly storage: ClusterStorage,
    private readonly events: EventRecorder,
    private readonly clock: SimClock,
    private readonly random: SeededRandom,
    private readonly timing: KubeletTiming = defaultKubeletTiming,
  ) {
    this.pods = storage.catalog.findAnyVersion('', 'pods') as ResourceType;
    this.nodes = storage.catalog.findAnyVersion('', 'nodes') as ResourceType;
    for (const stored of storage.store.values('pods')) {
      const { namespace, name } = stored.object.metadata;
      this.track(stored.object, `${namespace}/${name}`, true);
      // Seeded pods caught mid-start finish starting, as their kubelet would.
      if (podStageOf(stored.object) === 'ContainerCreating')
        this.after(this.timing.startupMs * (1 + this.random.next()), () =>
          this.start(namespace ?? '', name ?? ''),
        );
    }
    this.unsubscribe = storage.store.subscribe((event) => this.observe(event));
  }

  close(): void {
    this.unsubscribe();
    for (const timer of this.timers) timer.stop();
    this.timers.clear();
  }

  /** Binds waiting pods to Ready nodes not cordoned (called from the controller loop). */
  schedule(): void {
    if (this.unscheduled.size === 0) return;
    const ready = this.schedulableNodes();
    for (const key of [...this.unscheduled]) {
      this.unscheduled.delete(key);
      const [namespace, name] = [key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1)];
      const pod = this.storage.find(this.pods, namespace, name)?.object;
      if (!pod || (pod.spec as { nodeName?: string }).nodeName) continue;
      if (ready.length === 0) {
        this.storage.mutate(this.pods, namespace, name, (copy) =>
          setPodStage(copy, 'Unschedulable', this.clock.now()),
        );
        // After the write: its event takes the key out of the waiting sets (observe).
        this.parked.add(key);
        continue;
      }
      const nodeName = this.random.pick(ready);
      const bound = this.storage.mutate(this.pods, namespace, name, (copy) => {
        copy.spec = { ...(copy.spec as object), nodeName };
        setPodStage(copy, 'ContainerCreating', this.clock.now());
      });
      if (!bound) continue;
      this.events.record(
        bound.object,
        'Normal',
        'Scheduled',
        `Successfully assigned ${key} to ${nodeName}`,
        'default-scheduler',
      );
      this.after(this.timing.startupMs * (1 + this.random.next()), () => this.start(namespace, name));
    }
  }

  /** Marks a node NotReady; its pods are evicted after the grace period; it recovers later. */
  failNode(nodeName: string): boolean {
    const failed = this.storage.mutate(this.nodes, undefined, nodeName, (copy) => {
      if (!isNodeReady(copy)) return false;
      (copy.status as Record<string, unknown>).conditions = nodeConditions(
        false,
        formatTime(this.clock.now()),
      );
    });
    if (!failed || isNodeReady(failed.object)) return false;
    this.events.record(
      failed.object,
      'Normal',
      'NodeNotReady',
      `Node ${nodeName} status is now: NodeNotReady`,
      'node-controller',
    );
    this.failed.add(nodeName);
    this.after(this.timing.evictionGraceMs, () => this.evict(nodeName));
    this.after(this.timing.nodeRecoveryMs, () => this.recoverNode(nodeName));
    return true;
  }

  /** Nodes failNode took down that have not recovered yet. */
  get failedNodes(): number {
    return this.failed.size;
  }

  recoverNode(nodeName: string): void {
    this.failed.delete(nodeName);
    const recovered = this.storage.mutate(this.nodes, undefined, nodeName, (copy) => {
      if (isNodeReady(copy)) return false;
      (copy.status as Record<string, unknown>).conditions = nodeConditions(
        true,
        formatTime(this.clock.now()),
      );
    });
    if (!recovered) return;
    this.events.record(
      recovered.object,
      'Normal',
      'NodeReady',
      `Node ${nodeName} status is now: NodeReady`,
      'kubelet',
    );
    // Its Ready write was a node event: observe has handed it the parked pods.
  }

  readyNodes(): string[] {
    return this.nodesWhere(isNodeReady);
  }

  /**
   * The Ready nodes the scheduler may bind a pod to: not cordoned (`kubectl cordon` and `drain` set
   * spec.unschedulable, which the scheduler honours; DaemonSet pods tolerate it, see pod-controllers).
   */
  schedulableNodes(): string[] {
    return this.nodesWhere(isSchedulable);
  }

  private nodesWhere(test: (node: KubeObject) => boolean): string[] {
    const names: string[] = [];
    for (const stored of this.storage.store.values('nodes'))
      if (test(stored.object)) names.push(stored.object.metadata.name ?? '');
    return names;
  }

  private evict(nodeName: string): void {
    const node = this.storage.find(this.nodes, undefined, nodeName)?.object;
    if (!node || isNodeReady(node)) return;
    for (const key of [...(this.podsByNode.get(nodeName) ?? [])]) {
      const [namespace, name] = [key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1)];
      const pod = this.storage.find(this.pods, namespace, name)?.object;
      if (!pod) continue;
      this.events.record(
        pod,
        'Normal',
        'TaintManagerEviction',
        `Marking for deletion Pod ${key}`,
        'taint-eviction-controller',
      );
      this.storage.delete(this.pods, namespace, name);
    }
  }

  /** A pod created already bound to a node (DaemonSet pods, hand-made pods) is started by that node's kubelet. */
  private startIfBound(pod: KubeObject): void {
    const nodeName = (pod.spec as { nodeName?: string } | undefined)?.nodeName;
    if (!nodeName || podStageOf(pod) !== 'ContainerCreating') return;
    const node = this.storage.find(this.nodes, undefined, nodeName)?.object;
    if (!node || !isNodeReady(node)) return;
    const { namespace, name } = pod.metadata;
    this.after(this.timing.startupMs * (1 + this.random.next()), () =>
      this.start(namespace ?? '', name ?? ''),
    );
  }

  private start(namespace: string, name: string): void {
    const pod = this.storage.find(this.pods, namespace, name)?.object;
    if (!pod || podStageOf(pod) !== 'ContainerCreating') return;
    const image = String(
      ((pod.spec as { containers?: { image?: string }[] }).containers ?? [])[0]?.image ?? '',
    );
    const started = this.storage.mutate(this.pods, namespace, name, (copy) =>
      setPodStage(copy, 'Running', this.clock.now()),
    );
    if (!started) return;
    this.events.record(
      started.object,
      'Normal',
      'Pulled',
      `Container image "${image}" already present on machine`,
      'kubelet',
    );
    this.events.record(started.object, 'Normal', 'Started', 'Started container', 'kubelet');
    if (pod.metadata.ownerReferences?.some((owner) => owner.kind === 'Job'))
      this.after(this.timing.jobRunMs, () =>
        this.storage.mutate(this.pods, namespace, name, (copy) =>
          setPodStage(copy, 'Succeeded', this.clock.now()),
        ),
      );
  }

  private after(delayMs: number, work: () => void): void {
    const timer = this.clock.setTimeout(() => {
      this.timers.delete(timer);
      work();
    }, delayMs);
    this.timers.add(timer);
  }

  private observe(event: StoredEvent): void {
    // A node uncordoned (or back Ready) takes the pods that found nowhere to go.
    if (
      event.resource === 'nodes' &&
      event.type !== 'DELETED' &&
      isSchedulable(event.stored.object) &&
      !(event.previous && isSchedulable(event.previous.object))
    ) {
      for (const key of this.parked) this.unscheduled.add(key);
      this.parked.clear();
    }
    if (event.resource !== 'pods') return;
    if (event.previous) this.track(event.previous.object, event.key, false);
    if (event.type !== 'DELETED') this.track(event.stored.object, event.key, true);
    if (event.type === 'ADDED') this.startIfBound(event.stored.object);
    else {
      this.unscheduled.delete(event.key);
      this.parked.delete(event.key);
    }
  }

  private track(pod: KubeObject, key: string, add: boolean): void {
    const nodeName = (pod.spec as { nodeName?: string } | undefined)?.nodeName;
    if (!nodeName) {
      if (add && podStageOf(pod) !== 'Unschedulable') this.unscheduled.add(key);
      return;
    }
    let set = this.podsByNode.get(nodeName);
    if (add) {
      if (!set) this.podsByNode.set(nodeName, (set = new Set()));
      set.add(key);
    } else set?.delete(key);
  }
}

function isSchedulable(node: KubeObject): boolean {
  return isNodeReady(node) && !isCordoned(node);
}
