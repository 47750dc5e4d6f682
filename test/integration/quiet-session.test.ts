// A quiet session at production settings: the embedded cluster's real bookmark cadence (a minute,
// and 2 s before each watch's timeout), the Reflector's real watch timeouts (5-10 min) and backoff,
// the watch stream's real inactivity timeout, the feed's real silence threshold. Thirty minutes of a
// FakeClock shared by server and client, over real HTTP: no kind relists after its first LIST, and
// no feed ever stops being "synced" nor claims "no data"; a watch stalled for minutes is re-watched
// from its last resourceVersion, without a LIST.
import { afterEach, describe, expect, it } from 'vitest';
import { Feed } from '../../main/bridge/feed';
import { RowProjector } from '../../main/bridge/row-projection';
import { FakeClock, flushMicrotasks } from '../../main/cache/fake-clock';
import type { ListerWatcher } from '../../main/cache/lister-watcher';
import type { ClusterConnection } from '../../main/kube/cluster-connection';
import { Kubeconfig } from '../../main/kube/kubeconfig';
import { httpListerWatcher } from '../../main/kube/lister-watcher';
import { defaultWatchInactivityTimeoutMs } from '../../main/kube/watch-stream';
import { RestClient } from '../../main/kube/rest-client';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import type { GroupVersionResource } from '../../shared/kube/object';
import type { SyncState } from '../../shared/protocol/sync-state';

const quietKinds: GroupVersionResource[] = [
  { group: '', version: 'v1', resource: 'namespaces' },
  { group: '', version: 'v1', resource: 'services' },
  { group: '', version: 'v1', resource: 'configmaps' },
  { group: 'apps', version: 'v1', resource: 'deployments' },
];

let cluster: EmbeddedCluster | undefined;
let connection: ClusterConnection | undefined;
const feeds: Feed[] = [];

afterEach(async () => {
  await Promise.all(feeds.splice(0).map((feed) => feed.stop()));
  connection?.close();
  await cluster?.close();
});

/** Lets socket I/O and promise chains run between clock steps: bytes sent are received. */
async function settleIo(): Promise<void> {
  for (let turn = 0; turn < 4; turn++) await flushMicrotasks();
}

/** Feeds for `kinds` over real HTTP, their requests and sync states recorded, all on `clock`. */
async function startFeeds(clock: FakeClock, kinds: GroupVersionResource[]) {
  cluster = await startEmbeddedCluster({ seed: 5, clock, simulate: false });
  connection = Kubeconfig.fromString(cluster.kubeconfigYaml()).connect();
  const client = new RestClient(connection);
  const requests: { resource: string; verb: 'list' | 'watch'; at: number; resourceVersion?: string }[] = [];
  const states = new Map<string, SyncState[]>();
  for (const gvr of kinds) {
    const inner = httpListerWatcher(client, gvr, '', undefined, { clock });
    const recorded: ListerWatcher = {
      supportsWatchList: false,
      list: (options, signal, transform) => {
        requests.push({ resource: gvr.resource, verb: 'list', at: clock.now() });
        return inner.list(options, signal, transform);
      },
      watch: (options, signal) => {
        requests.push({
          resource: gvr.resource,
          verb: 'watch',
          at: clock.now(),
          resourceVersion: options.resourceVersion,
        });
        return inner.watch(options, signal);
      },
    };
    const seen: SyncState[] = [];
    states.set(gvr.resource, seen);
    const feed = new Feed({
      gvr,
      namespace: '',
      newListerWatcher: () => recorded,
      projector: new RowProjector(),
      clock,
      reflector: { log: () => {} },
    });
    feed.attach({ record: () => {}, syncStateChanged: (state) => seen.push(state) });
    feed.start();
    feeds.push(feed);
  }
  for (let turn = 0; turn < 100 && feeds.some((feed) => feed.syncState().phase !== 'synced'); turn++) {
    await clock.stepAsync(250);
    await settleIo();
  }
  expect(feeds.map((feed) => feed.syncState())).toEqual(kinds.map(() => ({ phase: 'synced' })));
  return { cluster, requests, states };
}

/** Steps `clock` one second at a time for `seconds`, letting the sockets carry what was sent. */
async function runFor(clock: FakeClock, seconds: number): Promise<void> {
  for (let second = 0; second < seconds; second++) {
    await clock.stepAsync(1_000);
    await settleIo();
  }
}

describe('a quiet session at production settings', () => {
  it('makes no relist and never shows a stale "synced" in 30 minutes', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    const { requests, states } = await startFeeds(clock, quietKinds);
    await runFor(clock, 30 * 60);

    for (const gvr of quietKinds) {
      const lists = requests.filter(
        (request) => request.resource === gvr.resource && request.verb === 'list',
      );
      expect(lists, gvr.resource).toHaveLength(1);
      const afterSync = states.get(gvr.resource)!.slice(-1);
      expect(afterSync, gvr.resource).toEqual([{ phase: 'synced' }]);
      expect(states.get(gvr.resource)!.some((state) => state.noDataSince !== undefined)).toBe(false);
    }
    // Each kind re-watched as its watches timed out (every 5-10 minutes), not more.
    const watches = requests.filter((request) => request.verb === 'watch').length;
    expect(watches).toBeGreaterThanOrEqual(quietKinds.length * 3);
    expect(watches).toBeLessThanOrEqual(quietKinds.length * 7);
  }, 60_000);

  it('says "no data" for a watch stalled for 5 minutes, then re-watches it from its last RV at the HTTP/1.1 silence limit: no relist', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    const { cluster, requests, states } = await startFeeds(clock, quietKinds.slice(0, 1));
    const before = requests.length;
    const stalledAt = clock.now();
    expect(cluster.faults.stallWatches(300)).toBe(1);
    await runFor(clock, 6 * 60);
    const after = requests.slice(before);
    expect(after.filter((request) => request.verb === 'list')).toEqual([]);
    expect(after.length).toBeGreaterThanOrEqual(1);
    expect(after[0]!.resourceVersion).toBe(requests[before - 1]!.resourceVersion);
    // The connection is alive and only the stream is silent, so no transport check can call it dead:
    // over HTTP/1.1 the stream's silence limit (two missed bookmarks) ends it, never sooner (counted
    // from the stream's last byte, up to a clock step before the stall)...
    expect(after[0]!.at - stalledAt).toBeGreaterThan(defaultWatchInactivityTimeoutMs - 1_000);
    expect(after[0]!.at - stalledAt).toBeLessThan(defaultWatchInactivityTimeoutMs + 5_000);
    // ...and meanwhile the badge has said "no data" rather than a stale "synced", until the re-watch.
    const noData = states.get('namespaces')!.filter((state) => state.noDataSince !== undefined);
    expect(noData.length).toBeGreaterThan(0);
    expect(feeds[0]!.syncState()).toEqual({ phase: 'synced' });
  }, 60_000);
});
