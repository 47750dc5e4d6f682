import { describe, expect, it } from 'vitest';
import type { GroupVersionResource } from '../../../shared/kube/object';
import {
  SubscriptionPool,
  type PoolTimers,
  type Subscriber,
} from '../../../renderer/views/subscription-pool';

const pods: GroupVersionResource = { group: '', version: 'v1', resource: 'pods' };
const deployments: GroupVersionResource = { group: 'apps', version: 'v1', resource: 'deployments' };

/** Timers that fire only when the test says so. */
class ManualTimers implements PoolTimers {
  private pending = new Map<number, () => void>();
  private next = 1;
  set(callback: () => void): unknown {
    const id = this.next++;
    this.pending.set(id, callback);
    return id;
  }
  clear(timer: unknown): void {
    this.pending.delete(timer as number);
  }
  fireAll(): void {
    const callbacks = [...this.pending.values()];
    this.pending.clear();
    for (const callback of callbacks) callback();
  }
}

function recordingSubscriber(): Subscriber & { subscribed: string[]; unsubscribed: string[] } {
  let count = 0;
  const subscriber = {
    subscribed: [] as string[],
    unsubscribed: [] as string[],
    subscribe: (gvr: GroupVersionResource) => {
      const id = `${gvr.resource}-${++count}`;
      subscriber.subscribed.push(id);
      return Promise.resolve(id);
    },
    unsubscribe: (id: string) => subscriber.unsubscribed.push(id),
  };
  return subscriber;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A subscriber whose first subscribe fails ("down") and every later one answers "ok". */
function failingOnce(): ConstructorParameters<typeof SubscriptionPool>[0] {
  let attempts = 0;
  return {
    subscribe: () => (++attempts === 1 ? Promise.reject(new Error('down')) : Promise.resolve('ok')),
    unsubscribe: () => undefined,
  };
}

describe('SubscriptionPool', () => {
  it('gives views of the same kind one subscription', async () => {
    const subscriber = recordingSubscriber();
    const pool = new SubscriptionPool(subscriber, 60_000, new ManualTimers());
    expect(await pool.acquire(pods)).toBe(await pool.acquire(pods));
    expect(subscriber.subscribed).toEqual(['pods-1']);
  });

  it('keeps a kind switched away from, and reuses it when the view comes back before the linger ends', async () => {
    const subscriber = recordingSubscriber();
    const timers = new ManualTimers();
    const pool = new SubscriptionPool(subscriber, 60_000, timers);
    const first = await pool.acquire(pods);
    pool.release(pods);
    await pool.acquire(deployments);
    expect(await pool.acquire(pods)).toBe(first);
    timers.fireAll();
    await settle();
    expect(subscriber.subscribed).toEqual(['pods-1', 'deployments-2']);
    expect(subscriber.unsubscribed).toEqual([]);
  });

  it('unsubscribes once the last user has been gone for the linger, and subscribes afresh after', async () => {
    const subscriber = recordingSubscriber();
    const timers = new ManualTimers();
    const pool = new SubscriptionPool(subscriber, 60_000, timers);
    await pool.acquire(pods);
    await pool.acquire(pods);
    pool.release(pods);
    timers.fireAll();
    await settle();
    expect(subscriber.unsubscribed).toEqual([]);
    pool.release(pods);
    timers.fireAll();
    await settle();
    expect(subscriber.unsubscribed).toEqual(['pods-1']);
    expect(await pool.acquire(pods)).toBe('pods-2');
  });

  it('forgets a failed subscribe, so the next acquire asks again', async () => {
    const pool = new SubscriptionPool(failingOnce(), 60_000, new ManualTimers());
    await expect(pool.acquire(pods)).rejects.toThrow('down');
    expect(await pool.acquire(pods)).toBe('ok');
  });

  it('tells, without acquiring, the id of a kind held or lingering once main has accepted it', async () => {
    const subscriber = recordingSubscriber();
    const timers = new ManualTimers();
    const pool = new SubscriptionPool(subscriber, 60_000, timers);
    const acquired = pool.acquire(pods);
    // Not before main has answered: the view shows the kind as listing meanwhile.
    expect(pool.ready(pods)).toBeUndefined();
    const id = await acquired;
    expect(pool.ready(pods)).toBe(id);
    // Switched away: still mirrored while it lingers, so switching back shows its rows at once.
    pool.release(pods);
    expect(pool.ready(pods)).toBe(id);
    expect(pool.ready(deployments)).toBeUndefined();
    expect(subscriber.subscribed).toEqual(['pods-1']);
    timers.fireAll();
    expect(pool.ready(pods)).toBeUndefined();
  });

  it('keeps a prefetched kind mirrored after its views leave it, and subscribes to it once', async () => {
    const subscriber = recordingSubscriber();
    const timers = new ManualTimers();
    const pool = new SubscriptionPool(subscriber, 60_000, timers);
    pool.prefetch(deployments);
    pool.prefetch(deployments);
    await settle();
    // A first switch to it finds its rows in the very render that switches.
    expect(pool.ready(deployments)).toBe('deployments-1');
    expect(await pool.acquire(deployments)).toBe('deployments-1');
    pool.release(deployments);
    timers.fireAll();
    await settle();
    expect(pool.ready(deployments)).toBe('deployments-1');
    expect(subscriber.subscribed).toEqual(['deployments-1']);
    expect(subscriber.unsubscribed).toEqual([]);
  });

  it('asks again for a prefetch whose subscribe failed', async () => {
    const pool = new SubscriptionPool(failingOnce(), 60_000, new ManualTimers());
    pool.prefetch(deployments);
    await settle();
    expect(pool.ready(deployments)).toBeUndefined();
    pool.prefetch(deployments);
    await settle();
    expect(pool.ready(deployments)).toBe('ok');
  });
});
