// Streaming lists (client-go reflector_watchlist_test.go TestWatchList, and reflector_test.go
// TestReflectorListAndWatch in watch-list mode and TestReflectorRespectStoreTransformer).
import { describe, expect, it } from 'vitest';
import { newStore } from '../../../main/cache/cache-store';
import { DeltaFIFO } from '../../../main/cache/delta-fifo';
import { metaNamespaceKeyFunc } from '../../../main/cache/keys';
import type { ListOptions, ListerWatcher, Watcher } from '../../../main/cache/lister-watcher';
import type { KubeList, KubeObject, WatchEventType } from '../../../shared/kube/object';
import { StatusError, newStatus } from '../../../shared/kube/status';
import { FakeWatcher } from '../../support/fake-watcher';
import { listOf } from '../../support/list-watch';
import {
  driveClock,
  eventually,
  initialEventsEnd,
  newTestReflector,
  pod,
  settle,
  versions,
} from './reflector-fixtures';

const watchListRequest = {
  resourceVersion: '',
  allowWatchBookmarks: true,
  sendInitialEvents: true,
  resourceVersionMatch: 'NotOlderThan',
  timeoutSeconds: expect.any(Number),
};
const watchRequest = (resourceVersion: string) => ({
  resourceVersion,
  allowWatchBookmarks: true,
  timeoutSeconds: expect.any(Number),
});
const listRequest = { resourceVersion: '0', limit: 500 };

/** client-go's fakeListWatcher: one shared watcher, replaced by stopAndRecreateWatch. */
class FakeListWatcher implements ListerWatcher {
  watcher = new FakeWatcher();
  readonly requests: ListOptions[] = [];
  listCounter = 0;
  watchCounter = 0;
  closeAfterWatchRequests = 0;
  customListResponse?: KubeList;
  watchOptionsPredicate?: (options: ListOptions) => Error | undefined;

  constructor(private readonly stop: () => void) {}

  async list(options: ListOptions): Promise<KubeList> {
    this.listCounter++;
    this.requests.push({ ...options });
    if (this.customListResponse) return this.customListResponse;
    throw new Error('not implemented');
  }

  async watch(options: ListOptions): Promise<Watcher> {
    this.watchCounter++;
    this.requests.push({ ...options });
    if (this.watchCounter === this.closeAfterWatchRequests) this.stop();
    const failure = this.watchOptionsPredicate?.(options);
    if (failure) throw failure;
    return this.watcher;
  }

  /** The server ends the current stream; later watches get a fresh one. */
  stopAndRecreateWatch(): void {
    this.watcher.close();
    this.watcher = new FakeWatcher();
  }
}

interface Scenario {
  disableUseWatchList?: boolean;
  closeAfterWatchEvents?: number;
  closeAfterWatchRequests?: number;
  stopAfterWatchEvents?: number;
  watchOptionsPredicate?: (options: ListOptions) => Error | undefined;
  watchEvents?: [WatchEventType, KubeObject][];
  podList?: KubeList;
}

async function runScenario(scenario: Scenario) {
  const controller = new AbortController();
  const lw = new FakeListWatcher(() => controller.abort());
  lw.watchOptionsPredicate = scenario.watchOptionsPredicate;
  lw.closeAfterWatchRequests = scenario.closeAfterWatchRequests ?? 0;
  lw.customListResponse = scenario.podList;
  const store = newStore<KubeObject>(metaNamespaceKeyFunc);
  const { reflector, clock } = newTestReflector(lw, store, { useWatchList: !scenario.disableUseWatchList });
  const done = reflector.listAndWatch(controller.signal).then(
    () => undefined,
    (error: unknown) => error,
  );
  for (const [index, [type, object]] of (scenario.watchEvents ?? []).entries()) {
    const watcher = lw.watcher;
    watcher.action(type, object);
    await eventually(() => watcher.pendingCount === 0, clock);
    if (index + 1 === scenario.stopAfterWatchEvents) {
      lw.stopAndRecreateWatch();
      continue;
    }
    if (index + 1 === scenario.closeAfterWatchEvents) controller.abort();
  }
  const error = await driveClock(clock, done);
  return { error, lw, store };
}

