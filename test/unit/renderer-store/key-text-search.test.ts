import { describe, expect, it } from 'vitest';
import { KeyTextSearch } from '../../../renderer/store/key-text-search';
import { SubscriptionMirror } from '../../../renderer/store/subscription-mirror';
import { pick, row, seededRandom } from '../bridge/fixtures';
import { applyRound, churnRound } from './random-churn';

describe('KeyTextSearch', () => {
  it('fuzz: finds exactly the live keys whose lower case holds the text, as keys leave and come back', () => {
    const random = seededRandom(31);
    // A short log: the search also falls behind it and builds again from the rows.
    const mirror = new SubscriptionMirror(0, 300);
    const search = new KeyTextSearch(mirror.changes);
    const live = new Map<string, ReturnType<typeof row>>();
    const newKey = () =>
      `${pick(random, ['team-a', 'Team-B'])}/${pick(random, ['api', 'Api', 'web', 'İo'])}-${Math.floor(random() * 1_500)}`;
    const texts = ['api', 'a/', 'b/api-1', '-1', 'i̇o', 'web-14', 'zz', '\n'];
    for (let seq = 1; seq <= 150; seq++) {
      const round = churnRound(random, live, {
        changes: seq === 1 ? 2_500 : 40 + Math.floor(random() * 200),
        deleteChance: 0.5,
        newKey,
        make: (key) => row(key, String(seq)),
      });
      applyRound(mirror, seq, round);
      if (seq % 4 !== 0) continue;
      const text = texts[(seq / 4) % texts.length];
      const found = search.find(text);
      if (text.includes('\n')) expect(found).toBeUndefined();
      else
        expect(found?.sort(), text).toEqual(
          [...live.keys()].filter((key) => key.toLowerCase().includes(text)).sort(),
        );
    }
  });
});
