// A Map of string keys split into shards (see string-shard.ts), for the informers' tables that grow
// past 65,536 keys (an indexer's items and a DeltaFIFO's at 150,000 pods): one insertion rehashes at
// most its shard, about 1/64 of the keys, never the whole table in one call.
//
// Iteration is shard by shard, each shard in its insertion order: not the insertion order of the
// whole map. client-go's tables are Go maps, whose order is unspecified, so nothing that follows
// client-go may depend on it. As with a Map, a key deleted during an iteration is not visited if it
// was not reached yet, and a key added during one may or may not be.

import { shardCount, stringShard } from './string-shard';

export class ShardedMap<V> implements Iterable<[string, V]> {
  /** Made at their first key: a small table costs a few Maps, not 64. */
  private readonly shards: (Map<string, V> | undefined)[] = Array.from(
    { length: shardCount },
    () => undefined,
  );
  private count = 0;

  /** A table holding `entries`, in their order within each shard. */
  static of<V>(entries: Iterable<readonly [string, V]>): ShardedMap<V> {
    const map = new ShardedMap<V>();
    for (const [key, value] of entries) map.set(key, value);
    return map;
  }

  get size(): number {
    return this.count;
  }

  get(key: string): V | undefined {
    return this.shards[stringShard(key)]?.get(key);
  }

  has(key: string): boolean {
    return this.shards[stringShard(key)]?.has(key) ?? false;
  }

  set(key: string, value: V): this {
    const index = stringShard(key);
    const shard = (this.shards[index] ??= new Map<string, V>());
    const before = shard.size;
    shard.set(key, value);
    this.count += shard.size - before;
    return this;
  }

  /** Removes `key`; true when it was there. */
  delete(key: string): boolean {
    if (!this.shards[stringShard(key)]?.delete(key)) return false;
    this.count--;
    return true;
  }

  clear(): void {
    // Emptied, not only dropped: an iteration under way ends, as a Map's does.
    for (const shard of this.shards) shard?.clear();
    this.shards.fill(undefined);
    this.count = 0;
  }

  /** The most keys one shard holds: what one insertion may have to rehash. */
  get largestShard(): number {
    let largest = 0;
    for (const shard of this.shards) largest = Math.max(largest, shard?.size ?? 0);
    return largest;
  }

  /** Every value, in iteration order, into a new array (no iterator per entry). */
  valuesArray(): V[] {
    const values: V[] = [];
    for (const shard of this.shards) if (shard) for (const value of shard.values()) values.push(value);
    return values;
  }

  /** Every key, in iteration order, into a new array. */
  keysArray(): string[] {
    const keys: string[] = [];
    for (const shard of this.shards) if (shard) for (const key of shard.keys()) keys.push(key);
    return keys;
  }

  *keys(): IterableIterator<string> {
    for (const shard of this.shards) if (shard) yield* shard.keys();
  }

  *values(): IterableIterator<V> {
    for (const shard of this.shards) if (shard) yield* shard.values();
  }

  *entries(): IterableIterator<[string, V]> {
    for (const shard of this.shards) if (shard) yield* shard.entries();
  }

  [Symbol.iterator](): IterableIterator<[string, V]> {
    return this.entries();
  }
}
