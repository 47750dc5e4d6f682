// Tables on the informers' thread split into shards by a hash of their string keys. A Map or Set grows
// by rehashing every entry into a table twice the size, in one call: past 131,072 entries that took
// 31-53 ms of the thread's CPU (load 18-28), an iteration of the loop no turn budget can cut, since it
// is one insertion. In 64 shards each grows an entry count 64 times smaller, at a cost spread over
// the insertions (a WeakSet grows without such a pause: it is not a concern here).
//
// The hash is main/cache's (string-shard.ts), which its ShardedMap uses too.

import { shardCount, stringShard } from '../cache/string-shard';

export { shardCount, stringShard };

/**
 * A set of strings (object keys) whose insertions never rehash more than a shard at once. A shard's
 * Set is made at its first key: a small set (a resync of a few objects) costs a few Sets, not 64.
 */
export class ShardedKeySet {
  private readonly shards: (Set<string> | undefined)[] = new Array<Set<string> | undefined>(shardCount);

  has(key: string): boolean {
    return this.shards[stringShard(key)]?.has(key) ?? false;
  }

  add(key: string): void {
    const index = stringShard(key);
    (this.shards[index] ??= new Set<string>()).add(key);
  }

  get size(): number {
    let size = 0;
    for (const shard of this.shards) size += shard?.size ?? 0;
    return size;
  }

  /** The most keys one shard holds: what one insertion may have to rehash. */
  get largestShard(): number {
    let largest = 0;
    for (const shard of this.shards) largest = Math.max(largest, shard?.size ?? 0);
    return largest;
  }
}
