// What a subscription and the session need of a feed, whether it is one informer (Feed) or the union
// of one informer per readable namespace (AccessAwareFeed): rows, sync state, subscribers, and the
// informer controls. SessionConnection and ClusterSession hold feeds only through this.
import type { GroupVersionResource, KubeObject } from '../../shared/kube/object';
import type { Row } from '../../shared/protocol/row';
import type { SyncState } from '../../shared/protocol/sync-state';
import type { FeedSubscriber } from './feed-options';
import type { RowProjector } from './row-projection';
import type { StartableFeed } from './feed-registry';

export interface FeedView extends StartableFeed {
  readonly gvr: GroupVersionResource;
  /** "" for all namespaces (and for cluster-scoped kinds). */
  readonly namespace: string;
  readonly description: string;
  stop(): Promise<void>;
  resync(): Promise<void>;
  reconnect(reason: string, staleSince: number): void;
  /** Tries again at once if its list or watch keeps failing (new credentials); else does nothing. */
  retryNow(): void;
  cachedObject(namespace: string, name: string): KubeObject | undefined;
  /** The rows the informer delivered; with `preview`, also a first LIST's rows as it arrives (Feed). */
  rows(options?: { preview?: boolean }): Row[];
  readonly count: number;
  syncState(): SyncState;
  attach(subscriber: FeedSubscriber): void;
  detach(subscriber: FeedSubscriber): void;
  readonly subscriberCount: number;
  /** Projects every cached object again with `projector` (the kind's printer columns changed). */
  reproject(projector: RowProjector): void;
}

/** True for a subscription refused by RBAC (retrying will not help; another scope might). */
export function isForbiddenState(state: SyncState): boolean {
  return state.phase === 'error' && state.error?.code === 403;
}

/**
 * The feed's count where it says how many there are: once synced, or while rows are arriving. A feed
 * whose first list has not answered (listing, or failing: the cluster cannot be reached) has none,
 * so that the sidebar never reads "0" for a cluster it could not list.
 */
export function knownCount(feed: FeedView): number | undefined {
  return feed.count > 0 || feed.syncState().phase === 'synced' ? feed.count : undefined;
}
