// The node lifecycle controller's part in a cordon: a node whose spec.unschedulable is set (`kubectl
// cordon`, `drain`) carries the taint node.kubernetes.io/unschedulable:NoSchedule, and loses it when
// uncordoned, as kube-controller-manager keeps it (TaintNodeByCondition); `kubectl describe node` and
// a viewer's taints column show it. Nodes are noted as their writes come and tainted in the controller
// loop (sync), never from inside the store's event.
import type { KubeObject } from '../../shared/kube/object';
import type { ClusterStorage } from './cluster-storage';
import type { SimClock } from './clock';
import { formatTime } from './clock';
import type { ResourceType } from './resource-type';
import { isCordoned } from './workload-objects';

export const unschedulableTaintKey = 'node.kubernetes.io/unschedulable';

interface Taint {
  key: string;
  effect?: string;
  value?: string;
  timeAdded?: string;
}

function taintsOf(node: KubeObject): Taint[] {
  return ((node.spec as { taints?: Taint[] } | undefined)?.taints ?? []) as Taint[];
}

function hasTaint(node: KubeObject): boolean {
  return taintsOf(node).some((taint) => taint.key === unschedulableTaintKey && taint.effect === 'NoSchedule');
}

export class UnschedulableTaints {
  /** Nodes whose taint does not match their spec.unschedulable, until sync. */
  private readonly due = new Set<string>();
  private readonly nodes: ResourceType;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly storage: ClusterStorage,
    private readonly clock: SimClock,
  ) {
    this.nodes = storage.catalog.findAnyVersion('', 'nodes') as ResourceType;
    this.unsubscribe = storage.store.subscribe((event) => {
      if (event.resource !== 'nodes' || event.type === 'DELETED') return;
      const node = event.stored.object;
      if (isCordoned(node) !== hasTaint(node)) this.due.add(node.metadata.name ?? '');
    });
  }

  /** Taints the cordoned nodes noted since the last call, and untaints the uncordoned ones. */
  sync(): void {
    for (const name of this.due) {
      this.storage.mutate(this.nodes, undefined, name, (node) => {
        const wanted = isCordoned(node);
        if (wanted === hasTaint(node)) return false;
        const others = taintsOf(node).filter((taint) => taint.key !== unschedulableTaintKey);
        const taints = wanted
          ? [
              ...others,
              { key: unschedulableTaintKey, effect: 'NoSchedule', timeAdded: formatTime(this.clock.now()) },
            ]
          : others;
        const spec = { ...(node.spec as object) } as { taints?: Taint[] };
        if (taints.length > 0) spec.taints = taints;
        else delete spec.taints;
        node.spec = spec;
      });
    }
    this.due.clear();
  }

  close(): void {
    this.unsubscribe();
  }
}
