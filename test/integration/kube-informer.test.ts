// Informers over real HTTP against the embedded cluster: main/kube's ListerWatcher feeding main/cache's
// SharedInformerFactory. Every scenario ends the same way: the informer's cache equals the server's
// state, object for object and resourceVersion for resourceVersion. Time is real here (sockets are),
// so timeouts and backoffs are set short and the final state is awaited by polling.
import { afterEach, describe, expect, it } from 'vitest';
import { newReflectorDelayHandler } from '../../main/cache/backoff';
import type { ReflectorTuning } from '../../main/cache/controller';
import { SharedInformerFactory } from '../../main/cache/informer-factory';
import type { ListOptions, ListerWatcher } from '../../main/cache/lister-watcher';
import type { SharedIndexInformer } from '../../main/cache/shared-informer';
import type { ClusterConnection } from '../../main/kube/cluster-connection';
import { Kubeconfig } from '../../main/kube/kubeconfig';
import { httpListerWatcher } from '../../main/kube/lister-watcher';
import { RestClient } from '../../main/kube/rest-client';
import { defaultWatchInactivityTimeoutMs } from '../../main/kube/watch-stream';
import { realClock } from '../../main/cache/real-clock';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import type { EmbeddedCluster, EmbeddedClusterOptions } from '../../main/sim/embedded-cluster';
import type { GroupVersionResource, KubeObject } from '../../shared/kube/object';
import { gvrKey } from '../../shared/kube/object';
import { churn, createWidgetDefinition, seedWorkload } from './kube-fixtures';

const pods: GroupVersionResource = { group: '', version: 'v1', resource: 'pods' };
const nodes: GroupVersionResource = { group: '', version: 'v1', resource: 'nodes' };
const deployments: GroupVersionResource = { group: 'apps', version: 'v1', resource: 'deployments' };
const widgets: GroupVersionResource = { group: 'example.com', version: 'v1', resource: 'widgets' };

interface RecordedCall {
  resource: string;
  verb: 'list' | 'watch';
  options: ListOptions;
}

interface Harness {
  cluster: EmbeddedCluster;
  calls: RecordedCall[];
  informer(gvr: GroupVersionResource): SharedIndexInformer<KubeObject>;
}

interface HarnessOptions {
  cluster?: EmbeddedClusterOptions;
  reflector?: ReflectorTuning<KubeObject>;
  resources?: GroupVersionResource[];
  inactivityTimeoutMs?: number;
  /** Runs before each LIST is sent (fault injection between pages). */
  beforeList?: (options: ListOptions, cluster: EmbeddedCluster) => void;
}

let cleanup: (() => Promise<void>) | undefined;

afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** Lists and watches every call, so tests can see pagination, relists and watch-list requests. */
function recording(
  inner: ListerWatcher<KubeObject>,
  resource: string,
  harness: Pick<Harness, 'calls' | 'cluster'>,
  options: HarnessOptions,
): ListerWatcher<KubeObject> {
  return {
    supportsWatchList: inner.supportsWatchList,
    list(listOptions, signal) {
      harness.calls.push({ resource, verb: 'list', options: { ...listOptions } });
      options.beforeList?.(listOptions, harness.cluster);
      return inner.list(listOptions, signal);
    },
    watch(watchOptions, signal) {
      harness.calls.push({ resource, verb: 'watch', options: { ...watchOptions } });
      return inner.watch(watchOptions, signal);
    },
  };
}

async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const cluster = await startEmbeddedCluster({ seed: 42, ...options.cluster });
  seedWorkload(cluster);
  createWidgetDefinition(cluster);
  const connection: ClusterConnection = Kubeconfig.fromString(cluster.kubeconfigYaml()).connect();
  const client = new RestClient(connection);
  const harness: Harness = { cluster, calls: [], informer: () => undefined as never };
  const factory = new SharedInformerFactory(
    (gvr, namespace, tweak) =>
      recording(
        httpListerWatcher(client, gvr, namespace, tweak, {
          inactivityTimeoutMs: options.inactivityTimeoutMs ?? 5_000,
        }),
        gvr.resource,
        harness,
        options,
      ),
    { reflector: { backoff: () => 20, ...options.reflector } },
  );
  harness.informer = (gvr) => factory.forResource(gvr).informer();
  for (const gvr of options.resources ?? [pods, deployments, nodes, widgets]) harness.informer(gvr);
  const stop = new AbortController();
  factory.start(stop.signal);
  cleanup = async () => {
    stop.abort();
    await factory.shutdown();
    connection.close();
    await cluster.close();
  };
  const synced = await factory.waitForCacheSync(AbortSignal.timeout(15_000));
  expect([...synced.values()].every(Boolean)).toBe(true);
  return harness;
}

