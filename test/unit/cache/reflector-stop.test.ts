// Stopping a Reflector (client-go reflector_test.go: WatchStoppedBefore/After, CloseWatchChannelOnError,
// RunUntil): an aborted signal releases every request, watcher and timer at once.
import { describe, expect, it } from 'vitest';
import { newStore } from '../../../main/cache/cache-store';
import { metaNamespaceKeyFunc } from '../../../main/cache/keys';
import type { KubeList, KubeObject } from '../../../shared/kube/object';
import { FakeWatcher } from '../../support/fake-watcher';
import { ListWatch, listOf } from '../../support/list-watch';
import { eventually, keptWatches, newTestReflector, pod, settle } from './reflector-fixtures';

const podStore = () => newStore<KubeObject>(metaNamespaceKeyFunc);

describe('Reflector stop', () => {
  it('TestReflectorWatchStoppedBefore: a stopped signal makes no list or watch call', async () => {
    const lw = new ListWatch({});
    const { reflector, controller } = newTestReflector(lw, podStore());
    controller.abort();
    await reflector.listAndWatch(controller.signal);
    await reflector.run(controller.signal);
    expect(lw.requests).toEqual([]);
  });

  it('TestReflectorWatchStoppedAfter: a stop during the watch stops the watcher and resolves', async () => {
    const { lw, watchers } = keptWatches();
    const { reflector, controller } = newTestReflector(lw, podStore());
    const done = reflector.listAndWatch(controller.signal);
    await settle();
    controller.abort();
    await done;
    expect(watchers).toHaveLength(1);
    expect(watchers[0].isStopped()).toBe(true);
  });

  it('TestCloseWatchChannelOnError: an ERROR event ends listAndWatch and stops the watcher', async () => {
    const watcher = new FakeWatcher();
    const lw = new ListWatch({ list: () => listOf('1', []), watch: () => watcher });
    const { reflector, controller } = newTestReflector(lw, podStore());
    const done = reflector.listAndWatch(controller.signal);
    watcher.error(pod('bar'));
    await expect(done).resolves.toBeUndefined();
    expect(watcher.isStopped()).toBe(true);
  });

  it('TestRunUntil: run resolves on stop with the watcher stopped and no timer left', async () => {
    const watcher = new FakeWatcher();
    const store = podStore();
    const lw = new ListWatch({ list: () => listOf('1', []), watch: () => watcher });
    const { reflector, clock, controller } = newTestReflector(lw, store, { resyncPeriod: 60_000 });
    const done = reflector.run(controller.signal);
    watcher.add(pod('bar', '2'));
    await eventually(() => store.list().length === 1);
    controller.abort();
    await done;
    expect(watcher.stopCount).toBe(1);
    expect(clock.hasWaiters()).toBe(false);
  });

  it('stops during the backoff wait at once, cancelling its timer', async () => {
    const lw = new ListWatch({
      list: () => {
        throw new Error('unavailable');
      },
    });
    const { reflector, clock, controller } = newTestReflector(lw, podStore());
    const done = reflector.run(controller.signal);
    await settle();
    expect(clock.pendingDelays()).toEqual([800]);
    controller.abort();
    await done;
    expect(clock.hasWaiters()).toBe(false);
    expect(lw.listOptions).toHaveLength(1);
  });

  it('passes its signal to LIST and stops a hanging LIST without touching the store', async () => {
    let listSignal: AbortSignal | undefined;
    const store = podStore();
    const lw = new ListWatch({
      list: (_options, signal) => {
        listSignal = signal;
        return new Promise<KubeList>(() => {});
      },
    });
    const { reflector, controller } = newTestReflector(lw, store);
    const done = reflector.run(controller.signal);
    await settle();
    controller.abort();
    await done;
    expect(listSignal?.aborted).toBe(true);
    expect(lw.watchOptions).toEqual([]);
  });

  it('stops at once even when the ListerWatcher ignores the signal, releasing what arrives late', async () => {
    let deliver: (watcher: FakeWatcher) => void = () => {};
    const late = new FakeWatcher();
    const lw = new ListWatch({
      list: () => listOf('1', []),
      watch: () => new Promise<FakeWatcher>((resolve) => (deliver = resolve)),
    });
    const { reflector, controller } = newTestReflector(lw, podStore());
    const done = reflector.run(controller.signal);
    await settle();
    controller.abort();
    await done;
    deliver(late);
    await settle();
    expect(late.isStopped()).toBe(true);
  });
});
