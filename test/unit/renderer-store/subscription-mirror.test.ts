import { describe, expect, it } from 'vitest';
import { SubscriptionMirror } from '../../../renderer/store/subscription-mirror';
import type { Row } from '../../../shared/protocol/row';
import { deltaBatch as batch, row } from '../bridge/fixtures';

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
});
