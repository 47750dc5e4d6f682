// A feed's rows live in tables far smaller than the list (ShardedMap): at 150,000 pods one Map of
// rows grew past 131,072 entries by rehashing them all in one delivery, a main-thread task of its own.
import { describe, expect, it } from 'vitest';
import { Feed } from '../../../main/bridge/feed';
import { RowProjector } from '../../../main/bridge/row-projection';
import { FakeClock } from '../../../main/cache/fake-clock';
import { printerFor } from '../../../shared/kinds/columns';
import { FakeApi, pod } from './fake-api';

const pods = { group: '', version: 'v1', resource: 'pods' };

describe('a feed of many rows', () => {
  it('keeps them in tables of a tenth of the list at most, every row still read', async () => {
    const api = new FakeApi();
    const count = 20_000;
    for (let index = 0; index < count; index++) api.apply(pod(`ns-${index % 7}`, `pod-${index}`));
    const clock = new FakeClock();
    const feed = new Feed({
      gvr: pods,
      namespace: '',
      newListerWatcher: () => api.listerWatcher(),
      projector: new RowProjector(printerFor(pods)),
      clock,
      reflector: { backoff: () => 2_000 },
    });
    feed.attach({ record: () => {}, syncStateChanged: () => {} });
    feed.start();
    for (let step = 0; step < 200 && feed.count < count; step++) await clock.stepAsync(100);
    expect(feed.count).toBe(count);
    expect(feed.largestTable).toBeLessThan(count / 10);
    const keys = feed.rows().map((row) => row.key);
    expect(new Set(keys).size).toBe(count);
    api.remove('ns-0', 'pod-0');
    await clock.stepAsync(100);
    expect(feed.rows().some((row) => row.key === 'ns-0/pod-0')).toBe(false);
    await feed.stop();
  });
});
