// Mirrors one kind while a view shows it, through the window's SubscriptionPool: views of the same kind
// share a subscription, and a kind left behind lingers a minute before main is told to stop.
// Context switches and reconnects are the bridge client's to handle (it resubscribes and resumes the
// same subscription ids), so neither resubscribes here.
import { useEffect, useState } from 'react';
import type { GroupVersionResource } from '../../shared/kube/object';
import { gvrKey } from '../../shared/kube/object';
import type { ViewBridge } from '../ui-state/view-bridge';
import { useServices } from './app-context';
import { SubscriptionPool } from './subscription-pool';

const pools = new WeakMap<ViewBridge, SubscriptionPool>();

/** The window's pool: one per bridge. */
export function poolOf(bridge: ViewBridge): SubscriptionPool {
  let pool = pools.get(bridge);
  if (!pool) {
    pool = new SubscriptionPool(bridge);
    pools.set(bridge, pool);
  }
  return pool;
}

export function useSubscription(gvr: GroupVersionResource | undefined): string | undefined {
  const { bridge } = useServices();
  // The id acquired for a kind, with the kind it is for: after a switch, until the effect below has
  // run, the state still names the kind before.
  const [acquired, setAcquired] = useState<{ key: string; subscriptionId: string } | undefined>(undefined);
  const id = gvr ? gvrKey(gvr) : undefined;
  useEffect(() => {
    if (!gvr || id === undefined) return;
    let active = true;
    const pool = poolOf(bridge);
    pool.acquire(gvr).then(
      (subscription) => {
        if (active) setAcquired({ key: id, subscriptionId: subscription });
      },
      (error: unknown) => console.warn(`could not subscribe to ${gvrKey(gvr)}:`, error),
    );
    return () => {
      active = false;
      pool.release(gvr);
    };
    // gvr is identified by its key: a new object with the same key is the same kind.
  }, [bridge, id]);
  if (!gvr || id === undefined) return undefined;
  if (acquired?.key === id) return acquired.subscriptionId;
  // Switched to a kind the window still mirrors (held, or left less than lingerMs ago): its rows
  // are shown in this render, never after a "listing" frame, whatever its informer is doing (a
  // relist keeps the rows it had). Never the kind before's id under this kind's title.
  return poolOf(bridge).ready(gvr);
}
