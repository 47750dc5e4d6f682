import { describe, expect, it } from 'vitest';
import type { OwnerSummary, Row } from '../../../shared/protocol';
import { SubscriptionMirror } from '../../../renderer/store/subscription-mirror';
import { ownedLevels, ownedTree, type OwnedNode } from '../../../renderer/views/owned-tree';
import { deltaBatch, row } from '../bridge/fixtures';

const owner = (kind: string, name: string): OwnerSummary => ({
  kind,
  name,
  uid: `uid-shop/${name}`,
  controller: true,
});

function mirrorOf(rows: Row[]): SubscriptionMirror {
  const mirror = new SubscriptionMirror();
  mirror.apply(deltaBatch(1, { replace: true, snapshotEnd: true, upserts: rows }));
  return mirror;
}

function outline(nodes: readonly OwnedNode[]): unknown[] {
  return nodes.map((node) =>
    node.children.length ? { [node.row.name]: outline(node.children) } : node.row.name,
  );
}

const deployment = row('shop/web');
const replicaSets = mirrorOf([
  row('shop/web-new', '1', { owners: [owner('Deployment', 'web')] }),
  row('shop/web-old', '1', { owners: [owner('Deployment', 'web')] }),
  row('shop/api-1', '1', { owners: [owner('Deployment', 'api')] }),
]);
const pods = mirrorOf([
  row('shop/web-new-b', '1', { owners: [owner('ReplicaSet', 'web-new')], node: 'n-1' }),
  row('shop/web-new-a', '1', { owners: [owner('ReplicaSet', 'web-new')], node: 'n-2' }),
  row('shop/web-old-a', '1', { owners: [owner('ReplicaSet', 'web-old')], node: 'n-1' }),
  row('shop/api-1-a', '1', { owners: [owner('ReplicaSet', 'api-1')], node: 'n-1' }),
]);

describe('ownedTree', () => {
  it("follows a Deployment through its ReplicaSets to their Pods, with counts per level (k9s's xray)", () => {
    const tree = ownedTree(deployment, ownedLevels['Deployment']!, [replicaSets, pods]);
    expect(outline(tree.roots)).toEqual([
      { 'web-new': ['web-new-a', 'web-new-b'] },
      { 'web-old': ['web-old-a'] },
    ]);
    expect(tree.counts).toEqual([2, 3]);
  });

  it('stops at the levels whose kind is not mirrored yet', () => {
    const tree = ownedTree(deployment, ownedLevels['Deployment']!, [replicaSets, undefined]);
    expect(outline(tree.roots)).toEqual(['web-new', 'web-old']);
    expect(tree.counts).toEqual([2, 0]);
  });

  it("finds a Node's Pods by the node index", () => {
    const tree = ownedTree(row('n-1'), ownedLevels['Node']!, [pods]);
    expect(outline(tree.roots)).toEqual(['api-1-a', 'web-new-b', 'web-old-a']);
    expect(tree.counts).toEqual([3]);
  });
});
