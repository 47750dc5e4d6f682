import { describe, expect, it, vi } from 'vitest';
import { StringInterner, createObjectCompactor } from '../../../main/bridge/object-compactor';
import { SiblingSharing } from '../../../main/bridge/sibling-sharing';
import type { KubeObject } from '../../../shared/kube/object';

function pod(name: string): KubeObject {
  return JSON.parse(
    JSON.stringify({
      metadata: {
        name,
        uid: `uid-${name}`,
        labels: { app: 'web' },
        managedFields: [{ manager: 'kubelet' }],
      },
      spec: { containers: [{ name: 'app', image: 'registry.example/web:1.2.3' }] },
    }),
  ) as KubeObject;
}

describe('object compactor', () => {
  it('drops managedFields and keeps everything else', () => {
    const compacted = createObjectCompactor().transform(pod('a')) as KubeObject;
    expect(compacted).toEqual({
      metadata: { name: 'a', uid: 'uid-a', labels: { app: 'web' } },
      spec: { containers: [{ name: 'app', image: 'registry.example/web:1.2.3' }] },
    });
  });

  it('passes an object compacted ahead through once, and remembers it no longer', () => {
    const compactor = createObjectCompactor();
    const share = vi.spyOn(SiblingSharing.prototype, 'share');
    try {
      const compacted = compactor.compactAhead(pod('a')) as KubeObject;
      share.mockClear();
      expect(compactor.transform(compacted)).toBe(compacted);
      expect(share).not.toHaveBeenCalled();
      // Forgotten as it passed (the informer's sets hold only objects on their way): were it ever
      // transformed again, it would be compacted again, to an equal object.
      expect(compactor.transform(compacted)).toEqual(compacted);
      expect(share).toHaveBeenCalledTimes(1);
    } finally {
      share.mockRestore();
    }
  });

  it('remembers repeated values but not per-object identities', () => {
    const interner = new StringInterner();
    const compact = createObjectCompactor(interner).transform;
    compact(pod('a'));
    const sizeAfterOne = interner.size;
    compact(pod('b'));
    compact(pod('c'));
    expect(interner.size).toBe(sizeAfterOne);
  });

  it('leaves strings JSON.parse has already shared (10 characters or fewer) out of its table', () => {
    const interner = new StringInterner();
    createObjectCompactor(interner).transform(pod('a'));
    expect(interner.size).toBe(1);
    expect(interner.intern('registry.example/web:1.2.3')).toBe('registry.example/web:1.2.3');
    expect(interner.size).toBe(1);
  });
});

describe('StringInterner capacity', () => {
  it('stays bounded when fed strings that never repeat, such as timestamps', () => {
    const interner = new StringInterner(100);
    for (let second = 0; second < 1_000; second++) interner.intern(`2026-11-30T08:00:${second}Z`);
    expect(interner.size).toBeLessThanOrEqual(100);
  });
});

describe('StringInterner growth', () => {
  it('spreads strings that differ anywhere so that no one table grows past its share', () => {
    const forms = [
      (second: number) =>
        new Date(Date.UTC(2026, 10, 30) + second * 1000).toISOString().replace('.000Z', 'Z'),
      (second: number) => new Date(Date.UTC(2026, 10, 30) + second * 7).toISOString(),
      (second: number) => `Back-off restarting failed container app in pod web-${second}_default(uid)`,
    ];
    for (const form of forms) {
      // 64 shards of 2,000: 100,000 strings spread evenly are 1,563 a shard.
      const interner = new StringInterner(128_000);
      for (let second = 0; second < 100_000; second++) interner.intern(form(second));
      // No shard was full, so nothing was forgotten...
      expect(interner.size).toBe(100_000);
      // ...and no insertion rehashed more than a shard's entries at once (one Map: 65,536).
      expect(interner.largestShard).toBeLessThan(2_000);
    }
  });
});
