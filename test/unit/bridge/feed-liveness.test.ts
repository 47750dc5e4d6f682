// What a feed claims about its data: a synced watch that has gone silent past the bookmark cadence
// says "no data" (and says synced again once data comes), and a manual refresh lists consistently,
// so it never shows a row older than the one it replaces nor deletes a row a lagging cache missed.
import { describe, expect, it } from 'vitest';
import { Feed } from '../../../main/bridge/feed';
import { defaultSilenceAfterMs } from '../../../main/bridge/watch-silence';
import { RowProjector } from '../../../main/bridge/row-projection';
import type { RowChange } from '../../../main/bridge/squash';
import { FakeClock } from '../../../main/cache/fake-clock';
import type { ListerWatcher } from '../../../main/cache/lister-watcher';
import type { KubeObject } from '../../../shared/kube/object';
import type { SyncState } from '../../../shared/protocol/sync-state';
import { FakeWatcher } from '../../support/fake-watcher';
import { FakeApi, pod } from './fake-api';

const pods = { group: '', version: 'v1', resource: 'pods' };

function feedOver(listerWatcher: ListerWatcher, clock = new FakeClock()) {
  const states: SyncState[] = [];
  const changes: RowChange[] = [];
  const feed = new Feed({
    gvr: pods,
    namespace: '',
    newListerWatcher: () => listerWatcher,
    projector: new RowProjector(),
    clock,
    reflector: { backoff: () => 2_000, log: () => {} },
  });
  feed.attach({ record: (change) => changes.push(change), syncStateChanged: (state) => states.push(state) });
  return { feed, states, changes, clock };
}

/** Pod `name` in default at `resourceVersion`, as the API server stores it. */
function stored(name: string, resourceVersion: string): KubeObject {
  const object = pod('default', name);
  object.metadata = { ...object.metadata, uid: `uid-${name}`, resourceVersion };
  return object;
}

describe('Feed liveness', () => {
  it('defaults to the API server bookmark cadence (60 s) plus a margin', () => {
    expect(defaultSilenceAfterMs).toBe(70_000);
  });

  it('says "no data" once a synced watch is silent past the threshold, and synced again when data comes', async () => {
    const api = new FakeApi();
    api.apply(pod('default', 'a'));
    const { feed, states, clock } = feedOver(api.listerWatcher());
    const syncedAt = clock.now(); // the in-memory list completes at once
    feed.start();
    await clock.stepAsync(500);
    expect(feed.syncState()).toEqual({ phase: 'synced' });

    await clock.stepAsync(defaultSilenceAfterMs - 501);
    expect(feed.syncState()).toEqual({ phase: 'synced' });
    await clock.stepAsync(1);
    expect(feed.syncState()).toEqual({ phase: 'synced', noDataSince: syncedAt });

    api.apply(pod('default', 'b'));
    await clock.stepAsync(0);
    expect(feed.syncState()).toEqual({ phase: 'synced' });
    const dataAt = clock.now();
    await clock.stepAsync(defaultSilenceAfterMs);
    expect(feed.syncState()).toEqual({ phase: 'synced', noDataSince: dataAt });
    expect(states.filter((state) => state.noDataSince !== undefined)).toHaveLength(2);
    await feed.stop();
  });

  it('counts a bookmark as data: a quiet watch with bookmarks every minute stays synced', async () => {
    const watcher = new FakeWatcher();
    const listerWatcher: ListerWatcher = {
      list: async () => ({ metadata: { resourceVersion: '5' }, items: [stored('a', '5')] }),
      watch: async () => watcher,
    };
    const { feed, clock } = feedOver(listerWatcher);
    feed.start();
    await clock.stepAsync(500);
    for (let minute = 1; minute <= 10; minute++) {
      await clock.stepAsync(61_000);
      watcher.bookmark({ apiVersion: 'v1', kind: 'Pod', metadata: { resourceVersion: '5' } });
      await clock.stepAsync(0);
      expect(feed.syncState()).toEqual({ phase: 'synced' });
    }
    await feed.stop();
  });

  it('times the silence of the current watch: a re-watch after a lost connection starts it over', async () => {
    const watchers: FakeWatcher[] = [];
    const listerWatcher: ListerWatcher = {
      list: async () => ({ metadata: { resourceVersion: '5' }, items: [stored('a', '5')] }),
      watch: async () => {
        watchers.push(new FakeWatcher());
        return watchers[watchers.length - 1]!;
      },
    };
    const { feed, clock } = feedOver(listerWatcher);
    feed.start();
    await clock.stepAsync(500);
    await clock.stepAsync(45_000);
    watchers[0]!.throw(Object.assign(new Error('http2: ping timeout'), { code: 'ERR_HTTP2_PING_CANCEL' }));
    await clock.stepAsync(0);
    expect(watchers).toHaveLength(2);
    await clock.stepAsync(60_000);
    expect(feed.syncState()).toEqual({ phase: 'synced' });
    const reopenedAt = clock.now() - 60_000;
    await clock.stepAsync(10_000);
    expect(feed.syncState()).toEqual({ phase: 'synced', noDataSince: reopenedAt });
    await feed.stop();
  });

  it('a manual resync lists at RV "" and so never goes back to a lagging watch cache', async () => {
    // The API server's watch cache answers RV "0" with a snapshot from before a@6 and b@7.
    let watchCacheLags = false;
    const listed: string[] = [];
    const listerWatcher: ListerWatcher = {
      list: async (options) => {
        listed.push(options.resourceVersion ?? '');
        return watchCacheLags && options.resourceVersion === '0'
          ? { metadata: { resourceVersion: '2' }, items: [stored('a', '2')] }
          : { metadata: { resourceVersion: '7' }, items: [stored('a', '6'), stored('b', '7')] };
      },
      watch: async () => new FakeWatcher(),
    };
    const { feed, changes, clock } = feedOver(listerWatcher);
    feed.start();
    await clock.stepAsync(500);
    expect(feed.rows().map((row) => `${row.key}@${row.resourceVersion}`)).toEqual([
      'default/a@6',
      'default/b@7',
    ]);
    const before = changes.length;

    watchCacheLags = true;
    await feed.resync();
    await clock.stepAsync(500);
    expect(listed).toEqual(['0', '']);
    expect(changes.slice(before)).toEqual([]);
    expect(feed.rows().map((row) => `${row.key}@${row.resourceVersion}`)).toEqual([
      'default/a@6',
      'default/b@7',
    ]);
    expect(feed.syncState()).toEqual({ phase: 'synced' });
    await feed.stop();
  });
});
