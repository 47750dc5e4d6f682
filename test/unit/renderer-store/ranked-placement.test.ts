import { describe, expect, it } from 'vitest';
import { maxRank, respaceCrowded } from '../../../renderer/store/ranked-placement';
import { seededRandom } from '../bridge/fixtures';

/** Ranks 1,000 apart with `crowded` runs of equal ranks at random places, as an exhausted gap leaves them. */
function crowdedRanks(count: number, crowded: number, seed: number): Int32Array {
  const random = seededRandom(seed);
  const ranks = Int32Array.from({ length: count }, (_, index) => (index + 1) * 1_000);
  for (let run = 0; run < crowded; run++) {
    const at = 1 + Math.floor(random() * (count - 10));
    for (let offset = 1; offset < 6; offset++) ranks[at + offset] = ranks[at];
  }
  return ranks;
}

describe('respaceCrowded', () => {
  it('makes the ranks strictly increasing again, moving only keys near the crowded gaps', () => {
    const ranks = crowdedRanks(10_000, 20, 3);
    const before = ranks.slice();
    const keys = Array.from({ length: ranks.length }, (_, index) => `k${index}`);
    const rankOf = new Map(keys.map((key, index) => [key, ranks[index]]));
    expect(respaceCrowded(keys, ranks, rankOf)).toBe(true);
    for (let index = 1; index < ranks.length; index++) expect(ranks[index]).toBeGreaterThan(ranks[index - 1]);
    // The Map follows every rank that moved (and only those moved: a few windows, not the order).
    keys.forEach((key, index) => expect(rankOf.get(key)).toBe(ranks[index]));
    const moved = ranks.filter((rank, index) => rank !== before[index]).length;
    expect(moved).toBeGreaterThan(0);
    expect(moved).toBeLessThan(2_000);
  });

  it('leaves strictly increasing ranks as they are', () => {
    const ranks = Int32Array.from({ length: 100 }, (_, index) => (index + 1) * 10);
    const before = ranks.slice();
    expect(respaceCrowded([], ranks, undefined)).toBe(true);
    expect(ranks).toEqual(before);
  });

  it('says so when the whole order is crowded, for the caller to rank every key again', () => {
    const ranks = new Int32Array(64).fill(maxRank >> 1);
    expect(respaceCrowded([], ranks, undefined)).toBe(true);
    // Too many keys for the whole range at the room a respaced window leaves.
    const packed = new Int32Array((maxRank >> 6) + 10).fill(5);
    expect(respaceCrowded([], packed, undefined)).toBe(false);
  });
});
