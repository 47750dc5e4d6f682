import { describe, expect, it } from 'vitest';
import type { Row } from '../../../shared/protocol';
import { SubscriptionMirror } from '../../../renderer/store/subscription-mirror';
import { parseFilterExpression } from '../../../renderer/ui-state/filter-expression';
import { queryKindRows } from '../../../renderer/views/kind-rows-query';
import { SortedOrder } from '../../../renderer/views/sorted-order';

function row(name: string): Row {
  return {
    key: `default/${name}`,
    uid: name,
    name,
    namespace: 'default',
    resourceVersion: '1',
    labels: {},
    owners: [],
    createdAt: 0,
    cells: [name],
  };
}

let seq = 0;
function apply(mirror: SubscriptionMirror, upserts: Row[], deletes: string[], replace = false): void {
  mirror.apply({
    type: 'batch',
    subscriptionId: 's',
    seq: ++seq,
    ...(replace ? { replace: true, snapshotEnd: true } : {}),
    upserts,
    deletes,
  });
}

describe('queryKindRows', () => {
  it('counts the total at the same moment as the matches: with no filter, "N of N" even after rows churn', () => {
    const mirror = new SubscriptionMirror();
    seq = 0;
    apply(mirror, ['a', 'b', 'c', 'd'].map(row), [], true);
    const noFilter = parseFilterExpression('');
    const order = new SortedOrder();
    const sort = { column: 'name' as const };
    const before = queryKindRows(mirror, noFilter, {}, sort, order);
    expect(before).toEqual({ keys: ['default/a', 'default/b', 'default/c', 'default/d'], total: 4 });

    // Rows are deleted before the (throttled) table re-queries: what it shows still agrees.
    apply(mirror, [], ['default/a', 'default/b', 'default/c']);
    expect(before.keys).toHaveLength(before.total);
    const after = queryKindRows(mirror, noFilter, {}, sort, order);
    expect(after).toEqual({ keys: ['default/d'], total: 1 });
  });

  it('counts filtered matches against the rows they were taken from', () => {
    const mirror = new SubscriptionMirror();
    seq = 0;
    apply(mirror, ['web-1', 'web-2', 'db-1'].map(row), [], true);
    const expression = parseFilterExpression('web');
    const snapshot = queryKindRows(
      mirror,
      expression,
      { text: 'web' },
      { column: 'name' },
      new SortedOrder(),
    );
    expect(snapshot).toEqual({ keys: ['default/web-1', 'default/web-2'], total: 3 });
  });
});
