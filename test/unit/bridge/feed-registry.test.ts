import { describe, expect, it } from 'vitest';
import { FeedRegistry } from '../../../main/bridge/feed-registry';
import { FakeClock } from '../../../main/cache/fake-clock';

const pods = { group: '', version: 'v1', resource: 'pods' };

function registry() {
  const clock = new FakeClock();
  const log: string[] = [];
  const feeds = new FeedRegistry({
    clock,
    quietPeriodMs: 10_000,
    createFeed: (gvr, namespace) => ({
      start: () => log.push(`start ${gvr.resource} ${namespace}`),
      stop: () => {
        log.push(`stop ${gvr.resource} ${namespace}`);
      },
    }),
  });
  return { clock, log, feeds };
}

describe('FeedRegistry', () => {
  it('starts one feed per (resource, namespace) on first use and shares it', () => {
    const { log, feeds } = registry();
    const first = feeds.acquire(pods, '');
    const second = feeds.acquire(pods, '');
    feeds.acquire(pods, 'payments');
    expect(first).toBe(second);
    expect(log).toEqual(['start pods ', 'start pods payments']);
    expect(feeds.references(pods, '')).toBe(2);
  });

  it('stops a feed only a quiet period after its last release', () => {
    const { clock, log, feeds } = registry();
    feeds.acquire(pods, '');
    feeds.acquire(pods, '');
    feeds.release(pods, '');
    clock.step(60_000);
    expect(log).toEqual(['start pods ']);
    feeds.release(pods, '');
    clock.step(9_999);
    expect(log).toEqual(['start pods ']);
    clock.step(1);
    expect(log).toEqual(['start pods ', 'stop pods ']);
    expect(feeds.find(pods, '')).toBeUndefined();
  });

  it('keeps a feed running when it is acquired again within the quiet period', () => {
    const { clock, log, feeds } = registry();
    const feed = feeds.acquire(pods, '');
    feeds.release(pods, '');
    clock.step(5_000);
    expect(feeds.acquire(pods, '')).toBe(feed);
    clock.step(60_000);
    expect(log).toEqual(['start pods ']);
  });

  it('starts a fresh feed when acquired after it stopped', () => {
    const { clock, log, feeds } = registry();
    feeds.acquire(pods, '');
    feeds.release(pods, '');
    clock.step(10_000);
    feeds.acquire(pods, '');
    expect(log).toEqual(['start pods ', 'stop pods ', 'start pods ']);
  });

  it('ignores a release without an acquire', () => {
    const { clock, log, feeds } = registry();
    feeds.release(pods, '');
    feeds.acquire(pods, '');
    feeds.release(pods, '');
    feeds.release(pods, '');
    clock.step(10_000);
    expect(log).toEqual(['start pods ', 'stop pods ']);
  });

  it('caps the single-namespace feeds renderers ask for, but never those of an access union', () => {
    const clock = new FakeClock();
    const feeds = new FeedRegistry({
      clock,
      maxNamespacedFeeds: 2,
      createFeed: () => ({ start: () => undefined, stop: () => undefined }),
    });
    // A namespace-limited user's union: one informer per readable namespace, whatever their number.
    for (let index = 0; index < 5; index += 1) feeds.acquire(pods, `team-${index}`, { capped: false });
    feeds.acquire(pods, 'a');
    feeds.acquire(pods, 'b');
    expect(() => feeds.acquire(pods, 'c')).toThrow(/2 single-namespace watches/);
    // A namespace the union already reads is shared, not counted again.
    expect(() => feeds.acquire(pods, 'team-0')).not.toThrow();
  });
});
