// Mirrors one kind while a view shows it, and stops when the view goes away or shows another kind.
// Context switches and reconnects are the bridge client's to handle (it resubscribes and resumes the
// same subscription ids), so neither resubscribes here.
import { useEffect, useState } from 'react';
import type { GroupVersionResource } from '../../shared/kube/object';
import { gvrKey } from '../../shared/kube/object';
import { useServices } from './app-context';

export function useSubscription(gvr: GroupVersionResource | undefined): string | undefined {
  const { bridge } = useServices();
  const [subscriptionId, setSubscriptionId] = useState<string | undefined>(undefined);
  const id = gvr ? gvrKey(gvr) : undefined;
  useEffect(() => {
    if (!gvr) return;
    let active = true;
    let subscribed: string | undefined;
    bridge.subscribe(gvr).then(
      (subscription) => {
        subscribed = subscription;
        if (active) setSubscriptionId(subscription);
        else bridge.unsubscribe(subscription);
      },
      (error: unknown) => console.warn(`could not subscribe to ${gvrKey(gvr)}:`, error),
    );
    return () => {
      active = false;
      setSubscriptionId(undefined);
      if (subscribed !== undefined) bridge.unsubscribe(subscribed);
    };
    // gvr is identified by its key: a new object with the same key is the same kind.
  }, [bridge, id]);
  return subscriptionId;
}
