import { describe, expect, it } from 'vitest';
import { AccessAwareFeed } from '../../../main/bridge/access-aware-feed';
import { Feed, stripManagedFields } from '../../../main/bridge/feed';
import type { NamespaceAccess } from '../../../main/bridge/namespace-access';
import { RowProjector } from '../../../main/bridge/row-projection';
import type { RowChange } from '../../../main/bridge/squash';
import { FakeClock } from '../../../main/cache/fake-clock';
import type { ListerWatcher } from '../../../main/cache/lister-watcher';
import { StatusError, newStatus } from '../../../shared/kube/status';
import type { SyncState } from '../../../shared/protocol/sync-state';
import { FakeApi, pod } from './fake-api';

const pods = { group: '', version: 'v1', resource: 'pods' };

/** A ListerWatcher whose first `failures` LISTs fail with `status`, then serve `api`. */
function failingFirst(api: FakeApi, failures: number, code: number, reason: string): ListerWatcher {
  const inner = api.listerWatcher();
  let remaining = failures;
  return {
    ...inner,
    list: async (options, signal) => {
      if (remaining-- > 0) throw new StatusError(newStatus(code, reason, `${reason} listing pods`));
      return inner.list(options, signal);
    },
  };
}

/**
 * A LIST decoded as it arrives: the first `before` items, then a pause until release(), then the
 * rest (as main/kube's decoder calls transformItem per item).
 */
function gatedList(names: string[], before: number) {
  const api = new FakeApi();
  for (const name of names) api.apply(pod('default', name));
  const inner = api.listerWatcher();
  let release!: () => void;
  const restArrived = new Promise<void>((resolve) => (release = resolve));
  const listerWatcher: ListerWatcher = {
    ...inner,
    list: async (options, signal, transformItem) => {
      const list = await inner.list(options, signal);
      const items = list.items ?? [];
      const decoded = items.slice(0, before).map((item) => transformItem?.(item) ?? item);
      await restArrived;
      decoded.push(...items.slice(before).map((item) => transformItem?.(item) ?? item));
      return { ...list, items: decoded };
    },
  };
  return { listerWatcher, release };
}

function rowKey(change: RowChange): string {
  return change.type === 'deleted' ? change.key : change.row.key;
}

function feedOver(listerWatcher: ListerWatcher, clock = new FakeClock(), preview = false) {
  const states: SyncState[] = [];
  const changes: RowChange[] = [];
  const feed = new Feed({
    gvr: pods,
    namespace: '',
    newListerWatcher: () => listerWatcher,
    projector: new RowProjector(),
    clock,
    staleAfterMs: 5_000,
    reflector: { backoff: () => 2_000 },
  });
  feed.attach({
    record: (change) => changes.push(change),
    syncStateChanged: (state) => states.push(state),
    preview,
  });
  return { feed, states, changes, clock };
}

