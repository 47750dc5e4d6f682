import { describe, expect, it } from 'vitest';
import type { Row } from '../../../shared/protocol';
import { SubscriptionMirror } from '../../../renderer/store/subscription-mirror';
import { queryRows } from '../../../renderer/store/row-query';
import { parseLabelSelector } from '../../../shared/selectors/label-selector';
import { orderedQuery, SortedOrder } from '../../../renderer/views/sorted-order';

function row(name: string, labels: Record<string, string> = {}, createdAt = 0): Row {
  return {
    key: `default/${name}`,
    uid: name,
    name,
    namespace: 'default',
    resourceVersion: '1',
    labels,
    owners: [],
    createdAt,
    cells: [name, createdAt],
  };
}

function mirrorWith(rows: Row[]): SubscriptionMirror {
  const mirror = new SubscriptionMirror();
  mirror.apply({
    type: 'batch',
    subscriptionId: 's',
    seq: 1,
    replace: true,
    snapshotEnd: true,
    upserts: rows,
    deletes: [],
  });
  return mirror;
}

describe('SortedOrder', () => {
  it('orders every key as the store query does', () => {
    const mirror = mirrorWith(['web-10', 'web-2', 'api-1', 'web-1'].map((name) => row(name)));
    expect(new SortedOrder().all(mirror, { column: 'name' })).toEqual(
      queryRows(mirror, {}, { column: 'name' }),
    );
  });

  it('follows adds, deletes and changed sort values from one revision to the next', () => {
    const mirror = mirrorWith([row('a', {}, 3), row('b', {}, 1), row('c', {}, 2)]);
    const order = new SortedOrder();
    const sort = { column: 'createdAt' as const, descending: true };
    expect(order.all(mirror, sort)).toEqual(['default/a', 'default/c', 'default/b']);
    mirror.apply({
      type: 'batch',
      subscriptionId: 's',
      seq: 2,
      upserts: [row('d', {}, 5), row('b', {}, 9)],
      deletes: ['default/c'],
    });
    expect(order.all(mirror, sort)).toEqual(queryRows(mirror, {}, sort));
    expect(order.all(mirror, sort)).toEqual(['default/b', 'default/d', 'default/a']);
  });

  it('answers unindexed filters in sort order and indexed ones through the store', () => {
    const mirror = mirrorWith([
      row('web-2', { app: 'web' }),
      row('api-1', { app: 'api' }),
      row('web-1', { app: 'web' }),
    ]);
    const order = new SortedOrder();
    const sort = { column: 'name' as const };
    expect(orderedQuery(mirror, { text: 'web' }, sort, order)).toEqual(['default/web-1', 'default/web-2']);
    const notApi = { labelSelector: parseLabelSelector('app!=api') };
    expect(orderedQuery(mirror, notApi, sort, order)).toEqual(queryRows(mirror, notApi, sort));
    const web = { labelSelector: parseLabelSelector('app=web') };
    expect(orderedQuery(mirror, web, sort, order)).toEqual(queryRows(mirror, web, sort));
  });

  it('leaves out the excluded statuses when sorted by another column', () => {
    const mirror = mirrorWith([
      { ...row('web-2', {}, 3), status: 'Running' },
      { ...row('api-1', {}, 1), status: 'Pending' },
      { ...row('web-1', {}, 2), status: 'Running' },
    ]);
    const byAge = { column: 'createdAt' as const };
    const notRunning = { without: { statuses: ['Running'] } };
    expect(orderedQuery(mirror, notRunning, byAge, new SortedOrder())).toEqual(['default/api-1']);
  });
});
