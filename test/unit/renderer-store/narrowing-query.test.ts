import { describe, expect, it, vi } from 'vitest';
import { keysReturned, leaseKeys, returnKeys } from '../../../renderer/store/key-leases';
import { NarrowingQuery, narrows } from '../../../renderer/store/narrowing-query';
import { compareCells, matchesFilter, queryRows } from '../../../renderer/store/row-query';
import type { RowFilter } from '../../../renderer/store/row-query';
import type * as RowQuery from '../../../renderer/store/row-query';
import { SubscriptionMirror } from '../../../renderer/store/subscription-mirror';
import { nothing, parseLabelSelector } from '../../../shared/selectors/label-selector';
import type { Row } from '../../../shared/protocol/row';
import { deltaBatch, pick, row, seededRandom } from '../bridge/fixtures';

// The full query, observed: the narrowing query must not run it when it can filter its last answer.
vi.mock('../../../renderer/store/row-query', async (importOriginal) => {
  const original = await importOriginal<typeof RowQuery>();
  return { ...original, queryRows: vi.fn(original.queryRows) };
});

const selector = parseLabelSelector;

function randomRow(random: () => number, key: string, version: number): Row {
  return row(key, String(version), {
    labels: {
      ...(random() < 0.7 ? { app: pick(random, ['web', 'api', 'pay']) } : {}),
      ...(random() < 0.6 ? { hash: `h${Math.floor(random() * 12)}` } : {}),
      ...(random() < 0.5 ? { rank: String(Math.floor(random() * 5)) } : {}),
    },
    node: pick(random, ['n1', 'n2', undefined]),
    status: pick(random, ['Running', 'Failed']),
  });
}

/** What the query must answer: the model's rows that match, by name then key. */
function expected(live: ReadonlyMap<string, Row>, filter: RowFilter): string[] {
  return [...live.values()]
    .filter((each) => matchesFilter(each, filter))
    .sort((left, right) => compareCells(left.name, right.name) || (left.key < right.key ? -1 : 1))
    .map((each) => each.key);
}

describe('narrows', () => {
  it('accepts only filters that can accept no row the previous one rejects', () => {
    expect(narrows({ text: 'we' }, { text: 'Web' })).toBe(true);
    expect(narrows({ text: 'web' }, { text: 'we' })).toBe(false);
    expect(narrows({ text: 'eb' }, { text: 'web' })).toBe(true);
    expect(narrows({}, { text: 'x', node: 'n1' })).toBe(true);
    expect(narrows({ node: 'n1' }, { node: 'n2' })).toBe(false);
    expect(narrows({ labelSelector: selector('app=web') }, { labelSelector: selector('app=web,rank') })).toBe(
      true,
    );
    // A value typed further is another requirement, not an added one.
    expect(narrows({ labelSelector: selector('app=w') }, { labelSelector: selector('app=we') })).toBe(false);
    expect(narrows({ labelSelector: selector('app') }, {})).toBe(false);
    expect(narrows({ labelSelector: nothing() }, { labelSelector: selector('app') })).toBe(false);
    expect(narrows({ namespaces: ['a', 'b'] }, { namespaces: new Set(['b']) })).toBe(true);
    expect(narrows({ namespaces: ['a'] }, {})).toBe(false);
    // Leaving out more accepts less; leaving out less (or another value) may accept more.
    expect(
      narrows({ without: { statuses: ['Running'] } }, { without: { statuses: ['Running', 'Failed'] } }),
    ).toBe(true);
    expect(narrows({}, { without: { nodes: ['n1'] } })).toBe(true);
    expect(narrows({ without: { nodes: ['n1'] } }, { without: { nodes: ['n2'] } })).toBe(false);
    expect(narrows({ without: { namespaces: ['a'] } }, {})).toBe(false);
  });
});

