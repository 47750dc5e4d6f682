import { describe, expect, it } from 'vitest';
import { countRows, matchesFilter, queryRows } from '../../../renderer/store/row-query';
import type { RowFilter } from '../../../renderer/store/row-query';
import { SubscriptionMirror } from '../../../renderer/store/subscription-mirror';
import { parseLabelSelector } from '../../../shared/selectors/label-selector';
import type { Row } from '../../../shared/protocol/row';
import { pick, row, seededRandom } from '../bridge/fixtures';

function mirrorOf(rows: Row[]): SubscriptionMirror {
  const mirror = new SubscriptionMirror();
  mirror.apply({
    type: 'batch',
    subscriptionId: 's',
    seq: 1,
    upserts: rows,
    deletes: [],
    replace: true,
    snapshotEnd: true,
  });
  return mirror;
}

const pods = [
  row('default/web-2', '1', {
    labels: { app: 'web', tier: 'front' },
    node: 'n1',
    status: 'Running',
    cells: ['web-2', 3],
  }),
  row('default/web-10', '1', { labels: { app: 'web' }, node: 'n2', status: 'Pending', cells: ['web-10', 1] }),
  row('payments/db-0', '1', {
    labels: { app: 'db', tier: 'back' },
    node: 'n1',
    status: 'Running',
    owners: [{ kind: 'StatefulSet', name: 'db', uid: 'sts-1', controller: true }],
    cells: ['db-0', null],
  }),
];

describe('queryRows', () => {
  it('filters by namespace set', () => {
    expect(queryRows(mirrorOf(pods), { namespaces: ['payments'] })).toEqual(['payments/db-0']);
  });

  it('filters by a label selector, including negative requirements', () => {
    const mirror = mirrorOf(pods);
    expect(queryRows(mirror, { labelSelector: parseLabelSelector('app=web,tier!=front') })).toEqual([
      'default/web-10',
    ]);
    expect(queryRows(mirror, { labelSelector: parseLabelSelector('tier') })).toHaveLength(2);
  });

  it('filters by node, owner uid, status and free text together', () => {
    const mirror = mirrorOf(pods);
    expect(queryRows(mirror, { node: 'n1', status: 'Running', ownerUid: 'sts-1', text: 'DB' })).toEqual([
      'payments/db-0',
    ]);
  });

  it('matches free text against label pairs', () => {
    expect(queryRows(mirrorOf(pods), { text: 'tier=fr' })).toEqual(['default/web-2']);
  });

  it('sorts by name with numeric-aware collation by default', () => {
    expect(queryRows(mirrorOf(pods))).toEqual(['payments/db-0', 'default/web-2', 'default/web-10']);
  });

  it('sorts by a cell numerically, empty cells last, ties stable by key', () => {
    expect(queryRows(mirrorOf(pods), {}, { column: 1 })).toEqual([
      'default/web-10',
      'default/web-2',
      'payments/db-0',
    ]);
    expect(queryRows(mirrorOf(pods), {}, { column: 'node' })).toEqual([
      'default/web-2',
      'payments/db-0',
      'default/web-10',
    ]);
  });

  it('keeps empty cells last when sorting descending too', () => {
    expect(queryRows(mirrorOf(pods), {}, { column: 1, descending: true })).toEqual([
      'default/web-2',
      'default/web-10',
      'payments/db-0',
    ]);
  });

  it('counts matches without sorting', () => {
    expect(countRows(mirrorOf(pods), { labelSelector: parseLabelSelector('app in (web,db)') })).toBe(3);
  });

  it('fuzz: the indexed query returns exactly what a full scan with matchesFilter returns', () => {
    const random = seededRandom(99);
    const rows = Array.from({ length: 300 }, (_, index) =>
      row(`${pick(random, ['a', 'b', 'c'])}/p${index}`, '1', {
        labels: random() < 0.7 ? { app: pick(random, ['x', 'y', 'z']) } : {},
        node: pick(random, ['n1', 'n2', undefined]),
        status: pick(random, ['Running', 'Failed']),
      }),
    );
    const mirror = mirrorOf(rows);
    const selectors = ['app=x', 'app in (x,y)', 'app', '!app', 'app!=z', ''];
    for (let trial = 0; trial < 100; trial++) {
      const filter: RowFilter = {
        namespaces: random() < 0.5 ? [pick(random, ['a', 'b', 'c'])] : undefined,
        labelSelector: parseLabelSelector(pick(random, selectors)),
        node: random() < 0.3 ? pick(random, ['n1', 'n2']) : undefined,
        status: random() < 0.3 ? 'Running' : undefined,
      };
      const expected = rows
        .filter((each) => matchesFilter(each, filter))
        .map((each) => each.key)
        .sort();
      expect([...queryRows(mirror, filter)].sort()).toEqual(expected);
    }
  });
});