describe('TestWatchList', () => {
  it('the reflector will not be synced while the bookmark has not been received', async () => {
    const { error, lw, store } = await runScenario({
      watchEvents: [['ADDED', pod('p1', '1')]],
      closeAfterWatchEvents: 1,
    });
    expect(error).toBeUndefined();
    expect([lw.watchCounter, lw.listCounter]).toEqual([1, 0]);
    expect(lw.requests).toEqual([watchListRequest]);
    expect(store.list()).toEqual([]);
  });

  it('the reflector uses the old LIST/WATCH semantics if useWatchList is off', async () => {
    const { lw, store } = await runScenario({
      disableUseWatchList: true,
      closeAfterWatchRequests: 1,
      podList: listOf('1', [pod('p1', '1')]),
    });
    expect([lw.watchCounter, lw.listCounter]).toEqual([1, 1]);
    expect(lw.requests).toEqual([listRequest, watchRequest('1')]);
    expect(versions(store.list())).toEqual(['p1@1']);
  });

  it('returning any other error from the watch-list forces a fallback to LIST', async () => {
    const { error, lw, store } = await runScenario({
      watchOptionsPredicate: (options) => (options.sendInitialEvents ? new Error('dummy error') : undefined),
      podList: listOf('1', [pod('p1', '1')]),
      closeAfterWatchEvents: 1,
      watchEvents: [['ADDED', pod('p2', '2')]],
    });
    expect(error).toBeUndefined();
    expect([lw.watchCounter, lw.listCounter]).toEqual([2, 1]);
    expect(lw.requests).toEqual([watchListRequest, listRequest, watchRequest('1')]);
    expect(versions(store.list())).toEqual(['p1@1', 'p2@2']);
  });

  it('the reflector falls back to LIST/WATCH when the server rejects streaming (Invalid)', async () => {
    const invalid = new StatusError(newStatus(422, 'Invalid', 'streaming is not allowed'));
    const { lw, store } = await runScenario({
      watchOptionsPredicate: (options) => (options.sendInitialEvents ? invalid : undefined),
      podList: listOf('1', [pod('p1', '1')]),
      closeAfterWatchEvents: 1,
      watchEvents: [['ADDED', pod('p2', '2')]],
    });
    expect(lw.requests).toEqual([watchListRequest, listRequest, watchRequest('1')]);
    expect(versions(store.list())).toEqual(['p1@1', 'p2@2']);
  });

  it('proves that the reflector is synced after receiving the bookmark', async () => {
    const { lw, store } = await runScenario({
      closeAfterWatchEvents: 3,
      watchEvents: [
        ['ADDED', pod('p1', '1')],
        ['ADDED', pod('p2', '2')],
        ['BOOKMARK', initialEventsEnd('2')],
      ],
    });
    expect(lw.requests).toEqual([watchListRequest]);
    expect(versions(store.list())).toEqual(['p1@1', 'p2@2']);
  });

  it('propagates updates and deletes received while streaming, until the bookmark', async () => {
    const { lw, store } = await runScenario({
      closeAfterWatchEvents: 6,
      watchEvents: [
        ['ADDED', pod('p1', '1')],
        ['ADDED', pod('p2', '2')],
        ['MODIFIED', pod('p1', '3', { spec: { activeDeadlineSeconds: 12 } })],
        ['ADDED', pod('p3', '4')],
        ['DELETED', pod('p3', '5')],
        ['BOOKMARK', initialEventsEnd('5')],
      ],
    });
    expect(lw.requests).toEqual([watchListRequest]);
    expect(store.list().sort((a, b) => a.metadata.name!.localeCompare(b.metadata.name!))).toEqual([
      pod('p1', '3', { spec: { activeDeadlineSeconds: 12 } }),
      pod('p2', '2'),
    ]);
  });

  it('retries a 429 after a backoff', async () => {
    let counter = 1;
    const { lw, store } = await runScenario({
      watchOptionsPredicate: () =>
        counter++ < 3
          ? new StatusError(newStatus(429, 'TooManyRequests', 'busy, check again later'))
          : undefined,
      closeAfterWatchEvents: 2,
      watchEvents: [
        ['ADDED', pod('p1', '1')],
        ['BOOKMARK', initialEventsEnd('2')],
      ],
    });
    expect(lw.requests).toEqual([watchListRequest, watchListRequest, watchListRequest]);
    expect(versions(store.list())).toEqual(['p1@1']);
  });

  it('a stream that ends before the bookmark starts a new watch-list request', async () => {
    const { lw, store } = await runScenario({
      stopAfterWatchEvents: 1,
      closeAfterWatchEvents: 3,
      watchEvents: [
        ['ADDED', pod('p1', '1')],
        ['ADDED', pod('p1', '1')],
        ['BOOKMARK', initialEventsEnd('1')],
      ],
    });
    expect(lw.requests).toEqual([watchListRequest, watchListRequest]);
    expect(versions(store.list())).toEqual(['p1@1']);
  });

  it('a stream that ends after the sync is followed by an ordinary watch from the last RV', async () => {
    const { lw, store } = await runScenario({
      stopAfterWatchEvents: 4,
      closeAfterWatchEvents: 5,
      watchEvents: [
        ['ADDED', pod('p1', '1')],
        ['ADDED', pod('p2', '2')],
        ['BOOKMARK', initialEventsEnd('2')],
        ['ADDED', pod('p3', '3')],
        ['ADDED', pod('p4', '4')],
      ],
    });
    expect(lw.requests).toEqual([watchListRequest, watchRequest('3')]);
    expect(versions(store.list())).toEqual(['p1@1', 'p2@2', 'p3@3', 'p4@4']);
  });

  it('a 410 when re-watching after the sync is returned from listAndWatch', async () => {
    let counter = 0;
    const expired = new StatusError(newStatus(410, 'Expired', 'rv already expired'));
    const { error, lw, store } = await runScenario({
      watchOptionsPredicate: () => (++counter === 2 ? expired : undefined),
      stopAfterWatchEvents: 3,
      watchEvents: [
        ['ADDED', pod('p1', '1')],
        ['BOOKMARK', initialEventsEnd('2')],
        ['ADDED', pod('p3', '3')],
      ],
    });
    expect(error).toBe(expired);
    expect(lw.requests).toEqual([watchListRequest, watchRequest('3')]);
    expect(versions(store.list())).toEqual(['p1@1', 'p3@3']);
  });

  it('checks the value of the initial-events-end annotation', async () => {
    const { lw, store } = await runScenario({
      closeAfterWatchEvents: 3,
      watchEvents: [
        ['ADDED', pod('p1', '1')],
        ['ADDED', pod('p2', '2')],
        ['BOOKMARK', initialEventsEnd('2', 'false')],
      ],
    });
    expect(lw.requests).toEqual([watchListRequest]);
    expect(store.list()).toEqual([]);
  });
});

