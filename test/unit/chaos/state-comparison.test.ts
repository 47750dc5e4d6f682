import { describe, expect, it } from 'vitest';
import { compareVersions, describeDifference, isEqual, versionsOf } from '../../chaos/state-comparison';

const object = (name: string, resourceVersion: string, namespace?: string) => ({
  metadata: { name, resourceVersion, ...(namespace ? { namespace } : {}) },
});

describe('chaos state comparison', () => {
  it('keys objects by namespace/name, or name when cluster-scoped', () => {
    const versions = versionsOf([object('a', '3', 'default'), object('node-1', '4')]);
    expect([...versions]).toEqual([
      ['default/a', '3'],
      ['node-1', '4'],
    ]);
  });

  it('is equal only with the same keys at the same resourceVersions', () => {
    const server = new Map([
      ['a', '1'],
      ['b', '2'],
    ]);
    expect(isEqual(compareVersions(server, new Map(server)))).toBe(true);
    const difference = compareVersions(
      server,
      new Map([
        ['b', '1'],
        ['c', '5'],
      ]),
    );
    expect(difference).toEqual({ missing: ['a'], extra: ['c'], stale: ['b (copy 1, server 2)'] });
    expect(describeDifference(difference)).toBe('1 missing (a), 1 extra (c), 1 stale (b (copy 1, server 2))');
  });
});
