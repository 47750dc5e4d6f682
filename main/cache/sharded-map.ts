// A Map of string keys that splits into shards (see string-shard.ts) once it is large, for the
// informers' tables that grow past 65,536 keys (an indexer's items at 150,000 pods): one insertion
// rehashes at most its shard, about 1/64 of the keys, never the whole table in one call.
//
// Small, it is one Map (most caches are: the shard hash costs about two lookups per call, 0.3-0.4 us
// at load 22), and it splits at splitAt keys, just before one Map would double to 4,096 entries. The
// split moves every key once: at 8,000 keys that took 8-15 ms of CPU at load 22, so it is early.
// It never joins back (but clear()).
//
// Iteration: while one Map, in insertion order; once split, shard by shard, each in its insertion
// order. client-go's tables are Go maps, whose order is unspecified, so nothing that follows it may
// depend on the order. As with a Map, a key deleted during an iteration is not visited if it was not
// reached yet, and a key added during one may or may not be: no split happens while an iteration is
// under way (the table then grows as one Map until the last iteration ends).

import { shardCount, stringShard } from './string-shard';

/** Keys past which one Map splits into shards. */
export const splitAt = 2_000;

export class ShardedMap<V> implements Iterable<[string, V]> {
  /** The table while small; undefined once split. */
  private single: Map<string, V> | undefined = new Map<string, V>();
  /** Once split: the shards, each made at its first key. */
  private shards: (Map<string, V> | undefined)[] | undefined;
  /** Keys in the shards (the single Map counts its own). */
  private count = 0;
  /** Iterations under way: none may see the table split under it. */
  private iterations = 0;

  /** A table holding `entries` (the last of several with one key wins). */
  static of<V>(entries: Iterable<readonly [string, V]>): ShardedMap<V> {
    const map = new ShardedMap<V>();
    for (const [key, value] of entries) map.set(key, value);
    return map;
  }

  get size(): number {
    return this.single ? this.single.size : this.count;
  }

  get(key: string): V | undefined {
    return this.single ? this.single.get(key) : this.shards![stringShard(key)]?.get(key);
  }

  has(key: string): boolean {
    return this.single ? this.single.has(key) : (this.shards![stringShard(key)]?.has(key) ?? false);
  }

  set(key: string, value: V): this {
    const single = this.single;
    if (single) {
      single.set(key, value);
      if (single.size > splitAt && this.iterations === 0) this.split(single);
      return this;
    }
    const shards = this.shards!;
    const shard = (shards[stringShard(key)] ??= new Map<string, V>());
    const before = shard.size;
    shard.set(key, value);
    this.count += shard.size - before;
    return this;
  }

  /** set(), returning the value `key` had (undefined: none), for one shard lookup instead of two. */
  exchange(key: string, value: V): V | undefined {
    const single = this.single;
    if (single) {
      const previous = single.get(key);
      this.set(key, value);
      return previous;
    }
    const shards = this.shards!;
    const shard = (shards[stringShard(key)] ??= new Map<string, V>());
    const before = shard.size;
    const previous = shard.get(key);
    shard.set(key, value);
    this.count += shard.size - before;
    return previous;
  }

  /**
   * Removes `key` and returns the value it had (undefined: none): one shard lookup where get() then
   * delete() take two.
   */
  take(key: string): V | undefined {
    const table = this.single ?? this.shards![stringShard(key)];
    if (table === undefined) return undefined;
    const value = table.get(key);
    if (table.delete(key) && table !== this.single) this.count--;
    return value;
  }

  /** Removes `key`; true when it was there. */
  delete(key: string): boolean {
    if (this.single) return this.single.delete(key);
    if (!this.shards![stringShard(key)]?.delete(key)) return false;
    this.count--;
    return true;
  }

  /** Empties the table, back to one Map. */
  clear(): void {
    // Emptied, not only dropped: an iteration under way ends, as a Map's does.
    this.single?.clear();
    for (const shard of this.shards ?? []) shard?.clear();
    this.single = new Map<string, V>();
    this.shards = undefined;
    this.count = 0;
  }

  /** The most keys one table holds: what one insertion may have to rehash. */
  get largestShard(): number {
    if (this.single) return this.single.size;
    let largest = 0;
    for (const shard of this.shards!) largest = Math.max(largest, shard?.size ?? 0);
    return largest;
  }

  /** Every value, in iteration order, into a new array (no iterator per entry). */
  valuesArray(): V[] {
    if (this.single) return Array.from(this.single.values());
    const values: V[] = [];
    for (const shard of this.shards!) if (shard) for (const value of shard.values()) values.push(value);
    return values;
  }

  /** Every key, in iteration order, into a new array. */
  keysArray(): string[] {
    if (this.single) return Array.from(this.single.keys());
    const keys: string[] = [];
    for (const shard of this.shards!) if (shard) for (const key of shard.keys()) keys.push(key);
    return keys;
  }

  keys(): IterableIterator<string> {
    return this.iterate((table) => table.keys());
  }

  values(): IterableIterator<V> {
    return this.iterate((table) => table.values());
  }

  entries(): IterableIterator<[string, V]> {
    return this.iterate((table) => table.entries());
  }

  [Symbol.iterator](): IterableIterator<[string, V]> {
    return this.entries();
  }

  /** Each table's `part` in turn, with no split until it ends (or is left: see the top). */
  private *iterate<R>(part: (table: Map<string, V>) => IterableIterator<R>): IterableIterator<R> {
    this.iterations++;
    try {
      if (this.single) yield* part(this.single);
      // The shards as they are at each step: a clear() meanwhile ends the iteration.
      else for (const shard of this.shards!) if (shard) yield* part(shard);
    } finally {
      this.iterations--;
    }
  }

  private split(single: Map<string, V>): void {
    const shards: (Map<string, V> | undefined)[] = Array.from({ length: shardCount }, () => undefined);
    for (const [key, value] of single) (shards[stringShard(key)] ??= new Map<string, V>()).set(key, value);
    this.shards = shards;
    this.count = single.size;
    this.single = undefined;
  }
}
