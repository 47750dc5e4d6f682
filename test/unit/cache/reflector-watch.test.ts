// One watch, drained into a store (client-go reflector_test.go: TestReflectorWatchHandler,
// TestReflectorStopWatch, TestReflectorHandleWatch*), plus the rules of handleAnyWatch.
import { describe, expect, it } from 'vitest';
import { newStore } from '../../../main/cache/cache-store';
import { FakeClock } from '../../../main/cache/fake-clock';
import { metaNamespaceKeyFunc } from '../../../main/cache/keys';
import type { WatchHandlerOptions } from '../../../main/cache/reflector-watch';
import {
  UnexpectedObjectError,
  VeryShortWatchError,
  errorStopRequested,
  handleAnyWatch,
} from '../../../main/cache/reflector-watch';
import type { Store } from '../../../main/cache/store';
import type { KubeObject } from '../../../shared/kube/object';
import { StatusError, isTooManyRequests, newStatus } from '../../../shared/kube/status';
import { FakeWatcher } from '../../support/fake-watcher';
import { initialEventsEnd, pod, settle, silent, versions } from './reflector-fixtures';

function handlerOptions(clock: FakeClock, signal: AbortSignal, extra: Partial<WatchHandlerOptions> = {}) {
  const resourceVersions: string[] = [];
  const options: WatchHandlerOptions = {
    name: 'test-reflector',
    typeDescription: 'v1, Kind=Pod',
    expectedType: { apiVersion: 'v1', kind: 'Pod' },
    clock,
    signal,
    exitOnInitialEventsEnd: false,
    setLastSyncResourceVersion: (resourceVersion) => resourceVersions.push(resourceVersion),
    log: silent,
    ...extra,
  };
  return { options, resourceVersions };
}

function podStore(...pods: KubeObject[]): Store {
  const store = newStore<KubeObject>(metaNamespaceKeyFunc);
  for (const item of pods) store.add(item);
  return store;
}

