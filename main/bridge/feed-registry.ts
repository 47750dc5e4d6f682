// Reference-counted feeds, one per (resource, namespace), as Lens's KubeWatchApi counts watches: the
// informer starts with its first subscription and stops a quiet period after its last one leaves, so
// flicking between kinds does not relist each time, and kinds nobody looks at cost nothing.
//
// Cluster-wide feeds are bounded by the kinds the server serves. Feeds of single namespaces are not
// (a client can name any number of namespaces), and each holds a watch, which over HTTP/1.1 holds a
// pooled socket: so they are capped per session, idle ones making way first, and a subscription past
// the cap is refused with 429 rather than starving every other request of a connection.
import type { Clock, Timer } from '../cache/clock';
import type { GroupVersionResource } from '../../shared/kube/object';
import { gvrKey } from '../../shared/kube/object';
import { StatusError, newStatus } from '../../shared/kube/status';

/** What the registry needs of a feed. */
export interface StartableFeed {
  start(): void;
  stop(): Promise<void> | void;
}

interface Entry<F> {
  feed: F;
  references: number;
  stopTimer: Timer | undefined;
  /** A single-namespace feed a renderer asked for, counted against maxNamespacedFeeds. */
  capped: boolean;
}

export interface AcquireOptions {
  /**
   * False for the per-namespace informers of a namespace-limited user's union (AccessAwareFeed): they
   * are bounded by the user's own namespace list, and refusing them would hide readable rows.
   */
  capped?: boolean;
}

export interface FeedRegistryOptions<F> {
  createFeed: (gvr: GroupVersionResource, namespace: string) => F;
  clock: Clock;
  /** How long an unused feed keeps running in case it is wanted again. */
  quietPeriodMs?: number;
  /**
   * Feeds of single namespaces that may run at once (default 100): with the cluster-wide feeds of
   * every served kind, this keeps a session's watches well inside the API client's pool of 256
   * sockets, leaving room for LISTs and one-off requests.
   */
  maxNamespacedFeeds?: number;
}

export const defaultMaxNamespacedFeeds = 100;

export function feedKey(gvr: GroupVersionResource, namespace: string): string {
  return `${gvrKey(gvr)}|${namespace}`;
}

export class FeedRegistry<F extends StartableFeed> {
  private readonly entries = new Map<string, Entry<F>>();
  private readonly quietPeriodMs: number;

  constructor(private readonly options: FeedRegistryOptions<F>) {
    this.quietPeriodMs = options.quietPeriodMs ?? 60_000;
  }

  /** The feed for (gvr, namespace), started if it was not running; pair with one release(). */
  acquire(gvr: GroupVersionResource, namespace: string, options: AcquireOptions = {}): F {
    const key = feedKey(gvr, namespace);
    const capped = namespace !== '' && (options.capped ?? true);
    let entry = this.entries.get(key);
    if (!entry) {
      if (capped) this.makeRoomForNamespacedFeed(gvr, namespace);
      entry = { feed: this.options.createFeed(gvr, namespace), references: 0, stopTimer: undefined, capped };
      this.entries.set(key, entry);
      entry.feed.start();
    } else if (!capped) {
      // Now also part of an access union: never evicted to make room, nor counted.
      entry.capped = false;
    }
    entry.stopTimer?.stop();
    entry.stopTimer = undefined;
    entry.references += 1;
    return entry.feed;
  }

  /** Drops one reference; the last one schedules the feed's stop after the quiet period. */
  release(gvr: GroupVersionResource, namespace: string): void {
    const key = feedKey(gvr, namespace);
    const entry = this.entries.get(key);
    if (!entry || entry.references === 0) return;
    entry.references -= 1;
    if (entry.references > 0) return;
    entry.stopTimer = this.options.clock.setTimeout(() => {
      if (this.entries.get(key) !== entry || entry.references > 0) return;
      this.entries.delete(key);
      void entry.feed.stop();
    }, this.quietPeriodMs);
  }

  /** Stops an idle namespaced feed when the cap is reached; throws 429 when every one is in use. */
  private makeRoomForNamespacedFeed(gvr: GroupVersionResource, namespace: string): void {
    const limit = this.options.maxNamespacedFeeds ?? defaultMaxNamespacedFeeds;
    const namespaced = [...this.entries].filter(([, entry]) => entry.capped);
    if (namespaced.length < limit) return;
    const idle = namespaced.find(([, entry]) => entry.references === 0);
    if (!idle) {
      throw new StatusError(
        newStatus(
          429,
          'TooManyRequests',
          `cannot watch ${gvrKey(gvr)} in namespace ${namespace}: ${limit} single-namespace watches ` +
            'are already running, the most one session runs; subscribe to all namespaces instead',
        ),
      );
    }
    const [key, entry] = idle;
    entry.stopTimer?.stop();
    this.entries.delete(key);
    void entry.feed.stop();
  }

  /** A running feed, whether or not anyone holds it. */
  find(gvr: GroupVersionResource, namespace: string): F | undefined {
    return this.entries.get(feedKey(gvr, namespace))?.feed;
  }

  feeds(): F[] {
    return [...this.entries.values()].map((entry) => entry.feed);
  }

  references(gvr: GroupVersionResource, namespace: string): number {
    return this.entries.get(feedKey(gvr, namespace))?.references ?? 0;
  }

  /** Stops every feed at once, held or not. */
  async stopAll(): Promise<void> {
    const entries = [...this.entries.values()];
    this.entries.clear();
    for (const entry of entries) entry.stopTimer?.stop();
    await Promise.all(entries.map((entry) => entry.feed.stop()));
  }
}