describe('NarrowingQuery', () => {
  it('filters its last answer rather than every row when the filter narrows', () => {
    const mirror = new SubscriptionMirror();
    // Answers a small share of the rows: a text answer holding many of them is queried anew instead.
    const others = Array.from({ length: 30 }, (_, index) => `payments/db-${index}`);
    const rows = ['default/web-1', 'default/web-2', 'default/api-1', ...others].map((key) => row(key));
    mirror.apply(deltaBatch(1, { upserts: rows, replace: true, snapshotEnd: true }));
    const fullQueries = vi.mocked(queryRows);
    fullQueries.mockClear();
    const narrowing = new NarrowingQuery();
    expect(narrowing.query(mirror, { text: 'we' })).toEqual(['default/web-1', 'default/web-2']);
    expect(fullQueries).toHaveBeenCalledTimes(1);
    mirror.apply(deltaBatch(2, { upserts: [row('default/web-10')], deletes: ['default/web-1'] }));
    expect(narrowing.query(mirror, { text: 'web' })).toEqual(['default/web-2', 'default/web-10']);
    expect(narrowing.query(mirror, { text: 'web-1' })).toEqual(['default/web-10']);
    expect(fullQueries).toHaveBeenCalledTimes(1);
    // Wider again: only a query of every row can answer.
    expect(narrowing.query(mirror, { text: 'w' })).toEqual(['default/web-2', 'default/web-10']);
    expect(fullQueries).toHaveBeenCalledTimes(2);
    // An index holds fewer candidates than the last answer: the full query reads those instead.
    const web1 = row('default/web-1', '2', { labels: { app: 'web' } });
    mirror.apply(deltaBatch(3, { upserts: [web1] }));
    expect(narrowing.query(mirror, { text: 'w', labelSelector: selector('app=web') })).toEqual([
      'default/web-1',
    ]);
    expect(fullQueries).toHaveBeenCalledTimes(3);
  });

  it('fuzz: equals the full query while the filter is typed and rows churn between queries', () => {
    const random = seededRandom(15);
    // A low pending limit trims the log under the bigger bursts, so some answers fall back to a scan.
    const mirror = new SubscriptionMirror(0, 64);
    const live = new Map<string, Row>();
    const keyPool = Array.from(
      { length: 500 },
      (_, index) => `${pick(random, ['a', 'b', 'c'])}${index % 4}/p${Math.floor(index / 3)}`,
    );
    let seq = 0;
    let version = 0;
    const churn = (changes: number, replace: boolean): void => {
      const upserts = new Map<string, Row>();
      const deletes = new Set<string>();
      for (let change = 0; change < changes; change++) {
        const key = pick(random, keyPool);
        upserts.delete(key);
        deletes.delete(key);
        if (live.has(key) && random() < 0.3) deletes.add(key);
        else upserts.set(key, randomRow(random, key, (version += 1)));
      }
      if (replace) {
        // A relist: what it does not mention is removed, so deletes are left to the sweep.
        for (const key of deletes) live.delete(key);
        deletes.clear();
        for (const [key, each] of live) if (!upserts.has(key) && random() < 0.9) upserts.set(key, each);
        for (const key of [...live.keys()]) if (!upserts.has(key)) live.delete(key);
      }
      for (const key of deletes) live.delete(key);
      for (const [key, each] of upserts) live.set(key, each);
      seq += 1;
      mirror.apply(
        deltaBatch(seq, {
          upserts: [...upserts.values()],
          deletes: [...deletes],
          ...(replace ? { replace: true, snapshotEnd: true } : {}),
        }),
      );
    };
    churn(400, true);

    const requirementPool = ['app=web', 'app!=api', '!rank', 'hash', 'rank>1', 'hash notin (h1,h2)', 'app'];
    let text = '';
    let requirements: string[] = [];
    let namespaces: string[] = [];
    let node: string | undefined;
    let notStatuses: string[] = [];
    const narrowing = new NarrowingQuery();
    let narrowed = 0;
    for (let step = 0; step < 400; step++) {
      const action = random();
      if (action < 0.35) text += pick(random, ['p', '1', 'a', '/', '=', 'h', 'P', 'e', 'b', '0']);
      else if (action < 0.45) text = text.slice(0, -1);
      else if (action < 0.5) text = '';
      else if (action < 0.6) requirements.push(pick(random, requirementPool));
      else if (action < 0.65) requirements = requirements.slice(1);
      else if (action < 0.7) namespaces = random() < 0.5 ? [] : [pick(random, ['a0', 'b1', 'c2', 'a3'])];
      else if (action < 0.75) node = random() < 0.5 ? undefined : pick(random, ['n1', 'n2']);
      else if (action < 0.8)
        notStatuses = random() < 0.5 ? [] : [...notStatuses, pick(random, ['Running', 'Failed'])];
      const burst = random();
      if (burst < 0.05) churn(300, false);
      else if (burst < 0.08) churn(50, true);
      else churn(Math.floor(random() * 30), false);

      const filter: RowFilter = {
        text,
        ...(requirements.length > 0 ? { labelSelector: selector(requirements.join(',')) } : {}),
        ...(namespaces.length > 0 ? { namespaces: new Set(namespaces) } : {}),
        ...(node !== undefined ? { node } : {}),
        ...(notStatuses.length > 0 ? { without: { statuses: notStatuses } } : {}),
      };
      const fullQueries = vi.mocked(queryRows).mock.calls.length;
      const answer = narrowing.query(mirror, filter);
      if (vi.mocked(queryRows).mock.calls.length === fullQueries) narrowed += 1;
      expect(answer).toEqual(expected(live, filter));
      expect(answer).toEqual(queryRows(mirror, filter));
    }
    // Many steps took the narrowed path (no full query), so the comparison above covers it well.
    expect(narrowed).toBeGreaterThan(200);
  });

  it('answers other orders with a full query', () => {
    const mirror = new SubscriptionMirror();
    mirror.apply(
      deltaBatch(1, {
        upserts: [row('a/x', '1', { status: 'B' }), row('a/y', '1', { status: 'A' })],
        replace: true,
        snapshotEnd: true,
      }),
    );
    const narrowing = new NarrowingQuery();
    expect(narrowing.query(mirror, {}, { column: 'status' })).toEqual(['a/y', 'a/x']);
    expect(narrowing.query(mirror, {}, { column: 'name', descending: true })).toEqual(['a/y', 'a/x']);
  });

  it('leases its last answer, the kept name order itself, until the next answer replaces it', () => {
    const mirror = new SubscriptionMirror();
    const rows = ['a/x-1', 'a/x-2', 'a/x-3'].map((key) => row(key));
    mirror.apply(deltaBatch(1, { upserts: rows, replace: true, snapshotEnd: true }));
    const narrowing = new NarrowingQuery();
    const last = narrowing.query(mirror, {});
    expect(last).toBe(queryRows(mirror, {}));
    // The table lets go of the same answer; the name order changes twice beneath the narrowing query.
    leaseKeys(last);
    returnKeys(last);
    for (const [seq, key] of [
      [2, 'a/x-4'],
      [3, 'a/x-5'],
    ] as const) {
      mirror.apply(deltaBatch(seq, { upserts: [row(key)], deletes: ['a/x-1'] }));
      queryRows(mirror, {});
    }
    expect(last).toEqual(['a/x-1', 'a/x-2', 'a/x-3']);
    expect(keysReturned(last)).toBe(false);
    expect(narrowing.query(mirror, {})).toEqual(['a/x-2', 'a/x-3', 'a/x-4', 'a/x-5']);
    expect(keysReturned(last)).toBe(true);
    narrowing.release();
    expect(keysReturned(queryRows(mirror, {}))).toBe(true);
  });
});
