// Which resourceVersion and page size each relist uses (client-go reflector_test.go: WatchListPageSize,
// NotPaginatingNotConsistentReads, PaginatingNonConsistentReadsIfWatchCacheDisabled,
// ResyncWithResourceVersion, ExpiredExactResourceVersion, FullListIfExpired, FullListIfTooLarge).
// Each listAndWatch below stops as soon as the Reflector starts watching: only the LIST matters here.
import { describe, expect, it } from 'vitest';
import { newStore } from '../../../main/cache/cache-store';
import { metaNamespaceKeyFunc } from '../../../main/cache/keys';
import type { ListOptions } from '../../../main/cache/lister-watcher';
import type { Reflector } from '../../../main/cache/reflector';
import type { KubeList, KubeObject } from '../../../shared/kube/object';
import { StatusError, newStatus } from '../../../shared/kube/status';
import { FakeWatcher } from '../../support/fake-watcher';
import { ListWatch, listOf } from '../../support/list-watch';
import { newTestReflector, pod } from './reflector-fixtures';

const pods = Array.from({ length: 10 }, (_, index) => pod(`pod-${index}`, String(index)));
const expired = () =>
  new StatusError(newStatus(410, 'Expired', 'The resourceVersion for the provided watch is too old.'));

/** A ListWatch whose watch stops the current listAndWatch; `controller` is replaced before each run. */
function stoppingListWatch(list: (options: ListOptions) => KubeList) {
  const state = { controller: new AbortController() };
  const lw = new ListWatch({
    list,
    watch: () => {
      state.controller.abort();
      return new FakeWatcher();
    },
  });
  return { lw, state };
}

async function listOnce(reflector: Reflector, state: { controller: AbortController }): Promise<void> {
  state.controller = new AbortController();
  await reflector.listAndWatch(state.controller.signal);
}

