import { describe, expect, it } from 'vitest';
import type { OwnerSummary, Row } from '../../../shared/protocol';
import { SubscriptionMirror } from '../../../renderer/store/subscription-mirror';
import { ownedUidsThrough, ownerNameCounts, ownerQuery } from '../../../renderer/views/owner-names';
import { SortedOrder } from '../../../renderer/views/sorted-order';
import { deltaBatch, row } from '../bridge/fixtures';

const owner = (kind: string, name: string, uid: string): OwnerSummary => ({
  kind,
  name,
  uid,
  controller: true,
});
const deployment = (name: string, uid: string) => owner('Deployment', name, uid);

function mirrorOf(rows: Row[]): SubscriptionMirror {
  const mirror = new SubscriptionMirror();
  mirror.apply(deltaBatch(1, { replace: true, snapshotEnd: true, upserts: rows }));
  return mirror;
}

// Deployment web (two ReplicaSets: a rollout), a second web in another namespace, and api.
const replicaSets = () =>
  mirrorOf([
    row('shop/web-new', '1', { uid: 'rs-web-new', owners: [deployment('web', 'deploy-web')] }),
    row('shop/web-old', '1', { uid: 'rs-web-old', owners: [deployment('web', 'deploy-web')] }),
    row('lab/web-1', '1', { uid: 'rs-lab-web', owners: [deployment('web', 'deploy-lab-web')] }),
    row('shop/api-1', '1', { uid: 'rs-api', owners: [deployment('api', 'deploy-api')] }),
  ]);

const pod = (key: string, owners: OwnerSummary[]) => row(key, '1', { owners });
const pods = () =>
  mirrorOf([
    pod('shop/web-new-a', [owner('ReplicaSet', 'web-new', 'rs-web-new')]),
    pod('shop/web-new-b', [owner('ReplicaSet', 'web-new', 'rs-web-new')]),
    pod('shop/web-old-a', [owner('ReplicaSet', 'web-old', 'rs-web-old')]),
    pod('lab/web-1-a', [owner('ReplicaSet', 'web-1', 'rs-lab-web')]),
    pod('shop/api-1-a', [owner('ReplicaSet', 'api-1', 'rs-api')]),
    pod('shop/web-0', [owner('StatefulSet', 'web', 'sts-web')]),
    pod('shop/lonely', []),
  ]);

const byName = { column: 'name' as const };

describe('owner= through ReplicaSets', () => {
  it('finds the ReplicaSets of every Deployment with the name, in any namespace', () => {
    expect(ownedUidsThrough(replicaSets(), 'web').sort()).toEqual(['rs-lab-web', 'rs-web-new', 'rs-web-old']);
    expect(ownedUidsThrough(replicaSets(), 'web-new')).toEqual([]);
    expect(ownedUidsThrough(replicaSets(), 'nothing')).toEqual([]);
  });

  it('matches the pods of a Deployment and of direct owners with the name, sorted', () => {
    const keys = ownerQuery(pods(), 'web', {}, byName, new SortedOrder(), replicaSets());
    expect(keys).toEqual(['shop/web-0', 'lab/web-1-a', 'shop/web-new-a', 'shop/web-new-b', 'shop/web-old-a']);
  });

  it('matches only direct owners without the ReplicaSets mirrored, as before', () => {
    expect(ownerQuery(pods(), 'web', {}, byName, new SortedOrder())).toEqual(['shop/web-0']);
    expect(ownerQuery(pods(), 'web-new', {}, byName, new SortedOrder(), replicaSets())).toEqual([
      'shop/web-new-a',
      'shop/web-new-b',
    ]);
  });

  it('keeps the other filters, and nothing matches an unknown owner', () => {
    const inShop = { namespaces: new Set(['shop']) };
    expect(ownerQuery(pods(), 'web', inShop, byName, new SortedOrder(), replicaSets())).toEqual([
      'shop/web-0',
      'shop/web-new-a',
      'shop/web-new-b',
      'shop/web-old-a',
    ]);
    expect(ownerQuery(pods(), 'nobody', {}, byName, new SortedOrder(), replicaSets())).toEqual([]);
  });

  it('follows a rollout: a new ReplicaSet and its pods match once mirrored', () => {
    const sets = replicaSets();
    const podMirror = pods();
    sets.apply(
      deltaBatch(2, {
        upserts: [
          row('shop/web-next', '2', { uid: 'rs-web-next', owners: [deployment('web', 'deploy-web')] }),
        ],
      }),
    );
    podMirror.apply(
      deltaBatch(2, { upserts: [pod('shop/web-next-a', [owner('ReplicaSet', 'web-next', 'rs-web-next')])] }),
    );
    expect(ownerQuery(podMirror, 'web', {}, byName, new SortedOrder(), sets)).toContain('shop/web-next-a');
  });

  it('offers Deployment names for completion, counting the pods owner= would match', () => {
    const counts = (through?: SubscriptionMirror) =>
      Object.fromEntries([...ownerNameCounts(pods(), through)].map(([name, { size }]) => [name, size]));
    expect(counts()).toEqual({ 'web-new': 2, 'web-old': 1, 'web-1': 1, 'api-1': 1, web: 1 });
    expect(counts(replicaSets())).toEqual({
      'web-new': 2,
      'web-old': 1,
      'web-1': 1,
      'api-1': 1,
      web: 5,
      api: 1,
    });
  });
});
