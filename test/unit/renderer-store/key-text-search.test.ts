import { describe, expect, it } from 'vitest';
import { KeyTextSearch } from '../../../renderer/store/key-text-search';
import { SubscriptionMirror } from '../../../renderer/store/subscription-mirror';
import { deltaBatch, pick, row, seededRandom } from '../bridge/fixtures';
import { applyRound, churnRound } from './random-churn';

type LiveRows = Map<string, ReturnType<typeof row>>;

/**
 * 150 rounds of churn over a mirror with a short log (the search also falls behind it and builds
 * again from the rows), keys made by `newKey`; after each, idle time now and then (compaction steps
 * between reads), then `check`.
 */
function churnSearch(
  random: () => number,
  newKey: () => string,
  check: (seq: number, search: KeyTextSearch, live: LiveRows) => void,
): void {
  const mirror = new SubscriptionMirror(0, 300);
  const search = new KeyTextSearch(mirror.changes);
  const live: LiveRows = new Map();
  for (let seq = 1; seq <= 150; seq++) {
    const round = churnRound(random, live, {
      changes: seq === 1 ? 2_500 : 40 + Math.floor(random() * 200),
      deleteChance: 0.5,
      newKey,
      make: (key) => row(key, String(seq)),
    });
    applyRound(mirror, seq, round);
    if (random() < 0.5) search.catchUp();
    check(seq, search, live);
  }
}

describe('KeyTextSearch', () => {
  it('fuzz: finds exactly the live keys whose lower case holds the text, as keys leave and come back', () => {
    const random = seededRandom(31);
    const newKey = () =>
      `${pick(random, ['team-a', 'Team-B'])}/${pick(random, ['api', 'Api', 'web', 'İo'])}-${Math.floor(random() * 1_500)}`;
    const texts = ['api', 'a/', 'b/api-1', '-1', 'i̇o', 'web-14', 'zz', '\n'];
    churnSearch(random, newKey, (seq, search, live) => {
      expect(search.size - search.staleEntries).toBe(live.size);
      if (seq % 4 !== 0) return;
      const text = texts[(seq / 4) % texts.length];
      const found = search.find(text);
      if (text.includes('\n')) expect(found).toBeUndefined();
      else
        expect(found?.sort(), text).toEqual(
          [...live.keys()].filter((key) => key.toLowerCase().includes(text)).sort(),
        );
    });
  });

  it('fuzz: lists exactly the live keys lacking the text while they are few, as keys leave and come back', () => {
    const random = seededRandom(37);
    // Most keys hold `a`, `api` and `team`; a few (the `ops` namespace, the `db` pods) lack them.
    const newKey = () =>
      `${pick(random, ['team-a', 'Team-B', 'team-c', 'ops'])}/${pick(random, ['api', 'Api', 'api', 'db'])}-${Math.floor(random() * 1_500)}`;
    const texts = ['a', 'api', 'team', 'b/', '-1', 'zz', '\n', ''];
    churnSearch(random, newKey, (seq, search, live) => {
      const text = texts[seq % texts.length];
      const expected = [...live.keys()].filter((key) => !key.toLowerCase().includes(text)).sort();
      const limit = pick(random, [0, 10, 400, 5_000]);
      const lacking = search.lacking(text, limit);
      if (text.includes('\n') || text === '' || expected.length > limit)
        expect(lacking, text).toBeUndefined();
      // Refused by the estimate (see lacking) only when they are not clearly few.
      else if (lacking !== undefined || expected.length * 4 <= limit)
        expect(lacking?.sort(), text).toEqual(expected);
    });
  });

  it('drops stale entries a few chunks per idle read, not all at once, and finds the same keys', () => {
    const mirror = new SubscriptionMirror(0);
    const search = new KeyTextSearch(mirror.changes);
    const keys = Array.from({ length: 40_000 }, (_, index) => `team-${index % 7}/web-${index}`);
    mirror.apply(
      deltaBatch(1, { upserts: keys.map((key) => row(key, '1')), replace: true, snapshotEnd: true }),
    );
    search.catchUp();
    // A quarter of the rows leave, and a tenth of those come back: stale entries past an eighth.
    const gone = keys.filter((_, index) => index % 4 === 0);
    mirror.apply(deltaBatch(2, { deletes: gone }));
    const back = gone.filter((_, index) => index % 10 === 0);
    mirror.apply(deltaBatch(3, { upserts: back.map((key) => row(key, '3')) }));
    const expected = [...mirror.rows.keys()].filter((key) => key.includes('web-1')).sort();

    search.catchUp();
    const afterOneStep = search.staleEntries;
    expect(afterOneStep).toBeGreaterThan(0);
    expect(afterOneStep).toBeLessThan(gone.length);
    expect(search.find('web-1')?.sort()).toEqual(expected);

    for (let read = 0; read < 10; read++) search.catchUp();
    expect(search.staleEntries).toBe(0);
    expect(search.size).toBe(mirror.rows.size);
    expect(search.find('web-1')?.sort()).toEqual(expected);
  });
});
