// A feed whose subscribers have nobody to pass rows to (FeedSubscriber.wantsRows) projects no rows
// until they are read: a recorded-only kind under churn costs no projection, and whoever reads the
// rows later (a snapshot, count) sees the newest object of every key.
import { describe, expect, it } from 'vitest';
import { AccessAwareFeed } from '../../../main/bridge/access-aware-feed';
import { Feed } from '../../../main/bridge/feed';
import type { NamespaceAccess } from '../../../main/bridge/namespace-access';
import { RowProjector } from '../../../main/bridge/row-projection';
import type { RowChange } from '../../../main/bridge/squash';
import { FakeClock } from '../../../main/cache/fake-clock';
import type { KubeObject } from '../../../shared/kube/object';
import type { Row } from '../../../shared/protocol/row';
import { FakeApi, pod } from './fake-api';

const pods = { group: '', version: 'v1', resource: 'pods' };

/** Counts its projections. */
class CountingProjector extends RowProjector {
  projected = 0;

  override project(object: KubeObject, now: number): Row {
    this.projected++;
    return super.project(object, now);
  }
}

function labelled(name: string, version: string): KubeObject {
  return { ...pod('default', name), metadata: { ...pod('default', name).metadata, labels: { version } } };
}

function feedOver(api: FakeApi, clock: FakeClock, projector: RowProjector): Feed {
  return new Feed({
    gvr: pods,
    namespace: '',
    newListerWatcher: () => api.listerWatcher(),
    projector,
    clock,
    reflector: { backoff: () => 2_000 },
  });
}

describe('Feed rows nobody reads', () => {
  it('projects no change while no subscriber wants rows, and the newest object of each key once read', async () => {
    const api = new FakeApi();
    api.apply(labelled('a', '1'));
    api.apply(labelled('b', '1'));
    const clock = new FakeClock();
    const projector = new CountingProjector();
    const feed = feedOver(api, clock, projector);
    let wanted = false;
    const changes: RowChange[] = [];
    feed.attach({
      record: (change) => changes.push(change),
      syncStateChanged: () => {},
      wantsRows: () => wanted,
    });
    feed.start();
    await clock.stepAsync(500);
    const listed = projector.projected;

    api.apply(labelled('a', '2'));
    api.apply(labelled('a', '3'));
    api.apply(labelled('c', '1'));
    api.apply(labelled('d', '1'));
    api.remove('default', 'b');
    api.remove('default', 'd');
    await clock.stepAsync(100);
    expect(projector.projected).toBe(listed);
    expect(changes.map((change) => change.type)).toEqual(['added', 'added', 'deleted']);
    // b was a row when it went; d never was one, so nothing is said of it.
    expect(changes.at(-1)).toEqual({ type: 'deleted', key: 'default/b' });
    expect(feed.count).toBe(2);

    const rows = feed.rows();
    expect(rows.map((row) => [row.key, row.labels.version]).sort()).toEqual([
      ['default/a', '3'],
      ['default/c', '1'],
    ]);
    expect(projector.projected).toBe(listed + 2);
    expect(feed.count).toBe(2);

    // Once wanted, each change is projected and sent, as an update of a row already read.
    wanted = true;
    api.apply(labelled('c', '2'));
    api.apply(labelled('e', '1'));
    await clock.stepAsync(100);
    expect(
      changes.slice(3).map((change) => [change.type, change.type === 'deleted' ? '' : change.row.key]),
    ).toEqual([
      ['updated', 'default/c'],
      ['added', 'default/e'],
    ]);
    expect(feed.count).toBe(3);
    await feed.stop();
  });

  it('sends an unread key that changes once rows are wanted as added when it was never a row, updated when it was', async () => {
    const api = new FakeApi();
    api.apply(labelled('a', '1'));
    const clock = new FakeClock();
    const feed = feedOver(api, clock, new RowProjector());
    let wanted = false;
    const changes: RowChange[] = [];
    feed.attach({
      record: (change) => changes.push(change),
      syncStateChanged: () => {},
      wantsRows: () => wanted,
    });
    feed.start();
    await clock.stepAsync(500);
    api.apply(labelled('a', '2'));
    api.apply(labelled('b', '1'));
    await clock.stepAsync(100);
    wanted = true;
    api.apply(labelled('a', '3'));
    api.apply(labelled('b', '2'));
    await clock.stepAsync(100);
    expect(
      changes.map((change) => [change.type, change.type === 'deleted' ? '' : change.row.labels.version]),
    ).toEqual([
      ['added', '1'],
      ['updated', '3'],
      ['added', '2'],
    ]);
    expect(
      feed
        .rows()
        .map((row) => row.labels.version)
        .sort(),
    ).toEqual(['2', '3']);
    await feed.stop();
  });

  it('an AccessAwareFeed with no subscriber leaves its cluster feed unprojected until it gets one', async () => {
    const api = new FakeApi();
    api.apply(labelled('a', '1'));
    const clock = new FakeClock();
    const projector = new CountingProjector();
    const union = new AccessAwareFeed({
      gvr: pods,
      newClusterFeed: () => feedOver(api, clock, projector),
      acquire: () => {
        throw new Error('the cluster scope is allowed: no member feeds');
      },
      release: () => {},
      access: { clusterAccess: async () => 'allowed' } as unknown as NamespaceAccess,
      namespaced: true,
    });
    union.start();
    await clock.stepAsync(500);
    const listed = projector.projected;
    api.apply(labelled('a', '2'));
    api.apply(labelled('b', '1'));
    await clock.stepAsync(100);
    expect(projector.projected).toBe(listed);
    expect(union.count).toBe(2);

    // A subscription attaches, then reads its snapshot, as SessionConnection does.
    const changes: RowChange[] = [];
    union.attach({ record: (change) => changes.push(change), syncStateChanged: () => {} });
    expect(
      union
        .rows()
        .map((row) => [row.key, row.labels.version])
        .sort(),
    ).toEqual([
      ['default/a', '2'],
      ['default/b', '1'],
    ]);
    api.apply(labelled('b', '2'));
    await clock.stepAsync(100);
    expect(changes.map((change) => change.type)).toEqual(['updated']);
    await union.stop();
  });
});
