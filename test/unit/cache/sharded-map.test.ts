import { describe, expect, it } from 'vitest';
import { ShardedMap } from '../../../main/cache/sharded-map';

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
  it('answers as a Map does under random sets, deletes and clears', () => {
    const random = randomFrom(12);
    const map = new ShardedMap<number>();
    const model = new Map<string, number>();
    for (let step = 0; step < 20_000; step++) {
      const key = `namespace-${Math.floor(random() * 5)}/pod-${Math.floor(random() * 3_000)}`;
      const roll = random();
      if (roll < 0.55) {
        expect(map.set(key, step)).toBe(map);
        model.set(key, step);
      } else if (roll < 0.9) expect(map.delete(key)).toBe(model.delete(key));
      else if (roll < 0.9995) {
        expect(map.get(key)).toBe(model.get(key));
        expect(map.has(key)).toBe(model.has(key));
      } else {
        map.clear();
        model.clear();
      }
      expect(map.size).toBe(model.size);
    }
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

  it('visits every key once, and no key deleted before the iteration reached it', () => {
    const map = new ShardedMap<number>();
    for (let index = 0; index < 5_000; index++) map.set(`default/pod-${index}`, index);
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
    expect(visited.length + deleted.size).toBe(5_000);
    expect(map.size).toBe(0);
  });

  it('ends an iteration under way when cleared, as a Map does', () => {
    const map = new ShardedMap<number>();
    for (let index = 0; index < 1_000; index++) map.set(`default/pod-${index}`, index);
    let visited = 0;
    for (const _entry of map) {
      visited++;
      if (visited === 10) map.clear();
    }
    expect(visited).toBe(10);
    expect(map.size).toBe(0);
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
