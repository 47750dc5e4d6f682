// Watch retries without a relist (client-go reflector_test.go: ListAndWatchInitConnBackoff,
// BackoffOnTooManyRequests, NoRelistOnTooManyRequests, RetryInternalError), timed on a FakeClock.
import { describe, expect, it } from 'vitest';
import { delayWithReset } from '../../../main/cache/backoff';
import { newStore } from '../../../main/cache/cache-store';
import { FakeClock } from '../../../main/cache/fake-clock';
import { metaNamespaceKeyFunc } from '../../../main/cache/keys';
import type { KubeObject } from '../../../shared/kube/object';
import { StatusError, newStatus } from '../../../shared/kube/status';
import { FakeWatcher } from '../../support/fake-watcher';
import { ListWatch, listOf } from '../../support/list-watch';
import { driveClock, newTestReflector } from './reflector-fixtures';

const tooManyRequests = () => new StatusError(newStatus(429, 'TooManyRequests', 'too many requests'));
const refused = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6443'), { code: 'ECONNREFUSED' });
const podStore = () => newStore<KubeObject>(metaNamespaceKeyFunc);

/** A DelayHandler that counts its calls and never waits (client-go's fakeDelayFunc). */
function countingDelay() {
  const counter = { calls: 0, handler: () => (counter.calls++, 0) };
  return counter;
}

describe('Reflector retries', () => {
  it('TestReflectorListAndWatchInitConnBackoff: refused watches back off exponentially without relisting', async () => {
    let failures = 5;
    const lw = new ListWatch({
      list: () => listOf('1', []),
      watch: () => {
        if (failures-- > 0) throw refused();
        controller.abort();
        return new FakeWatcher();
      },
    });
    const backoff = { duration: 1, cap: 50, steps: 1000, factor: 2, jitter: 1 };
    const clock = new FakeClock(0);
    const setup = newTestReflector(lw, podStore(), {
      clock,
      backoff: delayWithReset(backoff, clock, 100, () => 0.5),
    });
    const controller = setup.controller;
    await driveClock(clock, setup.reflector.listAndWatch(controller.signal));
    expect(clock.now()).toBe(1.5 * (1 + 2 + 4 + 8 + 16));
    expect(lw.listOptions).toHaveLength(1);
    expect(lw.watchOptions).toHaveLength(6);
  });

  it('TestBackoffOnTooManyRequests: a 429 from Watch and a 429 ERROR event each back off once', async () => {
    const delay = countingDelay();
    const lw = new ListWatch({
      list: () => listOf('1', []),
      watch: () => {
        const watcher = new FakeWatcher();
        if (delay.calls === 0) throw tooManyRequests();
        if (delay.calls === 1) watcher.error(tooManyRequests().status);
        else watcher.close();
        return watcher;
      },
    });
    const { reflector, clock, controller } = newTestReflector(lw, podStore(), { backoff: delay.handler });
    await driveClock(clock, reflector.listAndWatch(controller.signal));
    expect(delay.calls).toBe(2);
  });

  it('TestNoRelistOnTooManyRequests: four 429s from Watch mean one list and five watches', async () => {
    const delay = countingDelay();
    let watchCalls = 0;
    const lw = new ListWatch({
      list: () => listOf('1', []),
      watch: () => {
        if (++watchCalls < 5) throw tooManyRequests();
        const watcher = new FakeWatcher();
        watcher.close();
        return watcher;
      },
    });
    const { reflector, clock, controller } = newTestReflector(lw, podStore(), { backoff: delay.handler });
    await driveClock(clock, reflector.listAndWatch(controller.signal));
    expect(lw.listOptions).toHaveLength(1);
    expect(lw.watchOptions).toHaveLength(5);
    expect(delay.calls).toBe(4);
  });

  it.each([
    { name: 'retries off', maxInternalDuration: 0, rewindAt: 0, wantRetries: 0 },
    { name: 'retries on, all calls fail', maxInternalDuration: 30_000, rewindAt: 0, wantRetries: 31 },
    { name: 'retries on, one call successful', maxInternalDuration: 30_000, rewindAt: 10, wantRetries: 40 },
  ])('TestRetryInternalError: $name', async ({ maxInternalDuration, rewindAt, wantRetries }) => {
    let counter = 0;
    const lw = new ListWatch({
      list: () => listOf('1', []),
      watch: () => {
        counter++;
        if (counter === rewindAt) setup.clock.step(60_000);
        setup.clock.step(1000);
        const watcher = new FakeWatcher();
        watcher.error(newStatus(500, 'InternalError', 'etcdserver: no leader'));
        return watcher;
      },
    });
    const setup = newTestReflector(lw, podStore(), { maxInternalErrorRetryDuration: maxInternalDuration });
    await setup.reflector.listAndWatch(setup.controller.signal);
    expect(counter - 1).toBe(wantRetries);
  });
});
