import { describe, expect, it, vi } from 'vitest';
import { SubscriptionMirror } from '../../../renderer/store/subscription-mirror';
import type { Row } from '../../../shared/protocol/row';
import { deltaBatch as batch, row, seededRandom } from '../bridge/fixtures';

const keysOf = (mirror: SubscriptionMirror) => [...mirror.rows.keys()].sort();

describe('SubscriptionMirror', () => {
  it('applies upserts and deletes in sequence and bumps the revision per batch', () => {
    const mirror = new SubscriptionMirror();
    expect(mirror.apply(batch(1, { upserts: [row('a'), row('b')] }))).toBe('applied');
    expect(mirror.apply(batch(2, { deletes: ['a'], upserts: [row('b', '2')] }))).toBe('applied');
    expect(keysOf(mirror)).toEqual(['b']);
    expect(mirror.rows.get('b')?.resourceVersion).toBe('2');
    expect(mirror.revision).toBe(2);
  });

  it('reports a gap and then ignores live batches until a snapshot starts', () => {
    const mirror = new SubscriptionMirror();
    mirror.apply(batch(1, { upserts: [row('a')] }));
    expect(mirror.apply(batch(3, { upserts: [row('c')] }))).toBe('gap');
    expect(mirror.apply(batch(4, { upserts: [row('d')] }))).toBe('awaitingSnapshot');
    expect(keysOf(mirror)).toEqual(['a']);
    expect(mirror.apply(batch(5, { replace: true, snapshotEnd: true, upserts: [row('c'), row('d')] }))).toBe(
      'applied',
    );
    expect(keysOf(mirror)).toEqual(['c', 'd']);
    expect(mirror.apply(batch(6, { deletes: ['c'] }))).toBe('applied');
    expect(keysOf(mirror)).toEqual(['d']);
  });

  it('ignores a batch it has already applied', () => {
    const mirror = new SubscriptionMirror();
    mirror.apply(batch(1, { upserts: [row('a')] }));
    expect(mirror.apply(batch(1, { deletes: ['a'] }))).toBe('duplicate');
    expect(keysOf(mirror)).toEqual(['a']);
  });

  it('keeps rows while snapshot chunks arrive and drops unmentioned ones only at its end', () => {
    const mirror = new SubscriptionMirror();
    mirror.apply(batch(1, { upserts: [row('a'), row('b'), row('z')] }));
    mirror.apply(batch(2, { replace: true, upserts: [row('a', '2')] }));
    expect(keysOf(mirror)).toEqual(['a', 'b', 'z']);
    mirror.apply(batch(3, { upserts: [row('b', '2')], snapshotEnd: true }));
    expect(keysOf(mirror)).toEqual(['a', 'b']);
    expect(mirror.hasSnapshot).toBe(true);
  });

  it('continues the sequence of a resumed subscription from its lastSeq', () => {
    const mirror = new SubscriptionMirror(41);
    expect(mirror.apply(batch(42, { replace: true, snapshotEnd: true, upserts: [row('a')] }))).toBe(
      'applied',
    );
    expect(mirror.apply(batch(43, { upserts: [row('b')] }))).toBe('applied');
  });

  it('replaces rows rather than mutating them, so identity tells what changed', () => {
    const mirror = new SubscriptionMirror();
    const first: Row = row('a');
    mirror.apply(batch(1, { upserts: [first] }));
    mirror.apply(batch(2, { upserts: [row('a', '2')] }));
    expect(first.resourceVersion).toBe('1');
    expect(mirror.rows.get('a')).not.toBe(first);
  });

  it("takes a first listing's rows with no set of the keys it mentioned: an empty mirror has none to sweep", () => {
    const mirror = new SubscriptionMirror();
    const add = vi.spyOn(Set.prototype, 'add');
    try {
      mirror.apply(batch(1, { replace: true, upserts: [row('a'), row('b')] }));
      mirror.apply(batch(2, { upserts: [row('c')], deletes: ['a'] }));
      mirror.apply(batch(3, { upserts: [row('d')], snapshotEnd: true }));
      expect(add).not.toHaveBeenCalled();
    } finally {
      add.mockRestore();
    }
    expect(keysOf(mirror)).toEqual(['b', 'c', 'd']);
    expect(mirror.hasSnapshot).toBe(true);
    expect(mirror.holdsWhole(3)).toBe(true);
  });

  it('equals the last snapshot plus the batches after it, from empty or not, under random snapshots', () => {
    const random = seededRandom(17);
    const mirror = new SubscriptionMirror();
    const expected = new Map<string, string>();
    let seq = 0;
    for (let round = 0; round < 60; round++) {
      const snapshot = random() < 0.3;
      // A snapshot sometimes starts with nothing in the mirror (its first listing, or after its rows went).
      if (snapshot && random() < 0.3) {
        mirror.apply(batch(++seq, { deletes: [...expected.keys()] }));
        expected.clear();
      }
      const chunks = snapshot ? 1 + Math.floor(random() * 3) : 1;
      const listed = new Map<string, string>();
      for (let chunk = 0; chunk < chunks; chunk++) {
        const upserts: Row[] = [];
        const deletes: string[] = [];
        for (let change = 0; change < 8; change++) {
          const key = `k${Math.floor(random() * 30)}`;
          if (!snapshot && random() < 0.3) deletes.push(key);
          else upserts.push(row(key, String(seq + 1)));
        }
        // A batch's deletes apply before its upserts.
        for (const key of deletes) expected.delete(key);
        for (const upsert of upserts) (snapshot ? listed : expected).set(upsert.key, upsert.resourceVersion);
        const last = chunk === chunks - 1;
        mirror.apply(
          batch(++seq, {
            upserts,
            deletes,
            ...(snapshot && chunk === 0 ? { replace: true } : {}),
            ...(snapshot && last ? { snapshotEnd: true } : {}),
          }),
        );
        if (snapshot && !last) expect(mirror.holdsWhole(seq)).toBe(false);
      }
      if (snapshot) {
        expected.clear();
        for (const [key, version] of listed) expected.set(key, version);
      }
      expect(keysOf(mirror)).toEqual([...expected.keys()].sort());
      for (const [key, version] of expected) expect(mirror.rows.get(key)?.resourceVersion).toBe(version);
    }
  });
});
