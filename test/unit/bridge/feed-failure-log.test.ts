// A feed tells its list and watch failures once per run of the same failure, and that the run ended
// when some of it went unsaid: a cluster that stays unreachable is retried with backoff for as long as
// it lasts, and every retry failed with the same words, one log line per kind per retry.
import { describe, expect, it } from 'vitest';
import { Feed } from '../../../main/bridge/feed';
import { RowProjector } from '../../../main/bridge/row-projection';
import { FakeClock } from '../../../main/cache/fake-clock';
import type { ListerWatcher } from '../../../main/cache/lister-watcher';
import type { SyncState } from '../../../shared/protocol/sync-state';
import { FakeApi, pod } from './fake-api';

const pods = { group: '', version: 'v1', resource: 'pods' };

/** `inner`, whose lists and watches fail with `failure.error` while it is set, counted in `failure.count`. */
function failing(inner: ListerWatcher, failure: { error?: Error; count: number }): ListerWatcher {
  const fail = (error: Error) => {
    failure.count++;
    return Promise.reject(error);
  };
  return {
    ...inner,
    list: (options, signal, hints) =>
      failure.error ? fail(failure.error) : inner.list(options, signal, hints),
    watch: (options, signal, hints) =>
      failure.error ? fail(failure.error) : inner.watch(options, signal, hints),
  };
}

describe('a feed failing again and again', () => {
  it('tells a failure once while its retries fail the same way, again when it says something new or follows a recovery, and the recovery', async () => {
    const api = new FakeApi();
    api.apply(pod('default', 'a'));
    const clock = new FakeClock();
    const refused = new Error('cannot reach https://127.0.0.1:16999 (connection refused)');
    const failure: { error?: Error; count: number } = { error: refused, count: 0 };
    const told: string[] = [];
    const recovered: string[] = [];
    const states: SyncState[] = [];
    const feed = new Feed({
      gvr: pods,
      namespace: '',
      newListerWatcher: () => failing(api.listerWatcher(), failure),
      projector: new RowProjector(),
      clock,
      reflector: { backoff: () => 1_000 },
      onWatchError: (description, error) => told.push(`${description}: ${(error as Error).message}`),
      onWatchRecovered: (description, failures) => recovered.push(`${description} after ${failures}`),
    });
    feed.attach({ record: () => undefined, syncStateChanged: (state) => states.push(state) });
    feed.start();
    for (let step = 0; step < 8; step++) await clock.stepAsync(1_000);
    // Eight retries or more, every one failing as the first.
    expect(told).toEqual([`pods.v1: failed to list /v1, Resource=pods: ${refused.message}`]);
    expect(states.at(-1)).toMatchObject({ phase: 'reconnecting' });

    failure.error = new Error('connection reset by the server');
    for (let step = 0; step < 4; step++) await clock.stepAsync(1_000);
    expect(told).toHaveLength(2);
    expect(told[1]).toMatch(/connection reset by the server$/);

    const failures = failure.count;
    expect(failures).toBeGreaterThan(10);
    failure.error = undefined;
    for (let step = 0; step < 3; step++) await clock.stepAsync(1_000);
    expect(states.at(-1)).toMatchObject({ phase: 'synced' });
    // The retries' failures went unsaid: that they ended is said.
    expect(recovered).toEqual([`pods.v1 after ${failures}`]);

    // Down again after the recovery: the same words as the first failure are news again, told once
    // for the watch that failed and once for the relist after it, however long the retries go on.
    failure.error = refused;
    feed.reconnect('network changed', clock.now());
    for (let step = 0; step < 30; step++) await clock.stepAsync(1_000);
    expect(told.slice(2)).toEqual([`pods.v1: ${refused.message}`, told[0]]);
    failure.error = undefined;
    feed.reconnect('network changed', clock.now());
    for (let step = 0; step < 3; step++) await clock.stepAsync(1_000);
    expect(recovered).toEqual([`pods.v1 after ${failures}`, `pods.v1 after ${failure.count - failures}`]);

    // Failures all told (the watch's, then the relist's, in other words), then watching again:
    // nothing went unsaid, so nothing more is said.
    const before = failure.count;
    failure.error = refused;
    feed.reconnect('network changed', clock.now());
    while (failure.count < before + 2) await clock.stepAsync(0);
    failure.error = undefined;
    for (let step = 0; step < 3; step++) await clock.stepAsync(1_000);
    expect(states.at(-1)).toMatchObject({ phase: 'synced' });
    expect(failure.count - before).toBe(2);
    expect(told.slice(4)).toEqual(told.slice(2, 4));
    expect(recovered).toHaveLength(2);
    await feed.stop();
  });
});
