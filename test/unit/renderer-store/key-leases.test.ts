import { describe, expect, it } from 'vitest';
import { keysReturned, leaseKeys, returnKeys } from '../../../renderer/store/key-leases';

describe('key leases', () => {
  it('frees an array only once it was leased and every lease on it was returned', () => {
    const keys = ['a/x', 'a/y'];
    // Never leased: a reader that takes no leases may hold it, so it is never free.
    expect(keysReturned(keys)).toBe(false);
    leaseKeys(keys);
    leaseKeys(keys);
    returnKeys(keys);
    expect(keysReturned(keys)).toBe(false);
    returnKeys(keys);
    expect(keysReturned(keys)).toBe(true);
    leaseKeys(keys);
    expect(keysReturned(keys)).toBe(false);
  });

  it('ignores a return with no lease out rather than freeing an array leased later', () => {
    const keys = ['a/x'];
    returnKeys(keys);
    expect(keysReturned(keys)).toBe(false);
    leaseKeys(keys);
    returnKeys(keys);
    returnKeys(keys);
    leaseKeys(keys);
    expect(keysReturned(keys)).toBe(false);
  });
});
