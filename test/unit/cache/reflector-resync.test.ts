// Periodic resync beside the watch (client-go reflector_test.go: ResyncChan, Resync).
import { describe, expect, it } from 'vitest';
import { newStore } from '../../../main/cache/cache-store';
import { metaNamespaceKeyFunc } from '../../../main/cache/keys';
import type { Store } from '../../../main/cache/store';
import type { KubeObject } from '../../../shared/kube/object';
import { FakeWatcher } from '../../support/fake-watcher';
import { ListWatch, listOf } from '../../support/list-watch';
import { driveClock, newTestReflector, settle } from './reflector-fixtures';

const podStore = () => newStore<KubeObject>(metaNamespaceKeyFunc);

describe('Reflector resync', () => {
  it('TestReflectorResyncChan: calls store.resync every resync period while watching', async () => {
    let resyncs = 0;
    const store = Object.assign(podStore(), { resync: () => resyncs++ });
    const lw = new ListWatch({ list: () => listOf('1', []), watch: () => new FakeWatcher() });
    const { reflector, clock, controller } = newTestReflector(lw, store, { resyncPeriod: 1 });
    const done = reflector.listAndWatch(controller.signal);
    await settle();
    await clock.stepAsync(1);
    expect(resyncs).toBe(1);
    await clock.stepAsync(2);
    expect(resyncs).toBe(3);
    controller.abort();
    await done;
    expect(clock.hasWaiters()).toBe(false);
  });

  it('TestReflectorResync: a failing resync ends the watch and listAndWatch resolves', async () => {
    let iteration = 0;
    const store: Store = Object.assign(podStore(), {
      resync: () => {
        if (++iteration === 2) throw new Error('expected resync reached');
      },
    });
    const watcher = new FakeWatcher();
    const lw = new ListWatch({ list: () => listOf('0', []), watch: () => watcher });
    const { reflector, clock, controller } = newTestReflector(lw, store, { resyncPeriod: 1 });
    await driveClock(clock, reflector.listAndWatch(controller.signal));
    expect(iteration).toBe(2);
    expect(watcher.isStopped()).toBe(true);
  });

  it('skips the resync when shouldResync says no, and keeps ticking', async () => {
    let resyncs = 0;
    let asked = 0;
    const store = Object.assign(podStore(), { resync: () => resyncs++ });
    const lw = new ListWatch({ list: () => listOf('1', []), watch: () => new FakeWatcher() });
    const { reflector, clock, controller } = newTestReflector(lw, store, {
      resyncPeriod: 1000,
      shouldResync: () => ++asked % 2 === 0,
    });
    const done = reflector.listAndWatch(controller.signal);
    await settle();
    await clock.stepAsync(4000);
    controller.abort();
    await done;
    expect([asked, resyncs]).toEqual([4, 2]);
  });
});