describe('Feed', () => {
  it('reports listing, then synced once the handler has the whole list', async () => {
    const api = new FakeApi();
    api.apply(pod('default', 'a'));
    const { feed, states, changes, clock } = feedOver(api.listerWatcher());
    feed.start();
    await clock.stepAsync(0);
    await clock.stepAsync(500);
    expect(states.at(-1)).toEqual({ phase: 'synced' });
    expect(changes.map((change) => change.type)).toEqual(['added']);
    await feed.stop();
  });

  it('reports synced as soon as the handler has the last listed item, not at the next progress tick', async () => {
    const { listerWatcher, release } = gatedList(['a', 'b', 'c'], 1);
    const { feed, states, changes, clock } = feedOver(listerWatcher);
    feed.start();
    await clock.stepAsync(0);
    expect(states.at(-1)?.phase).toBe('listing');
    await clock.stepAsync(100);
    release();
    // No time passes: the next progress tick is 150 ms away when the rest of the list is delivered.
    await clock.stepAsync(0);
    expect(changes).toHaveLength(3);
    expect(states.at(-1)).toEqual({ phase: 'synced' });
    await feed.stop();
  });

  it('reports listing progress page by page, with the total the first page announces', async () => {
    const api = new FakeApi();
    for (let index = 0; index < 1_200; index++) api.apply(pod('default', `p${index}`));
    const { feed, states, clock } = feedOver(api.listerWatcher());
    feed.start();
    await clock.stepAsync(0);
    await clock.stepAsync(500);
    const listing = states.filter((state) => state.phase === 'listing');
    expect(listing.slice(0, 3)).toEqual([
      { phase: 'listing', listed: 500, total: 1_200 },
      { phase: 'listing', listed: 1_000, total: 1_200 },
      { phase: 'listing', listed: 1_200, total: 1_200 },
    ]);
    expect(states.at(-1)).toEqual({ phase: 'synced' });
    await feed.stop();
  });

  it('reports reconnecting with the retry time and the Status, then stale past the threshold, then synced', async () => {
    const api = new FakeApi();
    const { feed, states, clock } = feedOver(failingFirst(api, 4, 500, 'InternalError'));
    const started = clock.now();
    feed.start();
    await clock.stepAsync(0);
    expect(states.at(-1)).toMatchObject({
      phase: 'reconnecting',
      since: started,
      retryAt: started + 2_000,
      error: { code: 500, reason: 'InternalError' },
    });
    await clock.stepAsync(2_000);
    await clock.stepAsync(2_000);
    await clock.stepAsync(2_000);
    expect(states.at(-1)).toMatchObject({ phase: 'stale', since: started, retryAt: started + 8_000 });
    await clock.stepAsync(2_000);
    const phases = states.map((state) => state.phase).filter((phase, index, all) => phase !== all[index - 1]);
    expect(phases).toEqual(['reconnecting', 'stale', 'synced']);
    expect(states.at(-1)).toEqual({ phase: 'synced' });
    await feed.stop();
  });

  it('reports error, not reconnecting, for a 403', async () => {
    const { feed, states, clock } = feedOver(failingFirst(new FakeApi(), 1, 403, 'Forbidden'));
    feed.start();
    await clock.stepAsync(0);
    expect(states.at(-1)).toMatchObject({ phase: 'error', error: { code: 403, reason: 'Forbidden' } });
    await feed.stop();
  });

  it('deletes rows a manual resync no longer finds', async () => {
    const api = new FakeApi();
    api.apply(pod('default', 'a'));
    api.apply(pod('default', 'b'));
    const { feed, changes, clock } = feedOver(api.listerWatcher());
    feed.start();
    await clock.stepAsync(500);
    await feed.stop();
    api.remove('default', 'a');
    await feed.resync();
    await clock.stepAsync(500);
    expect(changes.at(-1)).toEqual({ type: 'deleted', key: 'default/a' });
    expect(feed.rows().map((row) => row.key)).toEqual(['default/b']);
    await feed.stop();
  });

  it('skips updates that change nothing (resyncs, unchanged objects on relist)', async () => {
    const api = new FakeApi();
    api.apply(pod('default', 'a'));
    const { feed, changes, clock } = feedOver(api.listerWatcher());
    feed.start();
    await clock.stepAsync(500);
    await feed.resync();
    await clock.stepAsync(500);
    expect(changes).toHaveLength(1);
    await feed.stop();
  });

  it('previews the first LIST item by item as it is decoded, and says synced only once the informer has it', async () => {
    const gate = gatedList(['a', 'b', 'c', 'd'], 2);
    const { feed, states, changes, clock } = feedOver(gate.listerWatcher, new FakeClock(), true);
    const confirmed: RowChange[] = [];
    feed.attach({ record: (change) => confirmed.push(change), syncStateChanged: () => {} });
    feed.start();
    await clock.stepAsync(0);
    await clock.stepAsync(500);
    expect(feed.rows({ preview: true }).map((row) => row.key)).toEqual(['default/a', 'default/b']);
    expect(changes.map((change) => change.type)).toEqual(['added', 'added']);
    expect(states.at(-1)).toEqual({ phase: 'listing', listed: 2 });
    // Nothing is in the cache yet: a subscriber without previews has been told of nothing.
    expect(feed.rows()).toEqual([]);
    expect(feed.cachedObject('default', 'a')).toBeUndefined();
    expect(confirmed).toEqual([]);

    gate.release();
    await clock.stepAsync(500);
    expect(states.at(-1)).toEqual({ phase: 'synced' });
    expect(states.filter((state) => state.phase === 'synced')).toHaveLength(1);
    // The informer's delivery of the previewed items tells preview subscribers nothing again.
    const keys = (list: RowChange[]) => list.map((change) => `${change.type} ${rowKey(change)}`);
    const all = ['default/a', 'default/b', 'default/c', 'default/d'];
    expect(keys(changes)).toEqual(all.map((key) => `added ${key}`));
    expect(keys(confirmed)).toEqual(all.map((key) => `added ${key}`));
    expect(feed.cachedObject('default', 'a')).toBeDefined();
    await feed.stop();
  });

  it('withdraws previewed rows that the list which synced did not hold', async () => {
    const api = new FakeApi();
    for (const name of ['a', 'b', 'c']) api.apply(pod('default', name));
    const inner = api.listerWatcher();
    let lists = 0;
    // The first LIST fails after its first page (2 items); the object "a" is gone by the retry.
    const failingAfterPage: ListerWatcher = {
      ...inner,
      list: async (options, signal) => {
        if (lists++ === 0) return inner.list({ ...options, limit: 2 }, signal);
        if (options.continue) throw new StatusError(newStatus(500, 'InternalError', 'connection reset'));
        return inner.list(options, signal);
      },
    };
    const { feed, states, changes, clock } = feedOver(failingAfterPage, new FakeClock(), true);
    feed.start();
    await clock.stepAsync(0);
    expect(feed.rows({ preview: true }).map((row) => row.key)).toEqual(['default/a', 'default/b']);
    expect(states.at(-1)).toMatchObject({ phase: 'reconnecting' });
    api.remove('default', 'a');
    await clock.stepAsync(2_000);
    await clock.stepAsync(500);
    expect(states.at(-1)).toEqual({ phase: 'synced' });
    expect(feed.rows({ preview: true }).map((row) => row.key)).toEqual(['default/b', 'default/c']);
    expect(changes.at(-1)).toEqual({ type: 'deleted', key: 'default/a' });
    await feed.stop();
  });

  it('withdraws the preview when the informer stops before it has the list', async () => {
    const gate = gatedList(['a', 'b', 'c'], 1);
    const { feed, changes, clock } = feedOver(gate.listerWatcher, new FakeClock(), true);
    feed.start();
    await clock.stepAsync(0);
    expect(feed.rows({ preview: true }).map((row) => row.key)).toEqual(['default/a']);
    await feed.stop();
    expect(changes.at(-1)).toEqual({ type: 'deleted', key: 'default/a' });
    expect(feed.rows({ preview: true })).toEqual([]);
    gate.release();
  });

  it('reaches only the preview subscribers of an AccessAwareFeed over it', async () => {
    const gate = gatedList(['a', 'b'], 1);
    const clock = new FakeClock();
    const union = new AccessAwareFeed({
      gvr: pods,
      newClusterFeed: () => feedOver(gate.listerWatcher, clock).feed,
      acquire: () => {
        throw new Error('the cluster scope is allowed: no member feeds');
      },
      release: () => {},
      access: { clusterAccess: async () => 'allowed' } as unknown as NamespaceAccess,
      namespaced: true,
    });
    const previewed: RowChange[] = [];
    const confirmed: RowChange[] = [];
    union.attach({ record: (change) => previewed.push(change), syncStateChanged: () => {}, preview: true });
    union.attach({ record: (change) => confirmed.push(change), syncStateChanged: () => {} });
    union.start();
    await clock.stepAsync(0);
    expect(previewed.map(rowKey)).toEqual(['default/a']);
    expect(union.rows({ preview: true }).map((row) => row.key)).toEqual(['default/a']);
    expect(confirmed).toEqual([]);
    expect(union.rows()).toEqual([]);

    gate.release();
    await clock.stepAsync(500);
    expect(previewed.map(rowKey)).toEqual(['default/a', 'default/b']);
    expect(confirmed.map(rowKey)).toEqual(['default/a', 'default/b']);
    await union.stop();
  });

  it('strips managedFields as objects enter the cache', () => {
    const object = { metadata: { name: 'a', managedFields: [{}] } };
    expect(stripManagedFields(object)).toEqual({ metadata: { name: 'a' } });
  });
});
