// After sleep/resume or a network change, a feed re-establishes its watch at once (no waiting for a dead
// connection's inactivity timeout or a pending backoff) and reports how long its data was stale.
import { describe, expect, it } from 'vitest';
import { Feed } from '../../../main/bridge/feed';
import { RowProjector } from '../../../main/bridge/row-projection';
import { FakeClock } from '../../../main/cache/fake-clock';
import type { ListOptions, ListerWatcher, Watcher } from '../../../main/cache/lister-watcher';
import type { SyncState } from '../../../shared/protocol/sync-state';
import { FakeApi, pod } from './fake-api';

const pods = { group: '', version: 'v1', resource: 'pods' };

/** Records every watch the feed opens, so a test can see a new one start. */
function countingWatches(inner: ListerWatcher): { listerWatcher: ListerWatcher; watches: ListOptions[] } {
  const watches: ListOptions[] = [];
  return {
    watches,
    listerWatcher: {
      ...inner,
      watch: (options, signal): Promise<Watcher> => {
        watches.push({ ...options });
        return inner.watch(options, signal);
      },
    },
  };
}

describe('Feed.reconnect', () => {
  it('re-watches at once and reports the reconnect with how long the data was stale', async () => {
    const api = new FakeApi();
    api.apply(pod('default', 'a'));
    const clock = new FakeClock();
    const { listerWatcher, watches } = countingWatches(api.listerWatcher());
    const states: SyncState[] = [];
    const feed = new Feed({
      gvr: pods,
      namespace: '',
      newListerWatcher: () => listerWatcher,
      projector: new RowProjector(),
      clock,
      reflector: { backoff: () => 2_000 },
    });
    feed.attach({ record: () => undefined, syncStateChanged: (state) => states.push(state) });
    feed.start();
    await clock.stepAsync(0);
    await clock.stepAsync(500);
    expect(states.at(-1)).toEqual({ phase: 'synced' });
    expect(watches).toHaveLength(1);

    const suspendedAt = clock.now();
    clock.setTime(suspendedAt + 5 * 60_000);
    feed.reconnect('resumed from sleep', suspendedAt);
    expect(states.at(-1)).toMatchObject({ phase: 'reconnecting', since: suspendedAt });
    await clock.stepAsync(0);
    await clock.stepAsync(0);
    expect(watches).toHaveLength(2);
    expect(states.at(-1)).toEqual({
      phase: 'synced',
      reconnected: { at: clock.now(), staleForMs: clock.now() - suspendedAt, reason: 'resumed from sleep' },
    });
    await feed.stop();
  });
});
