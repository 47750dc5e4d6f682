// Kinds the window mirrors before the user first opens them. A first switch to a kind not mirrored
// waits for main's snapshot of it: at 150,000 pods under churn (load 15-25) the first switch to
// Deployments took 1.3-5.2 s (the subscribe's trip, 4,000-25,000 rows sent one batch per turn of
// main's loop, each batch ~1 s on its way through a socket busy with the pods' churn), against 45 ms
// for every later switch to it (pooled). These kinds are recorded, so main's informers watch them for
// the whole session anyway: mirroring them costs the page their rows once and their few changes a
// second after (the controllers above pods; ReplicaSets and Events, which change with every pod, are
// left out). They are asked for only once the viewed kind has synced, so the first view's list never
// shares the socket with them.
import { useEffect } from 'react';
import type { GroupVersionResource } from '../../shared/kube/object';
import { gvrKey } from '../../shared/kube/object';
import { useServices } from './app-context';
import type { CatalogKind } from './kind-catalog';
import { poolOf } from './use-subscription';

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

/** Mirrors the prefetched kinds for the window's life once the viewed kind has synced. */
export function usePrefetchedKinds(kinds: readonly CatalogKind[], viewedSynced: boolean): void {
  const { bridge } = useServices();
  useEffect(() => {
    const pool = poolOf(bridge);
    for (const gvr of kindsToPrefetch(kinds, viewedSynced)) pool.prefetch(gvr);
  }, [bridge, kinds, viewedSynced]);
}