describe('Reflector relist', () => {
  it('TestReflectorWatchListPageSize: a page size pages even lists at an exact RV', async () => {
    const store = newStore<KubeObject>(metaNamespaceKeyFunc);
    const { lw, state } = stoppingListWatch((options) => {
      if (options.resourceVersion === '0') return listOf('10', []);
      if (options.continue === 'C1') return listOf('10', pods.slice(4, 8), 'C2');
      if (options.continue === 'C2') return listOf('10', pods.slice(8));
      return listOf('10', pods.slice(0, 4), 'C1');
    });
    const { reflector } = newTestReflector(lw, store, { watchListPageSize: 4 });
    await listOnce(reflector, state);
    await listOnce(reflector, state);
    expect(lw.listOptions.slice(1)).toEqual([
      { resourceVersion: '10', limit: 4 },
      { limit: 4, continue: 'C1' },
      { limit: 4, continue: 'C2' },
    ]);
    expect(store.list()).toHaveLength(10);
  });

  it('TestReflectorNotPaginatingNotConsistentReads: a relist at an exact RV asks for everything at once', async () => {
    const store = newStore<KubeObject>(metaNamespaceKeyFunc);
    const { lw, state } = stoppingListWatch(() => listOf('10', pods));
    const { reflector } = newTestReflector(lw, store);
    await listOnce(reflector, state);
    await listOnce(reflector, state);
    expect(lw.listOptions[1]).toEqual({ resourceVersion: '10' });
    expect(store.list()).toHaveLength(10);
  });

  it('TestReflectorPaginatingNonConsistentReadsIfWatchCacheDisabled: a paginated "0" list keeps later relists paged', async () => {
    const store = newStore<KubeObject>(metaNamespaceKeyFunc);
    const { lw, state } = stoppingListWatch((options) => {
      expect(options.limit).toBe(500);
      if (options.continue === 'C1') return listOf('10', pods.slice(4, 8), 'C2');
      if (options.continue === 'C2') return listOf('10', pods.slice(8));
      return listOf('10', pods.slice(0, 4), 'C1');
    });
    const { reflector } = newTestReflector(lw, store);
    await listOnce(reflector, state);
    expect(store.list()).toHaveLength(10);
    await listOnce(reflector, state);
    expect(store.list()).toHaveLength(10);
    expect(lw.listOptions.map((options) => [options.resourceVersion, options.limit])).toEqual([
      ['0', 500],
      [undefined, 500],
      [undefined, 500],
      ['10', 500],
      [undefined, 500],
      [undefined, 500],
    ]);
  });

  it('TestReflectorResyncWithResourceVersion: relists at the last synced RV, never back to "0"', async () => {
    const store = newStore<KubeObject>(metaNamespaceKeyFunc);
    const { lw, state } = stoppingListWatch((options) =>
      options.resourceVersion === '0' ? listOf('10', pods.slice(0, 4)) : listOf('11', pods.slice(0, 8)),
    );
    const { reflector } = newTestReflector(lw, store);
    await listOnce(reflector, state);
    expect(store.list()).toHaveLength(4);
    await listOnce(reflector, state);
    expect(store.list()).toHaveLength(8);
    expect(lw.listOptions.map((options) => options.resourceVersion)).toEqual(['0', '10']);
  });

  it('TestReflectorExpiredExactResourceVersion: a 410 on the relist retries at once at RV ""', async () => {
    const store = newStore<KubeObject>(metaNamespaceKeyFunc);
    const { lw, state } = stoppingListWatch((options) => {
      if (options.resourceVersion === '0') return listOf('10', pods.slice(0, 4));
      if (options.resourceVersion === '10') throw expired();
      return listOf('11', pods.slice(0, 8));
    });
    const { reflector } = newTestReflector(lw, store);
    await listOnce(reflector, state);
    await listOnce(reflector, state);
    expect(store.list()).toHaveLength(8);
    expect(lw.listOptions.map((options) => options.resourceVersion)).toEqual(['0', '10', '']);
    expect(reflector.isLastSyncResourceVersionUnavailable()).toBe(false);
  });

  it('TestReflectorFullListIfExpired: an expired continue page becomes one full list at the same RV', async () => {
    const store = newStore<KubeObject>(metaNamespaceKeyFunc);
    const { lw, state } = stoppingListWatch((options) => {
      const key = `${options.resourceVersion ?? ''}|${options.continue ?? ''}|${options.limit ?? 0}`;
      switch (key) {
        case '0||4':
          return listOf('10', pods.slice(0, 4));
        case '10||4':
          return listOf('11', pods.slice(0, 4), 'C1');
        case '|C1|4':
          throw expired();
        case '10||0':
          return listOf('11', pods.slice(0, 8));
        default:
          throw new Error(`unexpected list options: ${JSON.stringify(options)}`);
      }
    });
    const { reflector } = newTestReflector(lw, store, { watchListPageSize: 4 });
    await listOnce(reflector, state);
    expect(store.list()).toHaveLength(4);
    await listOnce(reflector, state);
    expect(store.list()).toHaveLength(8);
    expect(lw.listOptions.map((options) => options.resourceVersion ?? '')).toEqual(['0', '10', '', '10']);
  });

  it('TestReflectorFullListIfTooLarge: each form of "too large resource version" relists at RV ""', async () => {
    let version = 30;
    const tooLarge = (status: ReturnType<typeof newStatus>) => new StatusError(status);
    const { lw, state } = stoppingListWatch((options) => {
      switch (options.resourceVersion) {
        case '0':
          return listOf('20', []);
        case '20':
          throw tooLarge(
            newStatus(504, 'Timeout', 'too large resource version', {
              causes: [{ type: 'ResourceVersionTooLarge' }],
            }),
          );
        case '30':
          throw tooLarge(
            newStatus(504, 'Timeout', 'Too large resource version', {
              causes: [{ message: 'Too large resource version' }],
            }),
          );
        case '40':
          throw tooLarge(newStatus(504, 'Timeout', 'Too large resource version'));
        case '': {
          const list = listOf(String(version), []);
          version += 10;
          return list;
        }
        default:
          throw new Error(`unexpected list: ${options.resourceVersion}`);
      }
    });
    const { reflector } = newTestReflector(lw, newStore<KubeObject>(metaNamespaceKeyFunc));
    for (let run = 0; run < 4; run++) await listOnce(reflector, state);
    expect(lw.listOptions.map((options) => options.resourceVersion)).toEqual([
      '0',
      '20',
      '',
      '30',
      '',
      '40',
      '',
    ]);
  });

  it('keeps the RV unavailable, and the next relist at "", when the retry at "" fails too', async () => {
    const { lw, state } = stoppingListWatch((options) => {
      if (options.resourceVersion === '0') return listOf('10', []);
      throw expired();
    });
    const { reflector } = newTestReflector(lw, newStore<KubeObject>(metaNamespaceKeyFunc));
    await listOnce(reflector, state);
    await expect(listOnce(reflector, state)).rejects.toThrow('failed to list v1, Kind=Pod');
    expect(reflector.isLastSyncResourceVersionUnavailable()).toBe(true);
    await expect(listOnce(reflector, state)).rejects.toThrow();
    expect(lw.listOptions.map((options) => options.resourceVersion)).toEqual(['0', '10', '', '', '']);
  });

  it('does not relist at "" after a 410 on the watch: the next relist is at the last RV (#86430)', async () => {
    const controller = new AbortController();
    const lw = new ListWatch({
      list: () => listOf('10', []),
      watch: () => {
        const watcher = new FakeWatcher();
        if (lw.watchOptions.length === 1) watcher.error(newStatus(410, 'Gone', 'too old'));
        else controller.abort();
        return watcher;
      },
    });
    const { reflector } = newTestReflector(lw, newStore<KubeObject>(metaNamespaceKeyFunc));
    await reflector.listAndWatch(controller.signal);
    expect(reflector.isLastSyncResourceVersionUnavailable()).toBe(false);
    await reflector.listAndWatch(controller.signal);
    expect(lw.listOptions.map((options) => options.resourceVersion)).toEqual(['0', '10']);
  });
});
