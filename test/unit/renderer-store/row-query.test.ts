import { describe, expect, it } from 'vitest';
import { compareCells, countRows, matchesFilter, queryRows } from '../../../renderer/store/row-query';
import type { RowFilter } from '../../../renderer/store/row-query';
import { SubscriptionMirror } from '../../../renderer/store/subscription-mirror';
import { nothing, parseLabelSelector } from '../../../shared/selectors/label-selector';
import type { Row } from '../../../shared/protocol/row';
import { deltaBatch, pick, row, seededRandom } from '../bridge/fixtures';
import { applyRound, churnRound, keysByName } from './random-churn';

function mirrorOf(rows: Row[]): SubscriptionMirror {
  const mirror = new SubscriptionMirror();
  mirror.apply(deltaBatch(1, { upserts: rows, replace: true, snapshotEnd: true }));
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

  it('leaves out rows in excluded namespaces, on excluded nodes or in excluded statuses', () => {
    const mirror = mirrorOf([
      ...pods,
      row('default/config', '1', { labels: {}, cells: ['config', null] }), // no node, no status
    ]);
    expect(queryRows(mirror, { without: { statuses: ['Running'] } })).toEqual([
      'default/config',
      'default/web-10',
    ]);
    expect(queryRows(mirror, { without: { nodes: ['n1'] } })).toEqual(['default/config', 'default/web-10']);
    expect(queryRows(mirror, { without: { namespaces: ['default'] } })).toEqual(['payments/db-0']);
    expect(queryRows(mirror, { without: { statuses: ['Running', 'Pending'] }, text: 'web' })).toEqual([]);
    expect(countRows(mirror, { without: { nodes: ['n2', 'missing'] } })).toBe(3);
  });

  it('matches free text against label pairs', () => {
    expect(queryRows(mirrorOf(pods), { text: 'tier=fr' })).toEqual(['default/web-2']);
    // Within a key, within a value, across the '=', case-insensitively; never across two labels.
    expect(queryRows(mirrorOf(pods), { text: 'IER' })).toEqual(['payments/db-0', 'default/web-2']);
    expect(queryRows(mirrorOf(pods), { text: 'ron' })).toEqual(['default/web-2']);
    expect(queryRows(mirrorOf(pods), { text: 'r=b' })).toEqual(['payments/db-0']);
    expect(queryRows(mirrorOf(pods), { text: 'webtier' })).toEqual([]);
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
      // Names repeat across namespaces, so the order's tie-break by key is exercised too.
      row(`${pick(random, ['a', 'b', 'c'])}${Math.floor(index / 40)}/p${index % 40}`, '1', {
        labels: {
          ...(random() < 0.7 ? { app: pick(random, ['x', 'y', 'z']) } : {}),
          ...(random() < 0.6 ? { hash: `h${Math.floor(random() * 12)}` } : {}),
          ...(random() < 0.5 ? { rank: String(Math.floor(random() * 5)) } : {}),
        },
        node: pick(random, ['n1', 'n2', undefined]),
        status: pick(random, ['Running', 'Failed']),
        owners:
          random() < 0.5
            ? [{ kind: 'ReplicaSet', name: 'r', uid: pick(random, ['o1', 'o2']), controller: true }]
            : [],
      }),
    );
    const mirror = mirrorOf(rows);
    const selectors = [
      'app=x',
      'app in (x,y)',
      'app',
      '!app',
      'app!=z',
      '',
      'app notin (x,y)',
      'app!=x,app!=missing',
      'app in (x,y),app!=x',
      'app=missing',
      'missing!=x',
      '!hash',
      '!hash,app!=y',
      'hash!=h3,!app',
      'rank>1',
      'rank<3,app!=x',
      'hash in (h1,h2,h3),rank',
    ];
    for (let trial = 0; trial < 300; trial++) {
      const filter: RowFilter = {
        namespaces: random() < 0.4 ? [pick(random, ['a0', 'b1', 'c2', 'a3'])] : undefined,
        labelSelector: parseLabelSelector(pick(random, selectors)),
        node: random() < 0.2 ? pick(random, ['n1', 'n2']) : undefined,
        status: random() < 0.2 ? 'Running' : undefined,
        ownerUid: random() < 0.2 ? pick(random, ['o1', 'o2', 'o3']) : undefined,
        without:
          random() < 0.3
            ? {
                ...(random() < 0.5 ? { statuses: [pick(random, ['Running', 'Failed', 'Gone'])] } : {}),
                ...(random() < 0.5 ? { nodes: [pick(random, ['n1', 'n2', 'n9'])] } : {}),
                ...(random() < 0.3 ? { namespaces: [pick(random, ['a0', 'b1', 'c2'])] } : {}),
              }
            : undefined,
        // In a name, a namespace, across the key's '/', in a label key, value or across its '='.
        text:
          random() < 0.3
            ? pick(random, ['p1', 'P3', 'a0', '0/p', 'x', 'app', 'pp=', 'ash=h1', '=', 'h1', 'nk', 'zz'])
            : undefined,
      };
      const matching = rows.filter((each) => matchesFilter(each, filter));
      const byName = [...matching]
        .sort((left, right) => compareCells(left.name, right.name) || (left.key < right.key ? -1 : 1))
        .map((each) => each.key);
      expect(queryRows(mirror, filter)).toEqual(byName);
      expect([...queryRows(mirror, filter, { column: 'status' })].sort()).toEqual([...byName].sort());
      expect(countRows(mirror, filter)).toBe(matching.length);
    }
  });

  it('fuzz: the name order stays exact while rows come and go between queries', () => {
    const random = seededRandom(7);
    const mirror = new SubscriptionMirror();
    const live = new Map<string, Row>();
    for (let seq = 1; seq <= 60; seq++) {
      const round = churnRound(random, live, {
        changes: 20,
        deleteChance: 0.4,
        newKey: () => `${pick(random, ['a', 'b'])}/p${Math.floor(random() * 80)}`,
        make: (key) => row(key, String(seq), { labels: { app: pick(random, ['x', 'y']) } }),
      });
      applyRound(mirror, seq, round);
      const expected = keysByName(live.values());
      expect(queryRows(mirror, {})).toEqual(expected);
      expect(queryRows(mirror, { labelSelector: parseLabelSelector('app!=x') })).toEqual(
        expected.filter((key) => live.get(key)!.labels.app !== 'x'),
      );
    }
  });

  it('returns nothing for the selector that selects nothing', () => {
    expect(queryRows(mirrorOf(pods), { labelSelector: nothing() })).toEqual([]);
    expect(countRows(mirrorOf(pods), { labelSelector: nothing() })).toBe(0);
  });
});
