// The window's subscriptions by kind, shared and kept a while after use. Views that show the same kind
// (the table and a Children tab) share one mirror, and a kind the user just left stays mirrored for
// `lingerMs`: switching back (Pods -> Deployments -> Pods) then shows rows at once instead of
// listing 150,000 pods again. The price is the left kind's batches applied meanwhile, for a minute.
import type { GroupVersionResource } from '../../shared/kube/object';
import { gvrKey } from '../../shared/kube/object';

/** What the pool needs of the bridge client. */
export interface Subscriber {
  subscribe(gvr: GroupVersionResource): Promise<string>;
  unsubscribe(subscriptionId: string): void;
}

/** Timers, injected so tests run the lingering without waiting. */
export interface PoolTimers {
  set(callback: () => void, ms: number): unknown;
  clear(timer: unknown): void;
}

const globalTimers: PoolTimers = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

interface Entry {
  readonly subscription: Promise<string>;
  /** The subscription's id once main has accepted it (see ready). */
  id: string | undefined;
  users: number;
  release: unknown;
}

export const defaultLingerMs = 60_000;

export class SubscriptionPool {
  private readonly entries = new Map<string, Entry>();
  /** Kinds held for the pool's life (see prefetch), by key. */
  private readonly prefetched = new Map<string, Promise<string>>();

  constructor(
    private readonly subscriber: Subscriber,
    private readonly lingerMs = defaultLingerMs,
    private readonly timers: PoolTimers = globalTimers,
  ) {}

  /** The subscription id mirroring `gvr`, subscribing only when no user holds or recently held it. */
  acquire(gvr: GroupVersionResource): Promise<string> {
    const key = gvrKey(gvr);
    let entry = this.entries.get(key);
    if (!entry) {
      const subscription = this.subscriber.subscribe(gvr);
      const created: Entry = { subscription, id: undefined, users: 0, release: undefined };
      entry = created;
      this.entries.set(key, created);
      // A failed subscribe is forgotten, so the next acquire asks again.
      subscription.then(
        (id) => {
          created.id = id;
        },
        () => {
          if (this.entries.get(key) === created) this.entries.delete(key);
        },
      );
    }
    if (entry.release !== undefined) this.timers.clear(entry.release);
    entry.release = undefined;
    entry.users += 1;
    return entry.subscription;
  }

  /**
   * Mirrors `gvr` for as long as the pool lives, whether or not a view shows it: a first switch to it
   * then finds its rows here (ready) instead of asking main for a snapshot (see prefetched-kinds.ts).
   * Holds one use that is never released; a failed subscribe is forgotten, so a later call asks again.
   * Resolves with the subscription's id, as acquire does.
   */
  prefetch(gvr: GroupVersionResource): Promise<string> {
    const key = gvrKey(gvr);
    let subscription = this.prefetched.get(key);
    if (subscription === undefined) {
      const acquired = this.acquire(gvr);
      subscription = acquired;
      this.prefetched.set(key, acquired);
      acquired.catch(() => {
        if (this.prefetched.get(key) === acquired) this.prefetched.delete(key);
      });
    }
    return subscription;
  }

  /**
   * The id of a subscription to `gvr` that is held or lingering and already accepted, without
   * acquiring it: a view switching to a kind it mirrors can show its rows in the very render that
   * switches (acquire's promise answers only after the render, and the view showed the kind as
   * "listing" for at least one more frame). Undefined when acquire would have to subscribe or wait.
   */
  ready(gvr: GroupVersionResource): string | undefined {
    return this.entries.get(gvrKey(gvr))?.id;
  }

  /** One user of `gvr` is done; the last one's release unsubscribes after `lingerMs` unless reacquired. */
  release(gvr: GroupVersionResource): void {
    const key = gvrKey(gvr);
    const entry = this.entries.get(key);
    if (!entry || entry.users === 0) return;
    entry.users -= 1;
    if (entry.users > 0) return;
    entry.release = this.timers.set(() => {
      if (this.entries.get(key) !== entry || entry.users > 0) return;
      this.entries.delete(key);
      entry.subscription.then(
        (subscriptionId) => this.subscriber.unsubscribe(subscriptionId),
        () => undefined,
      );
    }, this.lingerMs);
  }
}
