// client-go Reflector.list: the LIST that (re)fills the store. Which resourceVersion it asks for decides
// whether the API server's watch cache can answer (RV "0" or an exact RV) or etcd must (RV ""), so
// the rules below are what keeps a fleet of relisting clients from overloading the control plane.
import type { KubeObject } from '../../shared/kube/object';
import { isResourceExpired, isTooLargeResourceVersion } from '../../shared/kube/status';
import type { ListOptions, ListerWatcher } from './lister-watcher';
import { ListPager, defaultPageSize } from './pager';
import type { Clock } from './clock';
import type { Store } from './store';
import type { Turns } from './turn-budget';
import { TurnBudget } from './turn-budget';
import { untilAborted } from './until-aborted';

/** Objects a store's replace takes back to back before yielding (the turn also ends at turnBudgetMs). */
const replacedPerTurn = 1000;

/**
 * A store that can replace in turns (DeltaFIFO.replaceInTurns): undefined once replaced at once,
 * else a promise of true once replaced, false if aborted first (the store untouched).
 */
interface TurnedReplace<T> {
  replaceInTurns(
    list: T[],
    resourceVersion: string,
    turn: Turns,
    signal: AbortSignal,
  ): Promise<boolean> | undefined;
}

/** What a Reflector remembers between lists and watches about resourceVersions. */
export interface ResourceVersionBookkeeping {
  /** The RV of the last list or watch event applied to the store; "" before the first. */
  lastSyncResourceVersion: string;
  /** Set when a LIST at lastSyncResourceVersion answered 410 or too-large; cleared by a good list. */
  lastSyncResourceVersionUnavailable: boolean;
  /** The first list at RV "0" came back in pages: the watch cache is off, so keep paging. */
  paginatedResult: boolean;
}

/**
 * "" once the last RV is unavailable (a consistent read from etcd), "0" before any sync (whatever
 * the watch cache has), else the last RV (never older than what the store has seen: #83520).
 */
export function relistResourceVersion(versions: ResourceVersionBookkeeping): string {
  if (versions.lastSyncResourceVersionUnavailable) return '';
  return versions.lastSyncResourceVersion === '' ? '0' : versions.lastSyncResourceVersion;
}

/**
 * Pages of 500 by default. A list at an exact RV is unpaged (0) so the watch cache can serve it,
 * unless pages are forced by `watchListPageSize` or the watch cache proved to be off.
 */
export function listPageSize(
  resourceVersion: string,
  watchListPageSize: number,
  versions: ResourceVersionBookkeeping,
): number {
  if (watchListPageSize !== 0) return watchListPageSize;
  if (versions.paginatedResult || resourceVersion === '' || resourceVersion === '0') return defaultPageSize;
  return 0;
}

export interface ListParameters<T extends KubeObject> {
  listerWatcher: ListerWatcher<T>;
  store: Store<T>;
  typeDescription: string;
  watchListPageSize: number;
  versions: ResourceVersionBookkeeping;
  /**
   * With a clock, a store that can replace in turns does (a DeltaFIFO): at 150,000 objects one
   * Replace held the thread for 0.3 s of CPU. Its commit is one step, as client-go's Replace is.
   */
  clock?: Clock;
}

/**
 * LISTs at relistResourceVersion and replaces the store with the result at the list's RV. A 410 or
 * too-large RV marks the last RV unavailable and retries at once at RV "". Resolves with the number
 * of items listed, or undefined when the signal aborted (the store is then untouched). Rejects with
 * "failed to list <type>: ..." (the cause is the server's error) or "unable to sync list result".
 */
export async function listIntoStore<T extends KubeObject>(
  { listerWatcher, store, typeDescription, watchListPageSize, versions, clock }: ListParameters<T>,
  signal: AbortSignal,
): Promise<number | undefined> {
  const options: ListOptions = { resourceVersion: relistResourceVersion(versions) };
  const pager = new ListPager<T>((pageOptions, pageSignal) => listerWatcher.list(pageOptions, pageSignal), {
    pageSize: listPageSize(options.resourceVersion!, watchListPageSize, versions),
  });

  let outcome;
  try {
    try {
      outcome = await untilAborted(pager.list(options, signal), signal);
    } catch (error) {
      if (signal.aborted || !(isResourceExpired(error) || isTooLargeResourceVersion(error))) throw error;
      versions.lastSyncResourceVersionUnavailable = true;
      outcome = await untilAborted(
        pager.list({ resourceVersion: relistResourceVersion(versions) }, signal),
        signal,
      );
    }
  } catch (error) {
    if (signal.aborted) return undefined;
    throw new Error(`failed to list ${typeDescription}: ${messageOf(error)}`, { cause: error });
  }
  if (outcome.aborted) return undefined;

  const { list, paginated } = outcome.value;
  if (options.resourceVersion === '0' && paginated) versions.paginatedResult = true;
  versions.lastSyncResourceVersionUnavailable = false;
  const resourceVersion = list.metadata?.resourceVersion ?? '';
  const items = list.items ?? [];
  const turned = (store as Partial<TurnedReplace<T>>).replaceInTurns;
  try {
    if (!clock || !turned) store.replace(items, resourceVersion);
    else {
      const turn = new TurnBudget(clock, replacedPerTurn);
      const replacing = turned.call(store, items, resourceVersion, turn, signal);
      if (replacing && !(await replacing)) return undefined;
    }
  } catch (error) {
    throw new Error(`unable to sync list result: ${messageOf(error)}`, { cause: error });
  }
  versions.lastSyncResourceVersion = resourceVersion;
  return items.length;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
