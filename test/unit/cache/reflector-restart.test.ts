// Kubetide's Reflector.restartWatch (no client-go equivalent): after sleep/resume or a network change,
// the watch is re-established at once instead of waiting on a dead connection or a backoff.
import { describe, expect, it } from 'vitest';
import { newStore } from '../../../main/cache/cache-store';
import { metaNamespaceKeyFunc } from '../../../main/cache/keys';
import { StatusError, newStatus } from '../../../shared/kube/status';
import type { KubeObject } from '../../../shared/kube/object';
import { FakeWatcher } from '../../support/fake-watcher';
import { ListWatch, listOf } from '../../support/list-watch';
import { eventually, keptWatches, newTestReflector, pod } from './reflector-fixtures';

const podStore = () => newStore<KubeObject>(metaNamespaceKeyFunc);

describe('Reflector.restartWatch', () => {
  it('stops the open watch and re-watches at once from the last synced resourceVersion, without relisting', async () => {
    const { lw, watchers } = keptWatches(() => listOf('5', [pod('a', '5')]));
    const { reflector, controller } = newTestReflector(lw, podStore());
    const done = reflector.run(controller.signal);
    await eventually(() => watchers.length === 1);
    watchers[0]!.modify(pod('a', '7'));
    await eventually(() => reflector.lastSyncResourceVersion() === '7');

    reflector.restartWatch();
    await eventually(() => watchers.length === 2);
    expect(watchers[0]!.isStopped()).toBe(true);
    expect(lw.listOptions).toHaveLength(1);
    expect(lw.watchOptions[1]!.resourceVersion).toBe('7');
    controller.abort();
    await done;
  });

  it('cuts a pending backoff short: the relist happens without the clock moving', async () => {
    let lists = 0;
    const lw = new ListWatch({
      list: () => {
        lists++;
        if (lists === 1) throw new StatusError(newStatus(500, 'InternalError', 'etcd is away'));
        return listOf('9', []);
      },
      watch: () => new FakeWatcher(),
    });
    const { reflector, clock, controller } = newTestReflector(lw, podStore());
    const done = reflector.run(controller.signal);
    await eventually(() => reflector.state().phase === 'backoff');
    expect(clock.pendingDelays()[0]).toBeGreaterThanOrEqual(800);

    reflector.restartWatch();
    await eventually(() => lists === 2 && reflector.state().phase === 'watching');
    controller.abort();
    await done;
  });

  it('relists at once when the restarted watch finds its resourceVersion expired', async () => {
    const watchers: FakeWatcher[] = [];
    const lw = new ListWatch({
      list: () => listOf('5', []),
      watch: () => {
        const watcher = new FakeWatcher();
        watchers.push(watcher);
        if (watchers.length === 2) watcher.error(newStatus(410, 'Expired', 'too old resource version'));
        return watcher;
      },
    });
    const { reflector, controller } = newTestReflector(lw, podStore());
    const done = reflector.run(controller.signal);
    await eventually(() => watchers.length === 1);
    reflector.restartWatch();
    await eventually(() => lw.listOptions.length === 2 && watchers.length === 3);
    controller.abort();
    await done;
  });
});
