// Queries whose answer is most rows (the first letters of free text, `!canary`, `app!=api-1`, an
// invalid or partial selector): answered as the name order without the rows that fail, which must give
// exactly the rows, order and count of the plain answer (filter every row, sort by name then key).
import { describe, expect, it } from 'vitest';
import { NarrowingQuery } from '../../../renderer/store/narrowing-query';
import { answersByExclusion, matchesFilter, queryRows } from '../../../renderer/store/row-query';
import type { RowFilter } from '../../../renderer/store/row-query';
import { SubscriptionMirror } from '../../../renderer/store/subscription-mirror';
import { warmTextSearch } from '../../../renderer/store/text-match';
import { parseFilterExpression } from '../../../renderer/ui-state/filter-expression';
import { rowFilterOf } from '../../../renderer/views/kind-rows-query';
import type { Row } from '../../../shared/protocol/row';
import { deltaBatch, pick, row, seededRandom } from '../bridge/fixtures';
import { applyRound, churnRound, keysByName } from './random-churn';

/** Pods as Deployments name them; a tenth are canaries (a label few rows have, `track`, holds `a`). */
function pod(random: () => number, key: string, version: number): Row {
  const app = key.split('/')[1].split('-').slice(0, 2).join('-');
  return row(key, String(version), {
    labels: {
      ...(random() < 0.95 ? { app } : {}),
      'pod-template-hash': `7f${Math.floor(random() * 20)}`,
      ...(random() < 0.1 ? { track: 'canary' } : {}),
      ...(random() < 0.05 ? { canary: 'true' } : {}),
    },
    node: pick(random, ['node-1', 'node-2']),
    status: pick(random, ['Running', 'Running', 'Pending']),
  });
}

/** The filter the view builds from the typed text (rowFilterOf, as use-kind-rows.ts asks it). */
function filterOf(text: string): RowFilter {
  return rowFilterOf(parseFilterExpression(text));
}

function expected(live: ReadonlyMap<string, Row>, filter: RowFilter): string[] {
  if (filter.labelSelector?.matchesNothing()) return [];
  return keysByName([...live.values()].filter((each) => matchesFilter(each, filter)));
}

describe('queries whose answer is most rows', () => {
  it('answers text in every key but also in a label few rows have by the rows it leaves out', () => {
    const random = seededRandom(3);
    const mirror = new SubscriptionMirror(0);
    const live = new Map<string, Row>();
    applyRound(
      mirror,
      1,
      churnRound(random, live, {
        changes: 400,
        deleteChance: 0,
        newKey: () =>
          `team-${Math.floor(random() * 5)}/api-${Math.floor(random() * 9)}-${Math.floor(random() * 1e6)}`,
        make: (key) => pod(random, key, 1),
      }),
    );
    // Keys without `a`: one row holds it in its uncommon label alone (kept), one nowhere (left out).
    const lone = row('ops/db-1', '2', { labels: { track: 'canary' } });
    const bare = row('ops/db-2', '2', { labels: { tier: 'db' } });
    live.set(lone.key, lone).set(bare.key, bare);
    mirror.apply(deltaBatch(2, { upserts: [lone, bare] }));
    warmTextSearch(mirror);
    // `a` is in nearly every key; the label keys holding it include `track`, which most rows lack.
    expect(answersByExclusion(mirror, { text: 'a' })).toBe(true);
    expect(answersByExclusion(mirror, { text: 'api' })).toBe(true);
    const answer = queryRows(mirror, { text: 'a' });
    expect(answer).toEqual(expected(live, { text: 'a' }));
    expect(answer).toContain(lone.key);
    expect(answer).not.toContain(bare.key);
    expect(queryRows(mirror, { text: 'api' })).toEqual(expected(live, { text: 'api' }));
  });

  it('fuzz: typed key by key under churn, the same rows, order and count as the plain answer', () => {
    const random = seededRandom(19);
    // A short log: some queries fall behind it and are answered from every row.
    const mirror = new SubscriptionMirror(0, 400);
    const live = new Map<string, Row>();
    const newKey = () =>
      `${pick(random, ['team-a', 'team-b', 'Team-C', 'ops'])}/${pick(random, ['api', 'api', 'web', 'db'])}-${Math.floor(random() * 12)}-${Math.floor(random() * 300)}`;
    const texts = [
      'api-1',
      '!canary',
      'app!=api-1',
      'app in (api-1),pod-template-hash!=7f3',
      'team',
      'a b',
      'app=',
      'track!=canary,app',
      'status=Running',
      'Api',
      'pod-template-hash notin (7f1,7f2)',
      '!app',
    ];
    let version = 1;
    const churn = (changes: number): void => {
      version += 1;
      applyRound(
        mirror,
        version,
        churnRound(random, live, {
          changes,
          deleteChance: 0.4,
          newKey,
          make: (key) => pod(random, key, version),
        }),
      );
    };
    applyRound(
      mirror,
      1,
      churnRound(random, live, {
        changes: 1_200,
        deleteChance: 0,
        newKey,
        make: (key) => pod(random, key, 1),
      }),
    );
    const narrowing = new NarrowingQuery();
    const sort = { column: 'name' } as const;
    for (const text of texts)
      for (let length = 1; length <= text.length + 1; length++) {
        const typed = length <= text.length ? text.slice(0, length) : '';
        churn(random() < 0.05 ? 300 : Math.floor(random() * 40));
        if (random() < 0.3) warmTextSearch(mirror);
        const filter = filterOf(typed);
        const plain = expected(live, filter);
        expect(narrowing.query(mirror, filter, sort), typed).toEqual(plain);
        if (random() < 0.2)
          expect(queryRows(mirror, filter, { column: 'name', descending: true }), typed).toEqual(
            plain.reverse(),
          );
      }
    narrowing.release();
  });
});