/** key -> resourceVersion of every object the server holds for `gvr`. */
function serverState(cluster: EmbeddedCluster, gvr: GroupVersionResource): Map<string, string> {
  const key = gvr.group === '' ? gvr.resource : `${gvr.resource}.${gvr.group}`;
  const state = new Map<string, string>();
  for (const stored of cluster.store.values(key))
    state.set(objectKey(stored.object), stored.object.metadata.resourceVersion ?? '');
  return state;
}

function cacheState(informer: SharedIndexInformer<KubeObject>): Map<string, string> {
  return new Map(
    informer
      .getIndexer()
      .list()
      .map((object) => [objectKey(object), object.metadata.resourceVersion ?? '']),
  );
}

function objectKey(object: KubeObject): string {
  return object.metadata.namespace
    ? `${object.metadata.namespace}/${object.metadata.name}`
    : (object.metadata.name ?? '');
}

/** Polls until every informer's cache equals the server (real sockets: there is nothing to step). */
async function expectCachesToConverge(
  harness: Harness,
  resources: GroupVersionResource[],
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mismatched = resources.filter(
      (gvr) => !sameState(serverState(harness.cluster, gvr), cacheState(harness.informer(gvr))),
    );
    if (mismatched.length === 0) return;
    if (Date.now() > deadline) {
      const gvr = mismatched[0];
      expect(Object.fromEntries(cacheState(harness.informer(gvr))), gvrKey(gvr)).toEqual(
        Object.fromEntries(serverState(harness.cluster, gvr)),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function sameState(left: Map<string, string>, right: Map<string, string>): boolean {
  if (left.size !== right.size) return false;
  for (const [key, value] of left) if (right.get(key) !== value) return false;
  return true;
}

const everything = [pods, deployments, nodes, widgets];

/** A beforeList hook that answers the first LIST with 410, forcing a paged list from etcd. */
function expireFirstList(): NonNullable<HarnessOptions['beforeList']> {
  let first = true;
  return (_options, cluster) => {
    if (!first) return;
    first = false;
    cluster.faults.failNext({ count: 1, code: 410, verb: 'list' });
  };
}

describe('informers over HTTP against the embedded cluster', () => {
  it('sync pods, deployments, nodes and a custom kind, and stay equal to the server under churn', async () => {
    const harness = await startHarness();
    await expectCachesToConverge(harness, everything);
    expect(cacheState(harness.informer(pods)).size).toBeGreaterThan(20);
    for (let round = 0; round < 5; round++) churn(harness.cluster, round, 40);
    await expectCachesToConverge(harness, everything);
  });

  it('pages the initial LIST with the configured page size', async () => {
    // A LIST at resourceVersion "0" is served unpaged from the watch cache (as on a real apiserver), so
    // the first one is failed with 410: the Reflector then lists from etcd (resourceVersion ""), paged.
    const harness = await startHarness({
      resources: [pods],
      reflector: { watchListPageSize: 7, useWatchList: false },
      beforeList: expireFirstList(),
    });
    await expectCachesToConverge(harness, [pods]);
    const lists = harness.calls.filter((call) => call.verb === 'list');
    expect(lists[1].options).toMatchObject({ limit: 7, resourceVersion: '' });
    expect(lists.filter((call) => call.options.continue).length).toBeGreaterThan(2);
  });

  it('relists after 410 when the server restarts with compacted history', async () => {
    const harness = await startHarness({ resources: [pods, nodes], cluster: { eventWindow: 50 } });
    const listsBefore = harness.calls.filter((call) => call.verb === 'list').length;
    harness.cluster.faults.restartCompacted();
    for (let round = 0; round < 3; round++) churn(harness.cluster, round, 30);
    await expectCachesToConverge(harness, [pods, nodes]);
    expect(harness.calls.filter((call) => call.verb === 'list').length).toBeGreaterThan(listsBefore);
  });

  it('advances the resourceVersion of a quiet informer through bookmarks', async () => {
    const harness = await startHarness({ resources: [nodes], cluster: { bookmarkIntervalMs: 50 } });
    const synced = Number(harness.informer(nodes).lastSyncResourceVersion());
    churn(harness.cluster, 0, 30, { nodes: false });
    const deadline = Date.now() + 10_000;
    while (Number(harness.informer(nodes).lastSyncResourceVersion()) <= synced && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(Number(harness.informer(nodes).lastSyncResourceVersion())).toBeGreaterThan(synced);
    expect(harness.calls.find((call) => call.verb === 'watch')?.options.allowWatchBookmarks).toBe(true);
  });

  it('syncs through a streaming watch-list without any LIST', async () => {
    const harness = await startHarness({ resources: [pods, widgets], reflector: { useWatchList: true } });
    await expectCachesToConverge(harness, [pods, widgets]);
    expect(harness.calls.filter((call) => call.verb === 'list')).toEqual([]);
    expect(harness.calls[0].options).toMatchObject({
      sendInitialEvents: true,
      resourceVersionMatch: 'NotOlderThan',
      allowWatchBookmarks: true,
    });
    churn(harness.cluster, 1, 30);
    await expectCachesToConverge(harness, [pods, widgets]);
  });

  it('recovers from an expired continue token by listing in full', async () => {
    let expired = false;
    const expireFirst = expireFirstList();
    const harness = await startHarness({
      resources: [pods],
      reflector: { watchListPageSize: 5, useWatchList: false },
      beforeList: (options, cluster) => {
        expireFirst(options, cluster);
        if (options.continue && !expired) {
          expired = true;
          cluster.faults.expireContinueTokens();
        }
      },
    });
    await expectCachesToConverge(harness, [pods]);
    expect(expired).toBe(true);
    expect(
      harness.calls.some((call) => call.verb === 'list' && !call.options.limit && !call.options.continue),
    ).toBe(true);
  });

  it('re-watches from its last resourceVersion, with no LIST, when the connection drops (production timings)', async () => {
    const harness = await startHarness({
      resources: [pods],
      inactivityTimeoutMs: defaultWatchInactivityTimeoutMs,
      reflector: { backoff: newReflectorDelayHandler(realClock) },
    });
    churn(harness.cluster, 0, 10);
    await expectCachesToConverge(harness, [pods]);
    const resourceVersion = harness.informer(pods).lastSyncResourceVersion();
    const before = harness.calls.length;
    expect(harness.cluster.faults.dropWatches()).toBe(1);
    const deadline = Date.now() + 5_000;
    while (harness.calls.length === before && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    churn(harness.cluster, 1, 10);
    await expectCachesToConverge(harness, [pods]);
    expect(harness.calls.slice(before)).toEqual([
      { resource: 'pods', verb: 'watch', options: expect.objectContaining({ resourceVersion }) },
    ]);
  });

  const faults: [name: string, inject: (cluster: EmbeddedCluster) => void][] = [
    ['a dropped watch', (cluster) => cluster.faults.dropWatches()],
    [
      '410 on the re-watch',
      (cluster) => {
        cluster.faults.failNext({ count: 2, code: 410, verb: 'watch' });
        cluster.faults.dropWatches();
      },
    ],
    [
      '429 on the re-watch',
      (cluster) => {
        cluster.faults.failNext({ count: 2, code: 429, verb: 'watch', retryAfterSeconds: 0 });
        cluster.faults.dropWatches();
      },
    ],
    [
      '500 on the re-watch',
      (cluster) => {
        cluster.faults.failNext({ count: 2, code: 500, verb: 'watch' });
        cluster.faults.dropWatches();
      },
    ],
    [
      '500 on the relist',
      (cluster) => {
        cluster.faults.failNext({ count: 2, code: 500, verb: 'list' });
        cluster.faults.restartCompacted();
      },
    ],
    ['a watch stalled past the inactivity timeout', (cluster) => cluster.faults.stallWatches(3)],
    ['a malformed watch line', (cluster) => cluster.faults.corruptWatches('malformed')],
    ['a truncated watch line', (cluster) => cluster.faults.corruptWatches('truncated')],
    ['a restart with compacted history', (cluster) => cluster.faults.restartCompacted()],
  ];

  it.each(faults)('ends equal to the server after %s', async (_name, inject) => {
    const harness = await startHarness({
      resources: [pods, nodes],
      inactivityTimeoutMs: 400,
      cluster: { eventWindow: 200 },
    });
    const requestsBefore = harness.calls.length;
    inject(harness.cluster);
    churn(harness.cluster, 0, 30);
    churn(harness.cluster, 1, 30);
    await expectCachesToConverge(harness, [pods, nodes]);
    expect(harness.calls.length).toBeGreaterThan(requestsBefore);
  });
});
