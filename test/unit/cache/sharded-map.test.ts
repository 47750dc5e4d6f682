import { describe, expect, it } from 'vitest';
import { ShardedMap, splitAt } from '../../../main/cache/sharded-map';

/** A small deterministic generator (mulberry32), so a failure replays. */
function randomFrom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sorted(entries: Iterable<[string, number]>): [string, number][] {
  return [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

describe('ShardedMap', () => {
  it('answers as a Map does under random sets, takes and deletes and a clear, before and after it splits', () => {
    const random = randomFrom(12);
    const map = new ShardedMap<number>();
    const model = new Map<string, number>();
    let split = false;
    const mismatches: string[] = [];
    for (let step = 0; step < 40_000; step++) {
      const key = `namespace-${Math.floor(random() * 3)}/pod-${Math.floor(random() * 6_000)}`;
      const roll = random();
      if (step === 5_000) {
        map.clear();
        model.clear();
      } else if (roll < 0.3) {
        if (map.set(key, step) !== map) mismatches.push(`set ${key} at ${step}`);
        model.set(key, step);
      } else if (roll < 0.6) {
        if (map.exchange(key, step) !== model.get(key)) mismatches.push(`exchange ${key} at ${step}`);
        model.set(key, step);
      } else if (roll < 0.7) {
        if (map.delete(key) !== model.delete(key)) mismatches.push(`delete ${key} at ${step}`);
      } else if (roll < 0.8) {
        const value = model.get(key);
        model.delete(key);
        if (map.take(key) !== value) mismatches.push(`take ${key} at ${step}`);
      } else if (map.get(key) !== model.get(key) || map.has(key) !== model.has(key))
        mismatches.push(`get ${key} at ${step}`);
      if (map.size !== model.size) mismatches.push(`size at ${step}`);
      split ||= map.largestShard < map.size;
    }
    expect(mismatches).toEqual([]);
    expect(split).toBe(true);
    expect(sorted(map)).toEqual(sorted(model));
    expect(sorted(map.entries())).toEqual(sorted(model));
    expect([...map.keys()].sort()).toEqual([...model.keys()].sort());
    expect(map.keysArray().sort()).toEqual([...model.keys()].sort());
    expect(map.valuesArray().sort((a, b) => a - b)).toEqual([...model.values()].sort((a, b) => a - b));
    expect([...map.values()]).toEqual(map.valuesArray());
    expect([...map.keys()]).toEqual(map.keysArray());
  });

  it('keeps a key it already holds where it is, with the newest value', () => {
    const map = ShardedMap.of<number>([
      ['default/web-0', 1],
      ['default/web-1', 2],
      ['default/web-0', 3],
    ]);
    expect(map.size).toBe(2);
    expect(map.get('default/web-0')).toBe(3);
    expect(sorted(map)).toEqual([
      ['default/web-0', 3],
      ['default/web-1', 2],
    ]);
  });

  it('keeps insertion order while small', () => {
    const map = new ShardedMap<number>();
    for (const key of ['c', 'a', 'b']) map.set(key, 0);
    map.set('a', 1);
    expect(map.keysArray()).toEqual(['c', 'a', 'b']);
    expect([...map]).toEqual([
      ['c', 0],
      ['a', 1],
      ['b', 0],
    ]);
  });

  it('visits every key once, and no key deleted before the iteration reached it', () => {
    const map = new ShardedMap<number>();
    for (let index = 0; index < 20_000; index++) map.set(`default/pod-${index}`, index);
    expect(map.largestShard).toBeLessThan(splitAt);
    const order = map.keysArray();
    const place = new Map(order.map((key, index) => [key, index]));
    const visited: string[] = [];
    const deleted = new Set<string>();
    for (const [key] of map) {
      visited.push(key);
      // Deletes the key itself and one not reached yet (two places further in the iteration order).
      map.delete(key);
      const ahead = order[place.get(key)! + 2];
      if (ahead !== undefined && !deleted.has(ahead)) {
        map.delete(ahead);
        deleted.add(ahead);
      }
    }
    expect(new Set(visited).size).toBe(visited.length);
    for (const key of visited) expect(deleted.has(key)).toBe(false);
    expect(visited.length + deleted.size).toBe(20_000);
    expect(map.size).toBe(0);
  });

  it('does not split under an iteration: keys added meanwhile pass the split size, deletes still count', () => {
    const map = new ShardedMap<number>();
    for (let index = 0; index < splitAt; index++) map.set(`default/pod-${index}`, index);
    expect(map.largestShard).toBe(splitAt);
    const visited: string[] = [];
    for (const [key, value] of map) {
      visited.push(key);
      if (value === 0) {
        for (let index = 0; index < 1_000; index++) map.set(`default/new-${index}`, index);
        map.delete('default/pod-1');
      }
      if (visited.length === 10) break;
    }
    expect(visited).not.toContain('default/pod-1');
    // Still one table while iterated; the next insertion after it splits the table.
    expect(map.largestShard).toBe(splitAt + 999);
    map.set('default/after', 0);
    expect(map.largestShard).toBeLessThan(splitAt / 4);
    expect(map.size).toBe(splitAt + 1_000);
    expect(map.get('default/new-999')).toBe(999);
    expect(map.has('default/pod-1')).toBe(false);
  });

  it('ends an iteration under way when cleared, as a Map does', () => {
    for (const size of [1_000, 20_000]) {
      const map = new ShardedMap<number>();
      for (let index = 0; index < size; index++) map.set(`default/pod-${index}`, index);
      let visited = 0;
      for (const _entry of map) {
        visited++;
        if (visited === 10) map.clear();
      }
      expect(visited).toBe(10);
      expect(map.size).toBe(0);
      map.set('default/pod-0', 0);
      expect(map.keysArray()).toEqual(['default/pod-0']);
    }
  });

  it('spreads 150,000 pod keys so that no insertion rehashes more than a few thousand', () => {
    const map = new ShardedMap<number>();
    for (let index = 0; index < 150_000; index++)
      map.set(`namespace-${index % 100}/deployment-${index % 1_500}-7f9c8d6b5-${index.toString(36)}`, index);
    expect(map.size).toBe(150_000);
    // An even spread is 2,344 a shard; one Map would have grown past 131,072 in one insertion.
    expect(map.largestShard).toBeLessThan(3_000);
  });
});
