// HeldKeys keeps a moment's keys as chunks until playback needs them hashed; differences add chunks
// (which may repeat keys held) and remove keys still in unhashed chunks. Whatever the order of adds,
// removes and hashing, the keys held are exactly those of a plain set given the same steps.
import { describe, expect, it } from 'vitest';
import { HeldKeys } from '../../../main/bridge/held-keys';
import { FakeClock } from '../../../main/cache/fake-clock';
import { seededRandom } from './fixtures';

const names = Array.from({ length: 30 }, (_, index) => `ns/pod-${index}`);

describe('HeldKeys', () => {
  it('fuzz: holds exactly the keys a plain set holds, hashed at once, ahead or not at all', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const random = seededRandom(seed);
      const clock = new FakeClock();
      const keys = new HeldKeys();
      const expected = new Set<string>();
      const some = () => names.filter(() => random() < 0.3);
      for (let step = 0; step < 30; step++) {
        const roll = random();
        if (roll < 0.1) {
          keys.clear();
          expected.clear();
        } else if (roll < 0.5) {
          const added = some();
          keys.add(added);
          for (const key of added) expected.add(key);
        } else if (roll < 0.8) {
          const removed = some();
          keys.remove(removed);
          for (const key of removed) expected.delete(key);
          keys.sized(expected.size);
        } else if (roll < 0.9) {
          keys.hashAhead(clock, () => false);
          clock.step(random() < 0.5 ? 0 : 100);
        } else {
          expect(new Set(keys.all()), `seed ${seed}`).toEqual(expected);
        }
        if (!keys.pending || roll >= 0.5) expect(keys.size, `seed ${seed} step ${step}`).toBe(expected.size);
      }
      expect(new Set(keys.all()), `seed ${seed}`).toEqual(expected);
      expect(keys.size).toBe(expected.size);
    }
  });
});
