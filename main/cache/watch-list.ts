// client-go reflector.go's watchList (KEP-3157 streaming lists): instead of a paged LIST, one WATCH with
// sendInitialEvents=true streams the current state as ADDED events and marks its end with a bookmark
// annotated k8s.io/initial-events-end. The same watch then carries on as the Reflector's watch.
import type { KubeObject } from '../../shared/kube/object';
import {
  isConnectionRefused,
  isProbableEOF,
  isResourceExpired,
  isTooLargeResourceVersion,
  isTooManyRequests,
} from '../../shared/kube/status';
import { newStore, newStoreWithTransformer } from './cache-store';
import type { Clock } from './clock';
import { deletionHandlingMetaNamespaceKeyFunc } from './keys';
import type { ListOptions, ListerWatcher, Watcher } from './lister-watcher';
import type { ExpectedType, ReflectorLogger } from './reflector-watch';
import { errorStopRequested, handleAnyWatch } from './reflector-watch';
import type { Store, TransformerAware } from './store';
import { untilAborted } from './until-aborted';

/** What watch-list needs from its Reflector: identity, transport, target store and RV bookkeeping. */
export interface WatchListHost<T extends KubeObject> {
  readonly name: string;
  readonly typeDescription: string;
  readonly expectedType?: ExpectedType;
  readonly clock: Clock;
  readonly listerWatcher: ListerWatcher<T>;
  readonly store: Store<T>;
  readonly log: ReflectorLogger;
  /** "" at first or once the last RV is known unavailable, else the last synced RV. */
  rewatchResourceVersion(): string;
  setLastSyncResourceVersionUnavailable(unavailable: boolean): void;
  setLastSyncResourceVersion(resourceVersion: string): void;
  watchTimeoutSeconds(): number;
  /** Waits one backoff delay; false when the signal aborted first. */
  backoff(signal: AbortSignal, error: unknown): Promise<boolean>;
}

/**
 * client-go's isWatchErrorRetriable: refused connections and 429s are retried after a backoff, with no
 * relist; the server is there but busy. So are connections that broke before the watch was opened
 * (a reset, a timeout): client-go's Request.Watch retries those itself (after 1 s, up to 10 times,
 * rest/with_retry.go) before the Reflector ever sees them; Kubetide's REST client leaves it here.
 */
export function isWatchErrorRetriable(error: unknown): boolean {
  return isConnectionRefused(error) || isTooManyRequests(error) || isProbableEOF(error);
}

export interface WatchListResult<T extends KubeObject> {
  /** The watch that delivered the initial events, still open: the Reflector keeps watching on it. */
  watcher: Watcher<T>;
  /** How many objects the initial events left in the store. */
  itemsListed: number;
}

/**
 * Streams the initial state into a fresh temporary store per attempt (keyed by
 * deletionHandlingMetaNamespaceKeyFunc, with the target store's transformer, so objects are
 * transformed there and again on replace), then replaces the target store with it at the bookmark's
 * resourceVersion. Returns the still-open watcher to continue watching on, or undefined when the signal
 * aborted. 429 and refused connections back off and retry; 410 and too-large RVs retry at once from
 * RV ""; a stream that closes before the bookmark starts a new attempt. Any other error rejects, and
 * the caller falls back to LIST.
 */
export async function watchList<T extends KubeObject>(
  host: WatchListHost<T>,
  signal: AbortSignal,
): Promise<WatchListResult<T> | undefined> {
  const transformer = (host.store as Partial<TransformerAware>).transformer?.();
  const retriable = async (error: unknown): Promise<boolean> => {
    if (isWatchErrorRetriable(error)) {
      host.log('watch-list failed - backing off', {
        reflector: host.name,
        type: host.typeDescription,
        error,
      });
      return await host.backoff(signal, error);
    }
    if (isResourceExpired(error) || isTooLargeResourceVersion(error)) {
      host.setLastSyncResourceVersionUnavailable(true);
      return true;
    }
    return false;
  };

  let watcher: Watcher<T>;
  let temporaryStore: Store<T>;
  let resourceVersion: string;
  for (;;) {
    if (signal.aborted) return undefined;
    resourceVersion = '';
    temporaryStore = (
      transformer
        ? newStoreWithTransformer<T>(deletionHandlingMetaNamespaceKeyFunc, transformer)
        : newStore<T>(deletionHandlingMetaNamespaceKeyFunc)
    ) as Store<T>;
    const options: ListOptions = {
      resourceVersion: host.rewatchResourceVersion(),
      allowWatchBookmarks: true,
      sendInitialEvents: true,
      resourceVersionMatch: 'NotOlderThan',
      timeoutSeconds: host.watchTimeoutSeconds(),
    };
    const start = host.clock.now();
    let opened;
    try {
      opened = await untilAborted(host.listerWatcher.watch(options, signal), signal, (late) => late.stop());
    } catch (error) {
      if (signal.aborted) return undefined;
      if (await retriable(error)) continue;
      if (signal.aborted) return undefined;
      throw error;
    }
    if (opened.aborted) return undefined;
    watcher = opened.value;

    const outcome = await handleAnyWatch(start, watcher, temporaryStore, {
      name: host.name,
      typeDescription: host.typeDescription,
      expectedType: host.expectedType,
      clock: host.clock,
      signal,
      exitOnInitialEventsEnd: true,
      setLastSyncResourceVersion: (rv, eventReceivedBesidesAdded) => {
        if (eventReceivedBesidesAdded) resourceVersion = rv;
      },
      log: host.log,
    });
    if (outcome.error !== undefined) {
      watcher.stop();
      if (outcome.error === errorStopRequested || signal.aborted) return undefined;
      if (await retriable(outcome.error)) continue;
      if (signal.aborted) return undefined;
      throw outcome.error;
    }
    if (outcome.initialEventsEndReceived) break;
  }

  host.setLastSyncResourceVersionUnavailable(false);
  const items = temporaryStore.list();
  try {
    host.store.replace(items, resourceVersion);
  } catch (error) {
    watcher.stop();
    throw new Error(`unable to sync watch-list result: ${messageOf(error)}`, { cause: error });
  }
  host.setLastSyncResourceVersion(resourceVersion);
  return { watcher, itemsListed: items.length };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
