// The Reflector's observable sync state, for the UI: listing, watching, backoff and why.
import { describe, expect, it } from 'vitest';
import { newStore } from '../../../main/cache/cache-store';
import { metaNamespaceKeyFunc } from '../../../main/cache/keys';
import type { ReflectorState } from '../../../main/cache/reflector';
import type { KubeObject } from '../../../shared/kube/object';
import type { StatusError } from '../../../shared/kube/status';
import { newStatus } from '../../../shared/kube/status';
import { FakeWatcher } from '../../support/fake-watcher';
import { ListWatch, listOf } from '../../support/list-watch';
import { newTestReflector, pod, settle } from './reflector-fixtures';

const podStore = () => newStore<KubeObject>(metaNamespaceKeyFunc);

describe('Reflector sync state', () => {
  it('reports listing, watching with the item count, and backoff with the reason the watch ended', async () => {
    const states: ReflectorState[] = [];
    const watcher = new FakeWatcher();
    const lw = new ListWatch({
      list: () => listOf('1', [pod('a', '1'), pod('b', '1')]),
      watch: (): FakeWatcher => (lw.watchOptions.length === 1 ? watcher : new FakeWatcher()),
    });
    const { reflector, clock, controller } = newTestReflector(lw, podStore(), {
      onStateChange: (state) => states.push(state),
    });
    const start = clock.now();
    const done = reflector.run(controller.signal);
    await settle();
    await clock.stepAsync(5000);
    const expired = newStatus(410, 'Expired', 'too old');
    watcher.error(expired);
    await settle();
    await clock.stepAsync(800);
    controller.abort();
    await done;
    expect(states.map(({ phase, itemsListed, since }) => [phase, itemsListed, since - start])).toEqual([
      ['listing', undefined, 0],
      ['watching', 2, 0],
      ['backoff', 2, 5000],
      ['listing', 2, 5800],
      ['watching', 2, 5800],
    ]);
    expect((states[2].error as StatusError).status).toEqual(expired);
    expect(reflector.state()).toEqual(states[4]);
  });

  it('reports a failed list as the reason for the backoff', async () => {
    const states: ReflectorState[] = [];
    const lw = new ListWatch({
      list: () => {
        throw new Error('connection reset');
      },
    });
    const { reflector, controller } = newTestReflector(lw, podStore(), {
      onStateChange: (state) => states.push(state),
    });
    const done = reflector.run(controller.signal);
    await settle();
    controller.abort();
    await done;
    expect(states.map((state) => state.phase)).toEqual(['listing', 'backoff']);
    expect((states[1].error as Error).message).toBe('failed to list v1, Kind=Pod: connection reset');
  });
});
