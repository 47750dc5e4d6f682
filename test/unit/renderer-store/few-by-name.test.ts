import { describe, expect, it, vi } from 'vitest';
import { keysInNameOrder, mergedByName, nameOrderExcluding } from '../../../renderer/store/few-by-name';
import { inNameOrder, mergedInNameOrder } from '../../../renderer/store/name-order';
import type * as NameOrderModule from '../../../renderer/store/name-order';
import { SubscriptionMirror } from '../../../renderer/store/subscription-mirror';
import type { Row } from '../../../shared/protocol/row';
import { deltaBatch, pick, row, seededRandom } from '../bridge/fixtures';
import { applyRound, churnRound, keysByName } from './random-churn';

/** Every key in `order` order whose position passes `take`. */
function every(order: readonly string[], take: (index: number) => boolean): string[] {
  return order.filter((_, index) => take(index));
}

// The kept order's entry points, spied on (they still answer): which path a call took.
vi.mock('../../../renderer/store/name-order', async (importOriginal) => {
  const actual = await importOriginal<typeof NameOrderModule>();
  return {
    ...actual,
    inNameOrder: vi.fn(actual.inNameOrder),
    mergedInNameOrder: vi.fn(actual.mergedInNameOrder),
  };
});

describe('few keys in name order', () => {
  it('fuzz: sorts and merges exactly as the kept name order does, directly or through it', () => {
    const random = seededRandom(23);
    const mirror = new SubscriptionMirror(0);
    const live = new Map<string, Row>();
    for (let seq = 1; seq <= 120; seq++) {
      const round = churnRound(random, live, {
        changes: seq === 1 ? 3_000 : 5 + Math.floor(random() * 60),
        deleteChance: 0.4,
        // Numbers inside names and mixed case: the collator's numeric order, not code points.
        newKey: () =>
          `${pick(random, ['a', 'b'])}/${pick(random, ['web', 'db', 'Web', 'api-7'])}-${Math.floor(random() * 2_000)}`,
        make: (key) => row(key, String(seq)),
      });
      applyRound(mirror, seq, round);
      const expected = keysByName(live.values());
      // Few keys (sorted directly after churn) and many (through the kept order).
      const share = pick(random, [0.002, 0.01, 0.3]);
      const picked = every(expected, () => random() < share);
      const shuffled = [...picked].sort(() => random() - 0.5);
      expect(keysInNameOrder(mirror, shuffled)).toEqual(picked);
      const added = picked.filter(() => random() < 0.3);
      const ordered = picked.filter((key) => !added.includes(key));
      expect(mergedByName(mirror, ordered, [...added].reverse())).toEqual(picked);
      if (seq % 10 === 0) expect(nameOrderExcluding(mirror, [])).toEqual(expected);
    }
  });

  it('leaves the kept name order unread for a few keys after churn, and reads it for many', () => {
    const mirror = new SubscriptionMirror(0);
    const keys = Array.from({ length: 2_000 }, (_, index) => `ns/pod-${index}`);
    mirror.apply(deltaBatch(1, { upserts: keys.map((key) => row(key)), replace: true, snapshotEnd: true }));
    expect(nameOrderExcluding(mirror, [])).toHaveLength(2_000);
    // Nothing changed since: the kept order is current, and its ranks sort.
    vi.mocked(inNameOrder).mockClear();
    expect(keysInNameOrder(mirror, ['ns/pod-12', 'ns/pod-3'])).toEqual(['ns/pod-3', 'ns/pod-12']);
    expect(inNameOrder).toHaveBeenCalledTimes(1);

    mirror.apply(deltaBatch(2, { upserts: [row('ns/pod-new')], deletes: ['ns/pod-5'] }));
    vi.mocked(inNameOrder).mockClear();
    vi.mocked(mergedInNameOrder).mockClear();
    expect(keysInNameOrder(mirror, ['ns/pod-12', 'ns/pod-new', 'ns/pod-3'])).toEqual([
      'ns/pod-3',
      'ns/pod-12',
      'ns/pod-new',
    ]);
    expect(mergedByName(mirror, ['ns/pod-3', 'ns/pod-new'], ['ns/pod-12'])).toEqual([
      'ns/pod-3',
      'ns/pod-12',
      'ns/pod-new',
    ]);
    expect(inNameOrder).not.toHaveBeenCalled();
    expect(mergedInNameOrder).not.toHaveBeenCalled();

    const many = keysByName([...mirror.rows.values()]).slice(0, 500);
    expect(keysInNameOrder(mirror, [...many].reverse())).toEqual(many);
    expect(inNameOrder).toHaveBeenCalledTimes(1);
  });
});
