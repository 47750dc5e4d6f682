import { describe, expect, it } from 'vitest';
import { ShardedKeySet, shardCount, stringShard } from '../../../main/history/string-shards';

describe('ShardedKeySet', () => {
  it('holds each key once and tells which it holds', () => {
    const keys = new ShardedKeySet();
    keys.add('default/web-0');
    keys.add('default/web-0');
    keys.add('payments/api-1');
    expect(keys.size).toBe(2);
    expect(keys.has('default/web-0')).toBe(true);
    expect(keys.has('payments/api-1')).toBe(true);
    expect(keys.has('default/web-1')).toBe(false);
  });

  it('spreads 100,000 pod keys so that no insertion rehashes more than a few thousand', () => {
    const keys = new ShardedKeySet();
    for (let index = 0; index < 100_000; index++)
      keys.add(`namespace-${index % 40}/deployment-${index % 1_500}-7f9c8d6b5-${index.toString(36)}`);
    expect(keys.size).toBe(100_000);
    // An even spread is 1,563 a shard; one Set would have grown past 65,536 in one insertion.
    expect(keys.largestShard).toBeLessThan(2_000);
  });
});

describe('stringShard', () => {
  it('names a shard for any string, the empty one included', () => {
    for (const value of ['', 'a', 'default/web-0', 'x'.repeat(300)]) {
      const shard = stringShard(value);
      expect(Number.isInteger(shard) && shard >= 0 && shard < shardCount).toBe(true);
    }
  });
});
