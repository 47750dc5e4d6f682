// Kinds the window mirrors before the user first opens them. A first switch to a kind not mirrored
// waits for main's snapshot of it: at 150,000 pods under churn (load 15-25) the first switch to
// Deployments took 1.3-5.2 s (the subscribe's trip, 4,000-25,000 rows sent one batch per turn of
// main's loop, each batch ~1 s on its way through a socket busy with the pods' churn), against 45 ms
// for every later switch to it (pooled). These kinds are recorded, so main's informers watch them for
// the whole session anyway: mirroring them costs the page their rows once and their few changes a
// second after (the controllers above pods; ReplicaSets and Events, which change with every pod, are
// left out). They are asked for only once the viewed kind has synced, so the first view's list never
// shares the socket with them. Their name order is also kept current in idle time: the first query of
// a mirror builds it (70-75 ms of CPU for 7,000 rows in Node, the first switch's one long task of
// 146 ms at 150,000 pods), a warm one answers in under a millisecond.
import { useEffect } from 'react';
import type { GroupVersionResource } from '../../shared/kube/object';
import { gvrKey } from '../../shared/kube/object';
import { useServices } from './app-context';
import type { CatalogKind } from './kind-catalog';
import { poolOf } from './use-subscription';
import { windowIdleReads } from './use-warm-label-indexes';
import { nameOrder } from '../store/name-order';
import type { SubscriptionMirror } from '../store/subscription-mirror';

const apps = (resource: string): GroupVersionResource => ({ group: 'apps', version: 'v1', resource });

export const prefetchedKinds: readonly GroupVersionResource[] = [
  apps('deployments'),
  apps('statefulsets'),
  apps('daemonsets'),
];

const prefetchedKeys = new Set(prefetchedKinds.map(gvrKey));

/**
 * The prefetched kinds among `kinds` (those main serves) that the user may read; none before
 * `viewedSynced` (the viewed kind's list is whole).
 */
export function kindsToPrefetch(
  kinds: readonly CatalogKind[],
  viewedSynced: boolean,
): GroupVersionResource[] {
  if (!viewedSynced) return [];
  return kinds
    .filter((kind) => prefetchedKeys.has(kind.id) && kind.forbidden === undefined)
    .map((kind) => kind.gvr);
}

/** Brings `mirror`'s name order up to date in idle moments, once its snapshot has ended; returns the stop. */
function keepNameOrderWarm(mirror: SubscriptionMirror): () => void {
  return windowIdleReads.add(() => {
    if (mirror.hasSnapshot) nameOrder(mirror);
  });
}

/**
 * Mirrors the prefetched kinds for the window's life once the viewed kind has synced, and keeps their
 * name orders warm while this view is mounted.
 */
export function usePrefetchedKinds(kinds: readonly CatalogKind[], viewedSynced: boolean): void {
  const { bridge } = useServices();
  const wanted = kindsToPrefetch(kinds, viewedSynced);
  // Keyed on the kinds, not on the catalog: main pushes the catalog again with every count, and each
  // new effect would put the idle read off by another period (it never ran under churn).
  const key = wanted.map(gvrKey).join(',');
  useEffect(() => {
    const pool = poolOf(bridge);
    const stops: (() => void)[] = [];
    let active = true;
    for (const gvr of wanted) {
      pool.prefetch(gvr).then(
        (subscriptionId) => {
          const mirror = bridge.store.mirror(subscriptionId);
          if (active && mirror) stops.push(keepNameOrderWarm(mirror));
        },
        () => undefined,
      );
    }
    return () => {
      active = false;
      for (const stop of stops) stop();
    };
    // `wanted` is named by `key`.
  }, [bridge, key]);
}