describe('handleAnyWatch', () => {
  it('TestReflectorWatchHandler: applies events, skips other kinds, tracks the last RV', async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    const store = podStore(pod('foo'), pod('bar'));
    let lastSync = '';
    const { options } = handlerOptions(clock, controller.signal, {
      setLastSyncResourceVersion: (resourceVersion) => {
        lastSync = resourceVersion;
        if (resourceVersion === '32') controller.abort();
      },
    });
    const watcher = new FakeWatcher();
    watcher.add({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'rejected' } });
    watcher.delete(pod('foo'));
    watcher.modify(pod('bar', '55'));
    watcher.add(pod('baz', '32'));

    const outcome = await handleAnyWatch(clock.now(), watcher, store, options);

    expect(outcome.error).toBe(errorStopRequested);
    expect(versions(store.list())).toEqual(['bar@55', 'baz@32']);
    expect(lastSync).toBe('32');
    expect(watcher.isStopped()).toBe(true);
  });

  it('TestReflectorStopWatch: an aborted signal ends the watch with errorStopRequested', async () => {
    const controller = new AbortController();
    controller.abort();
    const { options } = handlerOptions(new FakeClock(), controller.signal);
    const outcome = await handleAnyWatch(0, new FakeWatcher(), podStore(), options);
    expect(outcome.error).toBe(errorStopRequested);
  });

  it('TestReflectorHandleWatchStoppedBefore: reads and stops the watcher once each', async () => {
    const controller = new AbortController();
    controller.abort();
    const watcher = new FakeWatcher();
    const { options } = handlerOptions(new FakeClock(), controller.signal);
    const outcome = await handleAnyWatch(0, watcher, podStore(), options);
    expect(outcome.error).toBe(errorStopRequested);
    expect(watcher.calls).toEqual(['iterate', 'stop']);
  });

  it('TestReflectorHandleWatchStoppedAfter: a stop while waiting for events ends it and stops the watcher', async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    const watcher = new FakeWatcher();
    const { options } = handlerOptions(clock, controller.signal);
    const outcome = handleAnyWatch(clock.now(), watcher, podStore(), options);
    await settle();
    controller.abort();
    expect((await outcome).error).toBe(errorStopRequested);
    expect(watcher.calls).toEqual(['iterate', 'stop']);
  });

  it('TestReflectorHandleWatchResultChanClosedBefore: a stream closed at once is a VeryShortWatchError', async () => {
    const clock = new FakeClock();
    const watcher = new FakeWatcher();
    watcher.close();
    const { options } = handlerOptions(clock, new AbortController().signal);
    const outcome = await handleAnyWatch(clock.now(), watcher, podStore(), options);
    expect(outcome.error).toEqual(new VeryShortWatchError('test-reflector'));
    expect(watcher.calls).toEqual(['iterate', 'stop']);
  });

  it('TestReflectorHandleWatchResultChanClosedAfter: a stream closed within a second without events is very short', async () => {
    const clock = new FakeClock();
    const watcher = new FakeWatcher();
    const { options } = handlerOptions(clock, new AbortController().signal);
    const outcome = handleAnyWatch(clock.now(), watcher, podStore(), options);
    await clock.stepAsync(10);
    watcher.close();
    expect((await outcome).error).toBeInstanceOf(VeryShortWatchError);
    expect(watcher.calls).toEqual(['iterate', 'stop']);
  });

  it('treats a close after a second, even without events, as a normal end', async () => {
    const clock = new FakeClock();
    const watcher = new FakeWatcher();
    const { options } = handlerOptions(clock, new AbortController().signal);
    const outcome = handleAnyWatch(clock.now(), watcher, podStore(), options);
    await clock.stepAsync(1000);
    watcher.close();
    expect(await outcome).toEqual({ initialEventsEndReceived: false, eventCount: 0 });
    expect(watcher.isStopped()).toBe(true);
  });

  it('turns an ERROR event into its StatusError and stops the watcher', async () => {
    const watcher = new FakeWatcher();
    watcher.error(newStatus(429, 'TooManyRequests', 'slow down'));
    const { options } = handlerOptions(new FakeClock(), new AbortController().signal);
    const outcome = await handleAnyWatch(0, watcher, podStore(), options);
    expect(outcome.error).toBeInstanceOf(StatusError);
    expect(isTooManyRequests(outcome.error)).toBe(true);
    expect(watcher.stopCount).toBe(1);
  });

  it('turns an ERROR event without a Status into an UnexpectedObjectError', async () => {
    const watcher = new FakeWatcher();
    watcher.error(pod('bar'));
    const { options } = handlerOptions(new FakeClock(), new AbortController().signal);
    const outcome = await handleAnyWatch(0, watcher, podStore(), options);
    expect(outcome.error).toBeInstanceOf(UnexpectedObjectError);
  });

  it('ends a stream that fails without a Status as a close (a lost connection) and stops the watcher', async () => {
    const failure = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    const watcher = new FakeWatcher();
    watcher.add(pod('a', '1'));
    watcher.throw(failure);
    const store = podStore();
    const { options } = handlerOptions(new FakeClock(), new AbortController().signal);
    const outcome = await handleAnyWatch(0, watcher, store, options);
    expect(outcome.error).toBeUndefined();
    expect(outcome.connectionLost).toBe(failure);
    expect(versions(store.list())).toEqual(['a@1']);
    expect(watcher.isStopped()).toBe(true);
  });

  it('stores nothing for a bookmark but tells a bookmark-aware store its RV', async () => {
    const bookmarks: string[] = [];
    const store = Object.assign(podStore(), {
      bookmark: (resourceVersion: string) => bookmarks.push(resourceVersion),
    });
    const watcher = new FakeWatcher();
    watcher.bookmark({ apiVersion: 'v1', kind: 'Pod', metadata: { resourceVersion: '7' } });
    watcher.close();
    const clock = new FakeClock();
    const { options, resourceVersions } = handlerOptions(clock, new AbortController().signal);
    await handleAnyWatch(clock.now(), watcher, store, options);
    expect(store.list()).toEqual([]);
    expect(bookmarks).toEqual(['7']);
    expect(resourceVersions).toEqual(['7']);
  });

  it('reports whether an event other than ADDED has been seen', async () => {
    const seen: boolean[] = [];
    const watcher = new FakeWatcher();
    watcher.add(pod('a', '1'));
    watcher.add(pod('b', '2'));
    watcher.modify(pod('a', '3'));
    watcher.add(pod('c', '4'));
    watcher.close();
    const { options } = handlerOptions(new FakeClock(), new AbortController().signal, {
      setLastSyncResourceVersion: (_resourceVersion, besidesAdded) => seen.push(besidesAdded),
    });
    await handleAnyWatch(0, watcher, podStore(), options);
    expect(seen).toEqual([false, false, true, true]);
  });

  it('skips meta.k8s.io Tables and objects without metadata', async () => {
    const watcher = new FakeWatcher();
    watcher.add({ apiVersion: 'meta.k8s.io/v1', kind: 'Table', metadata: { name: 'table' } });
    watcher.add({ apiVersion: 'v1', kind: 'Pod' } as KubeObject);
    watcher.add(pod('kept', '3'));
    watcher.close();
    const store = podStore();
    const { options } = handlerOptions(new FakeClock(), new AbortController().signal);
    await handleAnyWatch(0, watcher, store, options);
    expect(versions(store.list())).toEqual(['kept@3']);
  });

  it('only logs a store that fails, and carries on', async () => {
    const logged: string[] = [];
    const store = podStore();
    store.add = () => {
      throw new Error('full');
    };
    const watcher = new FakeWatcher();
    watcher.add(pod('a', '1'));
    watcher.modify(pod('b', '2'));
    watcher.close();
    const { options } = handlerOptions(new FakeClock(), new AbortController().signal, {
      log: (message) => logged.push(message),
    });
    const outcome = await handleAnyWatch(0, watcher, store, options);
    expect(outcome.error).toBeUndefined();
    expect(logged).toEqual(['Unable to add watch event object to store']);
    expect(versions(store.list())).toEqual(['b@2']);
  });

  it('ends with the error of a failed resync', async () => {
    const resyncFailure = new Error('resync failed');
    const watcher = new FakeWatcher();
    const { options } = handlerOptions(new FakeClock(), new AbortController().signal, {
      resyncFailed: AbortSignal.abort(resyncFailure),
    });
    const outcome = await handleAnyWatch(0, watcher, podStore(), options);
    expect(outcome.error).toBe(resyncFailure);
    expect(watcher.isStopped()).toBe(true);
  });

  it('in watch-list mode returns at the initial-events-end bookmark and leaves the watcher open', async () => {
    const watcher = new FakeWatcher();
    watcher.add(pod('p1', '1'));
    watcher.bookmark(initialEventsEnd('2'));
    watcher.add(pod('p2', '3'));
    const store = podStore();
    const { options } = handlerOptions(new FakeClock(), new AbortController().signal, {
      exitOnInitialEventsEnd: true,
    });
    const outcome = await handleAnyWatch(0, watcher, store, options);
    expect(outcome).toEqual({ initialEventsEndReceived: true, eventCount: 2 });
    expect(versions(store.list())).toEqual(['p1@1']);
    expect(watcher.isStopped()).toBe(false);
  });

  it('in watch-list mode warns every 10 s while the bookmark is missing', async () => {
    const clock = new FakeClock();
    const logged: string[] = [];
    const watcher = new FakeWatcher();
    const { options } = handlerOptions(clock, new AbortController().signal, {
      exitOnInitialEventsEnd: true,
      log: (message) => logged.push(message),
    });
    const outcome = handleAnyWatch(clock.now(), watcher, podStore(), options);
    await clock.stepAsync(25_000);
    expect(logged).toHaveLength(2);
    expect(logged[0]).toContain('awaiting required bookmark event for initial events stream');
    watcher.close();
    await outcome;
    expect(clock.hasWaiters()).toBe(false);
  });
});
