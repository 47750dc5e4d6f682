// What an object owns, transitively, as k9s's xray shows it: a Deployment's ReplicaSets and, under
// each, its Pods; a CronJob's Jobs and their Pods; a Node's Pods. Each level is answered from the
// next kind's owner-uid index (or node index), so the tree costs one lookup per object in it, never a
// scan of a kind.
import type { Row } from '../../shared/protocol';
import type { SubscriptionMirror } from '../store/subscription-mirror';

/** One level down: the kind that holds it, and whether its rows point up by owner uid or node name. */
export interface OwnedLevel {
  readonly group: string;
  readonly resource: string;
  readonly via: 'owner' | 'node';
}

const replicaSets: OwnedLevel = { group: 'apps', resource: 'replicasets', via: 'owner' };
const jobs: OwnedLevel = { group: 'batch', resource: 'jobs', via: 'owner' };
const ownedPods: OwnedLevel = { group: '', resource: 'pods', via: 'owner' };
const scheduledPods: OwnedLevel = { group: '', resource: 'pods', via: 'node' };

/** The levels below each kind that owns what Kubetide follows, top first. */
export const ownedLevels: Readonly<Record<string, readonly OwnedLevel[]>> = {
  Deployment: [replicaSets, ownedPods],
  CronJob: [jobs, ownedPods],
  ReplicaSet: [ownedPods],
  StatefulSet: [ownedPods],
  DaemonSet: [ownedPods],
  Job: [ownedPods],
  Node: [scheduledPods],
};

export interface OwnedNode {
  readonly row: Row;
  /** The depth below the root object (0: its direct children). */
  readonly level: number;
  readonly children: readonly OwnedNode[];
}

export interface OwnedTree {
  readonly roots: readonly OwnedNode[];
  /** How many objects each level holds, top first. */
  readonly counts: readonly number[];
}

/**
 * The objects under `parent`: `levels[i]` is read from `mirrors[i]`; a level whose mirror is not there
 * yet (still subscribing) ends the tree there. Each level sorted by name.
 */
export function ownedTree(
  parent: Row,
  levels: readonly OwnedLevel[],
  mirrors: readonly (SubscriptionMirror | undefined)[],
): OwnedTree {
  const counts = levels.map(() => 0);
  const childrenOf = (owner: Row, level: number): OwnedNode[] => {
    const mirror = mirrors[level];
    const relation = levels[level];
    if (!mirror || !relation) return [];
    const keys =
      relation.via === 'owner'
        ? mirror.indexes.byOwnerUid.get(owner.uid)
        : mirror.indexes.byNode.get(owner.name);
    const rows: Row[] = [];
    for (const key of keys ?? []) {
      const row = mirror.rows.get(key);
      if (row) rows.push(row);
    }
    rows.sort((left, right) => left.name.localeCompare(right.name));
    counts[level] += rows.length;
    return rows.map((row) => ({ row, level, children: childrenOf(row, level + 1) }));
  };
  return { roots: childrenOf(parent, 0), counts };
}
