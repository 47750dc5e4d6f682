import { describe, expect, it } from 'vitest';
import { maxRank, placeArrivals, respaceCrowded } from '../../../renderer/store/ranked-placement';
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

/** `names` that counts how often placement reads a kept name (one read per comparison with it). */
function countingNames(names: string[]): { names: string[]; reads: () => number } {
  let reads = 0;
  const proxy = new Proxy(names, {
    get(target, property, receiver) {
      if (typeof property === 'string' && /^\d+$/.test(property)) reads += 1;
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
  return { names: proxy, reads: () => reads };
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

describe('placeArrivals', () => {
  it('places thousands of arrivals in one gap by galloping over them, not comparing each', () => {
    const keptKeys = ['a/x-1', 'a/x-5', 'a/x-9'];
    const counted = countingNames(['x-1', 'x-5', 'x-9']);
    // A landing: 10,000 arrivals between x-5 and x-9 (x-5-00000 ... x-5-09999), none elsewhere.
    const addedNames = Array.from({ length: 10_000 }, (_, index) => `x-5-${String(index).padStart(5, '0')}`);
    const added = { keys: addedNames.map((name) => `a/${name}`), names: addedNames };
    const ranks = Int32Array.from([100_000, 200_000, 900_000_000]);
    const { order, exhausted } = placeArrivals(
      { keys: keptKeys, names: counted.names, ranks },
      [],
      added,
      undefined,
    );
    expect(order.keys).toEqual(['a/x-1', 'a/x-5', ...added.keys, 'a/x-9']);
    expect(exhausted).toBe(false);
    for (let index = 1; index < order.ranks.length; index++)
      expect(order.ranks[index]).toBeGreaterThan(order.ranks[index - 1]);
    // Finding the gap and its end: a few dozen comparisons with kept names (copying reads each
    // kept name once more), where comparing each arrival with the key after the gap took 10,000.
    expect(counted.reads()).toBeLessThan(100);
  });

  it('still compares a lone arrival once with the key after its gap', () => {
    const counted = countingNames(['x-1', 'x-5', 'x-9']);
    const { order } = placeArrivals(
      { keys: ['a/x-1', 'a/x-5', 'a/x-9'], names: counted.names, ranks: Int32Array.from([10, 20, 30]) },
      [],
      { keys: ['a/x-2', 'a/x-7'], names: ['x-2', 'x-7'] },
      undefined,
    );
    expect(order.keys).toEqual(['a/x-1', 'a/x-2', 'a/x-5', 'a/x-7', 'a/x-9']);
    expect([...order.ranks]).toEqual([10, 15, 20, 25, 30]);
  });
});