describe('Reflector in watch-list mode', () => {
  it('TestReflectorListAndWatch (watch-list): one watch seeds the store, then streams on the same watcher', async () => {
    const fifo = new DeltaFIFO<KubeObject>();
    const controller = new AbortController();
    const lw = new FakeListWatcher(() => controller.abort());
    const { reflector } = newTestReflector(lw, fifo, { useWatchList: true });
    const done = reflector.listAndWatch(controller.signal);
    lw.watcher.add(pod('foo', '1'));
    lw.watcher.bookmark(initialEventsEnd('1'));
    lw.watcher.modify(pod('foo', '2'));
    for (const [name, resourceVersion] of [
      ['bar', '3'],
      ['baz', '4'],
      ['qux', '5'],
      ['zoo', '6'],
    ]) {
      lw.watcher.add(pod(name, resourceVersion));
    }
    await settle();
    const popped: string[] = [];
    for (let index = 0; index < 5; index++) {
      const deltas = await fifo.pop(() => {});
      const newest = deltas[deltas.length - 1].object as KubeObject;
      popped.push(`${newest.metadata.name}@${newest.metadata.resourceVersion}`);
    }
    controller.abort();
    await done;
    expect(popped).toEqual(['foo@2', 'bar@3', 'baz@4', 'qux@5', 'zoo@6']);
    expect(lw.requests).toEqual([watchListRequest]);
    expect(lw.watcher.isStopped()).toBe(true);
  });

  it('TestReflectorRespectStoreTransformer: the temp store and the queue both apply the transformer', async () => {
    let transformed = 0;
    const fifo = new DeltaFIFO<KubeObject>({
      transformer: (object) => {
        transformed++;
        (object as KubeObject).spec = { hostname: 'transformed' };
        return object;
      },
    });
    const controller = new AbortController();
    const lw = new FakeListWatcher(() => controller.abort());
    const withSpec = (name: string, resourceVersion: string) =>
      pod(name, resourceVersion, { metadata: { namespace: 'ns' }, spec: { hostname: 'test' } });
    lw.watcher.add(withSpec('foo-1', '1'));
    lw.watcher.add(withSpec('foo-2', '2'));
    lw.watcher.bookmark(initialEventsEnd('3'));
    lw.watcher.add(withSpec('foo-3', '3'));
    const { reflector, clock } = newTestReflector(lw, fifo, { useWatchList: true });
    const done = reflector.run(controller.signal);
    await eventually(
      () => reflector.lastSyncResourceVersion() === '3' && lw.watcher.pendingCount === 0,
      clock,
    );
    controller.abort();
    await done;
    expect(fifo.list()).toHaveLength(3);
    expect(
      fifo.list().every((object) => (object.spec as { hostname: string }).hostname === 'transformed'),
    ).toBe(true);
    expect(transformed).toBe(5);
  });

  it('is not used when the ListerWatcher declares it unsupported', async () => {
    const controller = new AbortController();
    const lw = Object.assign(new FakeListWatcher(() => controller.abort()), { supportsWatchList: false });
    lw.customListResponse = listOf('1', []);
    lw.closeAfterWatchRequests = 1;
    const { reflector } = newTestReflector(lw, newStore<KubeObject>(metaNamespaceKeyFunc), {
      useWatchList: true,
    });
    await reflector.listAndWatch(controller.signal);
    expect(lw.requests).toEqual([listRequest, watchRequest('1')]);
  });

  it('retries at RV "" right away when the watch-list answers 410', async () => {
    const controller = new AbortController();
    const lw = new FakeListWatcher(() => controller.abort());
    let calls = 0;
    lw.watchOptionsPredicate = () =>
      ++calls === 1 ? new StatusError(newStatus(410, 'Expired', 'too old')) : undefined;
    lw.watcher.bookmark(initialEventsEnd('9'));
    const { reflector, clock } = newTestReflector(lw, newStore<KubeObject>(metaNamespaceKeyFunc), {
      useWatchList: true,
    });
    const start = clock.now();
    const done = reflector.listAndWatch(controller.signal);
    await eventually(() => reflector.lastSyncResourceVersion() === '9');
    controller.abort();
    await done;
    expect(lw.requests).toEqual([watchListRequest, watchListRequest]);
    expect(clock.now()).toBe(start);
  });
});
