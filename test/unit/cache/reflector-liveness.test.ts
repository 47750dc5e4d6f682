// How the Reflector tells a lost connection (re-watch from the last resourceVersion, no LIST) from a
// watch that cannot be resumed (410: relist), and how long it waits in between: client-go's
// reflector.go watch loop and apimachinery's StreamWatcher (a probable EOF ends the watch normally),
// plus Kubetide's two timing rules: Retry-After is obeyed, and a healthy watch resets the backoff.
import { describe, expect, it } from 'vitest';
import { delayWithReset, defaultReflectorBackoff } from '../../../main/cache/backoff';
import { newStore } from '../../../main/cache/cache-store';
import { FakeClock } from '../../../main/cache/fake-clock';
import { metaNamespaceKeyFunc } from '../../../main/cache/keys';
import type { ReflectorState } from '../../../main/cache/reflector';
import { WatchDecodeError, WatchInactivityError } from '../../../main/kube/errors';
import type { KubeObject } from '../../../shared/kube/object';
import { StatusError, newStatus } from '../../../shared/kube/status';
import { FakeWatcher } from '../../support/fake-watcher';
import { ListWatch, listOf } from '../../support/list-watch';
import { eventually, newTestReflector, pod } from './reflector-fixtures';

const podStore = () => newStore<KubeObject>(metaNamespaceKeyFunc);
const expired = () => newStatus(410, 'Expired', 'too old resource version: 1 (5)');
const tooManyRequests = (retryAfterSeconds: number) =>
  new StatusError(newStatus(429, 'TooManyRequests', 'slow down', { retryAfterSeconds }));

/** A ListWatch whose every watch is a FakeWatcher kept in `watchers`, listing `items` at RV 5. */
function recordingListWatch(onWatch: (watcher: FakeWatcher, index: number) => void = () => {}) {
  const watchers: FakeWatcher[] = [];
  const lw = new ListWatch({
    list: () => listOf('5', [pod('a', '5')]),
    watch: () => {
      const watcher = new FakeWatcher();
      watchers.push(watcher);
      onWatch(watcher, watchers.length - 1);
      return watcher;
    },
  });
  return { lw, watchers };
}

/** The backoff phases the Reflector reported, as the delay it announced for each. */
function backoffDelays(states: readonly ReflectorState[]): number[] {
  return states.filter((state) => state.phase === 'backoff').map((state) => state.retryAt! - state.since);
}

