import { describe, expect, it } from 'vitest';
import { SeededRandom } from '../../../main/sim/random';
import { SortedKeys } from '../../../main/sim/sorted-keys';

/** The plain answer: every present key, sorted. */
function lowerBoundIn(sorted: readonly string[], key: string, exclusive: boolean): number {
  const index = sorted.findIndex((candidate) => (exclusive ? candidate > key : candidate >= key));
  return index === -1 ? sorted.length : index;
}

describe('SortedKeys', () => {
  it('answers positions as one sorted array would, through bulk loads, inserts, removals and splits', () => {
    const random = new SeededRandom(11);
    const keys = new SortedKeys();
    const present = new Set<string>();
    const name = () => `ns-${random.int(40)}/pod-${random.int(5_000).toString(36)}`;
    // A bulk load first (laid out in fresh blocks), then churn that grows blocks past their size.
    for (let index = 0; index < 3_000; index++) {
      const key = name();
      if (present.has(key)) continue;
      present.add(key);
      keys.add(key);
    }
    for (let step = 0; step < 6_000; step++) {
      const key = name();
      if (present.has(key) && random.next() < 0.5) {
        present.delete(key);
        keys.remove(key);
      } else if (!present.has(key)) {
        present.add(key);
        keys.add(key);
      }
      if (step % 500 !== 0) continue;
      const sorted = [...present].sort();
      expect(keys.size).toBe(sorted.length);
      expect(Array.from({ length: keys.size }, (_, index) => keys.at(index))).toEqual(sorted);
      for (let probe = 0; probe < 50; probe++) {
        const target = probe % 2 === 0 ? name() : sorted[random.int(sorted.length)]!;
        expect(keys.lowerBound(target)).toBe(lowerBoundIn(sorted, target, false));
        expect(keys.lowerBound(target, true)).toBe(lowerBoundIn(sorted, target, true));
      }
    }
  });

  it('ignores removing a key it does not hold and answers nothing past its end', () => {
    const keys = new SortedKeys();
    keys.remove('default/a');
    for (const key of ['default/c', 'default/a', 'default/b']) keys.add(key);
    keys.remove('default/zz');
    expect(keys.size).toBe(3);
    expect(keys.at(3)).toBeUndefined();
    expect(keys.at(-1)).toBeUndefined();
    expect(keys.lowerBound('default/b', true)).toBe(2);
    expect(keys.lowerBound('z')).toBe(3);
  });
});
