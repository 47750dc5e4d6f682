// The Reflector's list-then-watch loop (client-go reflector_test.go): ListAndWatch, ListAndWatchWithErrors,
// re-watching and relisting, watch options and resourceVersion propagation.
import { describe, expect, it, vi } from 'vitest';
import { newStore } from '../../../main/cache/cache-store';
import { DeltaFIFO } from '../../../main/cache/delta-fifo';
import { FIFO } from '../../../main/cache/fifo';
import { metaNamespaceKeyFunc } from '../../../main/cache/keys';
import type { KubeObject } from '../../../shared/kube/object';
import { newStatus } from '../../../shared/kube/status';
import { FakeWatcher } from '../../support/fake-watcher';
import { ListWatch, listOf } from '../../support/list-watch';
import { eventually, keptWatches, newTestReflector, pod, settle, versions } from './reflector-fixtures';

const podStore = () => newStore<KubeObject>(metaNamespaceKeyFunc);

describe('Reflector list and watch', () => {
  it('TestReflectorListAndWatch: lists at "0" page 500, watches from the list RV, streams the events', async () => {
    const fifo = new DeltaFIFO<KubeObject>();
    const watcher = new FakeWatcher();
    const lw = new ListWatch({ list: () => listOf('1', [pod('foo', '1')]), watch: () => watcher });
    const { reflector, controller } = newTestReflector(lw, fifo);
    const done = reflector.listAndWatch(controller.signal);
    await settle();
    watcher.modify(pod('foo', '2'));
    for (const [name, resourceVersion] of [
      ['bar', '3'],
      ['baz', '4'],
      ['qux', '5'],
      ['zoo', '6'],
    ]) {
      watcher.add(pod(name, resourceVersion));
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
    expect(lw.listOptions).toEqual([{ resourceVersion: '0', limit: 500 }]);
    expect(lw.watchOptions).toEqual([
      { resourceVersion: '1', allowWatchBookmarks: true, timeoutSeconds: expect.any(Number) },
    ]);
  });

  it('TestReflectorListAndWatchWithErrors: each run starts from the previous list and reports its errors', async () => {
    const fifo = new FIFO<KubeObject>(metaNamespaceKeyFunc);
    const listError = new Error('a list error');
    const watchError = new Error('a watch error');
    const table: {
      list?: ReturnType<typeof listOf>;
      listErr?: Error;
      events?: [string, KubeObject][];
      watchErr?: Error;
    }[] = [
      {
        list: listOf('1', []),
        events: [
          ['ADDED', pod('foo', '2')],
          ['ADDED', pod('bar', '3')],
        ],
      },
      {
        list: listOf('3', [pod('foo', '2'), pod('bar', '3')]),
        events: [
          ['DELETED', pod('foo', '4')],
          ['ADDED', pod('qux', '5')],
        ],
      },
      { listErr: listError },
      { list: listOf('5', [pod('bar', '3'), pod('qux', '5')]), watchErr: watchError },
      { list: listOf('5', [pod('bar', '3'), pod('qux', '5')]), events: [['ADDED', pod('baz', '6')]] },
      { list: listOf('6', [pod('bar', '3'), pod('qux', '5'), pod('baz', '6')]) },
    ];
    for (const item of table) {
      if (item.list) expect(versions(fifo.list())).toEqual(versions(item.list.items));
      const controller = new AbortController();
      const lw = new ListWatch({
        list: () => {
          if (item.listErr) throw item.listErr;
          return item.list!;
        },
        watch: () => {
          if (item.watchErr) throw item.watchErr;
          const watcher = new FakeWatcher();
          for (const [type, object] of item.events ?? []) watcher.action(type as 'ADDED', object);
          setImmediate(() => controller.abort());
          return watcher;
        },
      });
      const { reflector } = newTestReflector(lw, fifo);
      const outcome = await reflector.listAndWatch(controller.signal).then(
        () => undefined,
        (error: unknown) => error,
      );
      if (item.listErr) {
        expect((outcome as Error).cause).toBe(listError);
        expect((outcome as Error).message).toBe('failed to list v1, Kind=Pod: a list error');
      } else if (item.watchErr) {
        expect(outcome).toBe(watchError);
      } else {
        expect(outcome).toBeUndefined();
      }
    }
  });

  it('relists after a backoff, and only after one, whenever listAndWatch ends', async () => {
    const listTimes: number[] = [];
    const lw = new ListWatch({
      list: () => {
        listTimes.push(clock.now());
        return listOf('1', []);
      },
      watch: () => {
        const watcher = new FakeWatcher();
        watcher.error(newStatus(410, 'Expired', 'too old'));
        return watcher;
      },
    });
    const { reflector, clock, controller } = newTestReflector(lw, podStore());
    const start = clock.now();
    const done = reflector.run(controller.signal);
    await eventually(() => listTimes.length === 3, clock);
    controller.abort();
    await done;
    expect(listTimes.map((time) => time - start)).toEqual([0, 800, 2400]);
    expect(lw.listOptions.map((options) => options.resourceVersion)).toEqual(['0', '1', '1']);
  });

  it('hands every listAndWatch error to the watch error handler before backing off', async () => {
    const failure = new Error('boom');
    const lw = new ListWatch({
      list: () => {
        throw failure;
      },
    });
    const { reflector, clock, controller, errors } = newTestReflector(lw, podStore());
    const done = reflector.run(controller.signal);
    await eventually(() => errors.length === 2, clock);
    controller.abort();
    await done;
    expect(errors.map((error) => (error as Error).cause)).toEqual([failure, failure]);
  });

  it('keeps running when the watch error handler throws', async () => {
    const lw = new ListWatch({
      list: () => {
        throw new Error('boom');
      },
    });
    const logged: string[] = [];
    const { reflector, clock, controller } = newTestReflector(lw, podStore(), {
      watchErrorHandler: () => {
        throw new Error('handler bug');
      },
      log: (message) => logged.push(message),
    });
    const done = reflector.run(controller.signal);
    await eventually(() => lw.listOptions.length === 2, clock);
    controller.abort();
    await done;
    expect(logged).toEqual(['Watch error handler failed', 'Watch error handler failed']);
  });

  it('re-watches at once from the last RV after a normal close, without relisting', async () => {
    const { lw, watchers } = keptWatches();
    const { reflector, controller } = newTestReflector(lw, podStore());
    const done = reflector.listAndWatch(controller.signal);
    await settle();
    watchers[0].add(pod('a', '7'));
    watchers[0].close();
    await settle();
    controller.abort();
    await done;
    expect(lw.listOptions).toHaveLength(1);
    expect(lw.watchOptions.map((options) => options.resourceVersion)).toEqual(['1', '7']);
    expect(watchers[0].stopCount).toBe(1);
  });

  it('logs a lost watch connection on one line by default, however long its details', async () => {
    const { lw, watchers } = keptWatches();
    const warned: string[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation((...parts: unknown[]) => {
      warned.push(parts.map(String).join(' '));
    });
    try {
      // The default logger: none given.
      const { reflector, controller } = newTestReflector(lw, podStore(), { log: undefined });
      const done = reflector.listAndWatch(controller.signal);
      await settle();
      watchers[0].add(pod('a', '7'));
      // An API server restarting resets its streams.
      watchers[0].throw(new Error('Stream closed with error code NGHTTP2_INTERNAL_ERROR'));
      await settle();
      controller.abort();
      await done;
    } finally {
      warn.mockRestore();
    }
    // console.warn(message, details) printed the details over five lines; one call, one line.
    expect(warned).toHaveLength(1);
    expect(warned[0]).not.toContain('\n');
    expect(warned[0]).toMatch(
      /^Watch connection lost; re-watching from the last synced resourceVersion reflector="test-reflector" .*resourceVersion="7" cause="Stream closed with error code NGHTTP2_INTERNAL_ERROR"$/,
    );
    expect(lw.watchOptions.map((options) => options.resourceVersion)).toEqual(['1', '7']);
  });

  it('ends listAndWatch after a very short watch, so run relists after a backoff', async () => {
    const lw = new ListWatch({
      list: () => listOf('1', []),
      watch: () => {
        const watcher = new FakeWatcher();
        watcher.close();
        return watcher;
      },
    });
    const { reflector, controller } = newTestReflector(lw, podStore());
    await reflector.listAndWatch(controller.signal);
    expect(lw.requests.map((request) => request.verb)).toEqual(['list', 'watch']);
  });
});

describe('Reflector watch options and resourceVersions', () => {
  it.each([
    { name: 'no timeout', minWatchTimeoutSeconds: undefined, expectedMin: 300 },
    { name: 'small timeout not honored', minWatchTimeoutSeconds: 1, expectedMin: 300 },
    { name: '30m timeout', minWatchTimeoutSeconds: 1800, expectedMin: 1800 },
  ])('TestWatchTimeout: $name', async ({ minWatchTimeoutSeconds, expectedMin }) => {
    for (const random of [0, 0.999_999]) {
      const controller = new AbortController();
      const lw = new ListWatch({
        list: () => listOf('10', []),
        watch: () => {
          controller.abort();
          return new FakeWatcher();
        },
      });
      const { reflector } = newTestReflector(lw, podStore(), {
        minWatchTimeoutSeconds,
        random: () => random,
      });
      await reflector.listAndWatch(controller.signal);
      const timeout = lw.watchOptions[0].timeoutSeconds!;
      expect(Number.isInteger(timeout)).toBe(true);
      expect(timeout).toBeGreaterThanOrEqual(expectedMin);
      expect(timeout).toBeLessThan(2 * expectedMin);
    }
  });

  it('TestReflectorResourceVersionUpdate: every event after a list at an exact RV updates the store', async () => {
    const updates: string[] = [];
    const store = Object.assign(podStore(), {
      updateResourceVersion: (resourceVersion: string) => updates.push(resourceVersion),
    });
    const watcher = new FakeWatcher();
    const lw = new ListWatch({ list: () => listOf('10', []), watch: () => watcher });
    const { reflector, controller } = newTestReflector(lw, store);
    const done = reflector.listAndWatch(controller.signal);
    watcher.add(pod('a', '10'));
    watcher.modify(pod('a', '20'));
    watcher.bookmark({ apiVersion: 'v1', kind: 'Pod', metadata: { resourceVersion: '30' } });
    watcher.delete(pod('a', '40'));
    await eventually(() => updates.length === 4);
    controller.abort();
    await done;
    expect(updates).toEqual(['10', '20', '30', '40']);
    expect(reflector.lastSyncResourceVersion()).toBe('40');
  });

  it('does not advance the RV on ADDED events of a watch started at RV "0" until another event comes', async () => {
    const watcher = new FakeWatcher();
    const lw = new ListWatch({ list: () => listOf('0', []), watch: () => watcher });
    const { reflector, controller } = newTestReflector(lw, podStore());
    const done = reflector.listAndWatch(controller.signal);
    watcher.add(pod('a', '5'));
    await settle();
    expect(reflector.lastSyncResourceVersion()).toBe('0');
    watcher.modify(pod('a', '6'));
    await settle();
    expect(reflector.lastSyncResourceVersion()).toBe('6');
    controller.abort();
    await done;
  });

  it('TestReflectorReplacesStoreOnUnsafeDelete: a relist after an ERROR event removes the corrupt object', async () => {
    const fifo = new FIFO<KubeObject>(metaNamespaceKeyFunc);
    const pods = [pod('foo-1', '1', { metadata: { namespace: 'ns' } }), pod('foo-2', '2'), pod('foo-3', '3')];
    const lists = [listOf('3', pods), listOf('5', pods)];
    const corrupt = pod('foo', '4', { metadata: { namespace: 'ns' } });
    const replaced: { resourceVersion: string; hadCorrupt: boolean; hasCorrupt: boolean }[] = [];
    const replace = fifo.replace.bind(fifo);
    fifo.replace = (list, resourceVersion) => {
      const hadCorrupt = fifo.get(corrupt) !== undefined;
      replace(list, resourceVersion);
      replaced.push({ resourceVersion, hadCorrupt, hasCorrupt: fifo.get(corrupt) !== undefined });
    };
    let sent = false;
    const lw = new ListWatch({
      list: () => lists.shift() ?? listOf('5', pods),
      watch: () => {
        const watcher = new FakeWatcher();
        if (!sent) {
          sent = true;
          watcher.add(corrupt);
          watcher.error(newStatus(500, 'StorageReadError', 'corrupt object has been deleted'));
        }
        return watcher;
      },
    });
    const { reflector, clock, controller } = newTestReflector(lw, fifo);
    const done = reflector.run(controller.signal);
    await eventually(() => reflector.lastSyncResourceVersion() === '5', clock);
    controller.abort();
    await done;
    expect(replaced).toEqual([
      { resourceVersion: '3', hadCorrupt: false, hasCorrupt: false },
      { resourceVersion: '5', hadCorrupt: true, hasCorrupt: false },
    ]);
    expect(fifo.list()).toHaveLength(3);
  });
});