describe('Reflector watch liveness', () => {
  const lostConnections: [string, () => Error][] = [
    ['a reset connection', () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['a connection closed mid-stream', () => new Error('watching pods: connection closed before the end')],
    [
      'a watch with no data for the inactivity timeout',
      () => new WatchInactivityError('watching pods', 60_000),
    ],
  ];

  for (const [name, failure] of lostConnections) {
    it(`after ${name}, re-watches at once from the last synced RV with no LIST`, async () => {
      const { lw, watchers } = recordingListWatch();
      const { reflector, clock, controller } = newTestReflector(lw, podStore());
      const done = reflector.run(controller.signal);
      await eventually(() => watchers.length === 1);
      watchers[0]!.modify(pod('a', '8'));
      await eventually(() => reflector.lastSyncResourceVersion() === '8');
      clock.step(30_000);
      const before = clock.now();

      watchers[0]!.throw(failure());
      await eventually(() => watchers.length === 2);
      expect(lw.listOptions).toHaveLength(1);
      expect(lw.watchOptions[1]!.resourceVersion).toBe('8');
      expect(clock.now()).toBe(before);
      expect(reflector.state().phase).toBe('watching');
      controller.abort();
      await done;
    });
  }

  it('backs off and re-watches, with no LIST, when the connection breaks while a watch is being opened', async () => {
    let attempts = 0;
    const watchers: FakeWatcher[] = [];
    const lw = new ListWatch({
      list: () => listOf('5', []),
      watch: () => {
        if (attempts++ < 2)
          throw new Error('watching pods: cannot reach', {
            cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
          });
        watchers.push(new FakeWatcher());
        return watchers[watchers.length - 1]!;
      },
    });
    const { reflector, clock, controller } = newTestReflector(lw, podStore());
    const done = reflector.run(controller.signal);
    await eventually(() => watchers.length === 1, clock);
    expect(lw.listOptions).toHaveLength(1);
    expect(lw.watchOptions.map((options) => options.resourceVersion)).toEqual(['5', '5', '5']);
    controller.abort();
    await done;
  });

  it('relists after a backoff when the lost watch lasted under a second with no event (very short)', async () => {
    const { lw, watchers } = recordingListWatch((watcher, index) => {
      if (index === 0) watcher.throw(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
    });
    const { reflector, clock, controller } = newTestReflector(lw, podStore());
    const done = reflector.run(controller.signal);
    await eventually(() => reflector.state().phase === 'backoff');
    expect(reflector.state().error?.constructor.name).toBe('VeryShortWatchError');
    expect(lw.listOptions).toHaveLength(1);
    await eventually(() => lw.listOptions.length === 2, clock);
    expect(watchers).toHaveLength(2);
    controller.abort();
    await done;
  });

  it('relists after a backoff when a line cannot be decoded (an InternalError, as in client-go)', async () => {
    const { lw, watchers } = recordingListWatch();
    const { reflector, clock, controller } = newTestReflector(lw, podStore());
    const done = reflector.run(controller.signal);
    await eventually(() => watchers.length === 1);
    clock.step(5_000);
    watchers[0]!.throw(new WatchDecodeError('watching pods', '{"type":', 'Unexpected end of JSON input'));
    await eventually(() => reflector.state().phase === 'backoff');
    await eventually(() => lw.listOptions.length === 2, clock);
    expect(lw.listOptions[1]!.resourceVersion).toBe('5');
    controller.abort();
    await done;
  });

  it('relists at the last synced RV after a 410 ERROR event', async () => {
    const { lw, watchers } = recordingListWatch();
    const { reflector, clock, controller } = newTestReflector(lw, podStore());
    const done = reflector.run(controller.signal);
    await eventually(() => watchers.length === 1);
    watchers[0]!.modify(pod('a', '6'));
    watchers[0]!.error(expired());
    await eventually(() => lw.listOptions.length === 2, clock);
    expect(lw.listOptions.map((options) => options.resourceVersion)).toEqual(['0', '6']);
    controller.abort();
    await done;
  });

  it('after a healthy watch, the next backoff starts from the initial value', async () => {
    const clock = new FakeClock(0);
    const states: ReflectorState[] = [];
    // Three watches end at once with 410 (each relisted after a longer wait), the fourth serves
    // events for a while, then fails with an error that relists.
    const { lw, watchers } = recordingListWatch((watcher, index) => {
      if (index < 3) watcher.error(expired());
    });
    const { reflector, controller } = newTestReflector(lw, podStore(), {
      clock,
      backoff: delayWithReset(defaultReflectorBackoff, clock, 120_000, () => 0),
      onStateChange: (state) => states.push(state),
    });
    const done = reflector.run(controller.signal);
    await eventually(() => watchers.length === 4, clock);
    expect(backoffDelays(states)).toEqual([800, 1600, 3200]);

    watchers[3]!.modify(pod('a', '9'));
    clock.step(20_000);
    watchers[3]!.error(newStatus(500, 'InternalError', 'etcd leader changed'));
    await eventually(() => reflector.state().phase === 'backoff');
    expect(backoffDelays(states)).toEqual([800, 1600, 3200, 800]);
    controller.abort();
    await done;
  });

  it('keeps stretching the backoff while no watch is served', async () => {
    const clock = new FakeClock(0);
    const states: ReflectorState[] = [];
    const { lw } = recordingListWatch((watcher) => watcher.error(expired()));
    const { reflector, controller } = newTestReflector(lw, podStore(), {
      clock,
      backoff: delayWithReset(defaultReflectorBackoff, clock, 120_000, () => 0),
      onStateChange: (state) => states.push(state),
    });
    const done = reflector.run(controller.signal);
    await eventually(() => backoffDelays(states).length === 4, clock);
    expect(backoffDelays(states)).toEqual([800, 1600, 3200, 6400]);
    controller.abort();
    await done;
  });

  it('429 with Retry-After: 2 on opening a watch waits exactly 2 s, then re-watches without a LIST', async () => {
    const clock = new FakeClock(0);
    const states: ReflectorState[] = [];
    let attempts = 0;
    const watchers: FakeWatcher[] = [];
    const lw = new ListWatch({
      list: () => listOf('5', []),
      watch: () => {
        if (attempts++ < 2) throw tooManyRequests(2);
        watchers.push(new FakeWatcher());
        return watchers[watchers.length - 1]!;
      },
    });
    const { reflector, controller } = newTestReflector(lw, podStore(), {
      clock,
      backoff: delayWithReset(defaultReflectorBackoff, clock, 120_000, () => 0),
      onStateChange: (state) => states.push(state),
    });
    const done = reflector.run(controller.signal);
    await eventually(() => reflector.state().phase === 'backoff');
    expect(clock.pendingDelays()).toEqual([2_000]);
    await eventually(() => watchers.length === 1, clock);
    expect(clock.now()).toBe(4_000);
    expect(backoffDelays(states)).toEqual([2_000, 2_000]);
    expect(lw.listOptions).toHaveLength(1);

    // The Retry-After waits did not advance the backoff: the next failure waits its first step.
    clock.step(1_500);
    watchers[0]!.error(expired());
    await eventually(() => reflector.state().phase === 'backoff');
    expect(backoffDelays(states)).toEqual([2_000, 2_000, 800]);
    controller.abort();
    await done;
  });

  it('429 with Retry-After in an ERROR event waits that long before re-watching', async () => {
    const clock = new FakeClock(0);
    const { lw, watchers } = recordingListWatch((watcher, index) => {
      if (index === 0) watcher.error(tooManyRequests(7).status);
    });
    const { reflector, controller } = newTestReflector(lw, podStore(), { clock });
    const done = reflector.run(controller.signal);
    await eventually(() => reflector.state().phase === 'backoff');
    expect(clock.pendingDelays()).toEqual([7_000]);
    await eventually(() => watchers.length === 2, clock);
    expect(clock.now()).toBe(7_000);
    expect(lw.listOptions).toHaveLength(1);
    controller.abort();
    await done;
  });
});
