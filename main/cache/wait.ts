// client-go shared_informer.go's WaitForCacheSync: the gate a controller passes before it trusts
// its caches (listers return partial data until every informer has synced).
import type { Clock } from './clock';

/** A cache's hasSynced (client-go's InformerSynced). */
export type InformerSynced = () => boolean;

/** How often waitForCacheSync polls (client-go's syncedPollPeriod). */
export const syncedPollPeriod = 100;

/**
 * Resolves true once every `cacheSyncs` function returns true, checking at once and then every
 * 100 ms on `clock`. Resolves false (never rejects) if `signal` aborts first.
 */
export async function waitForCacheSync(
  signal: AbortSignal,
  clock: Clock,
  ...cacheSyncs: InformerSynced[]
): Promise<boolean> {
  for (;;) {
    if (signal.aborted) return false;
    if (cacheSyncs.every((hasSynced) => hasSynced())) return true;
    try {
      await clock.sleep(syncedPollPeriod, signal);
    } catch {
      return false;
    }
  }
}
