import { describe, expect, it } from 'vitest';
import { KeyTextSearch } from '../../../renderer/store/key-text-search';
import { SubscriptionMirror } from '../../../renderer/store/subscription-mirror';
import { deltaBatch, pick, row, seededRandom } from '../bridge/fixtures';

describe('KeyTextSearch', () => {
  it('fuzz: finds exactly the live keys whose lower case holds the text, as keys leave and come back', () => {
    const random = seededRandom(31);
    // A short log: the search also falls behind it and builds again from the rows.
    const mirror = new SubscriptionMirror(0, 300);
    const search = new KeyTextSearch(mirror.changes);
    const live = new Set<string>();
    const newKey = () =>
      `${pick(random, ['team-a', 'Team-B'])}/${pick(random, ['api', 'Api', 'web', 'İo'])}-${Math.floor(random() * 1_500)}`;
    const texts = ['api', 'a/', 'b/api-1', '-1', 'i̇o', 'web-14', 'zz', '\n'];
    for (let seq = 1; seq <= 150; seq++) {
      const upserts = new Map<string, ReturnType<typeof row>>();
      const deletes = new Set<string>();
      for (let change = 0; change < (seq === 1 ? 2_500 : 40 + Math.floor(random() * 200)); change++) {
        const key = newKey();
        if (upserts.has(key) || deletes.has(key)) continue;
        if (live.has(key) && random() < 0.5) deletes.add(key);
        else upserts.set(key, row(key, String(seq)));
      }
      for (const key of deletes) live.delete(key);
      for (const key of upserts.keys()) live.add(key);
      mirror.apply(
        deltaBatch(seq, {
          upserts: [...upserts.values()],
          deletes: [...deletes],
          ...(seq === 1 ? { replace: true, snapshotEnd: true } : {}),
        }),
      );
      if (seq % 4 !== 0) continue;
      const text = texts[(seq / 4) % texts.length];
      const found = search.find(text);
      if (text.includes('\n')) expect(found).toBeUndefined();
      else
        expect(found?.sort(), text).toEqual(
          [...live].filter((key) => key.toLowerCase().includes(text)).sort(),
        );
    }
  });
});
