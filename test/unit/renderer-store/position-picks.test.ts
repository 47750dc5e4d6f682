import { describe, expect, it } from 'vitest';
import { atPositions, withoutPositions } from '../../../renderer/store/position-picks';
import { seededRandom } from '../bridge/fixtures';

describe('position picks', () => {
  it('fuzz: leaves out the elements at any positions, repeats allowed, few or most of them', () => {
    const random = seededRandom(41);
    for (let round = 0; round < 200; round++) {
      const order = Array.from({ length: Math.floor(random() * 3_000) }, (_, index) => `k${index}`);
      // From none to more positions than elements (repeats), so both the span copy and the marks run.
      const count = Math.floor(random() * random() * order.length * 1.5);
      const positions = Array.from({ length: order.length === 0 ? 0 : count }, () =>
        Math.floor(random() * order.length),
      );
      const left = new Set(positions);
      const expected = order.filter((_, index) => !left.has(index));
      const kept = withoutPositions(order, positions.slice());
      expect(kept).toEqual(expected);
      expect(kept).not.toBe(order);
      // Written into an array nobody reads any more, longer or shorter than the answer.
      const spare = Array.from({ length: Math.floor(random() * 4_000) }, () => 'stale');
      const reused = withoutPositions(order, positions.slice(), spare);
      expect(reused).toBe(spare);
      expect(reused).toEqual(expected);
    }
  });

  it('fuzz: picks the elements at distinct positions in the order of the order', () => {
    const random = seededRandom(43);
    for (let round = 0; round < 200; round++) {
      const order = Array.from({ length: Math.floor(random() * 3_000) }, (_, index) => `k${index}`);
      const picked = order.map((_, index) => index).filter(() => random() < random());
      // Shuffled: the positions come in the candidates' order, not the order's.
      const shuffled = picked.slice().sort(() => random() - 0.5);
      expect(atPositions(order, shuffled)).toEqual(picked.map((index) => order[index]));
    }
  });
});
