import { describe, expect, it } from 'vitest';
import { learnItemBoundary } from '../../../main/kube/item-boundary';
import type { ScannedItem } from '../../../main/kube/item-boundary';

/** Two items of a list as the decoder scanned them, written one after the other at `gap` apart. */
function twoItems(first: unknown, second: unknown, gap = ','): [ScannedItem, ScannedItem] {
  const a = Buffer.from(JSON.stringify(first));
  const b = Buffer.from(JSON.stringify(second));
  const scanned = (bytes: Buffer, start: number): ScannedItem => ({
    start,
    end: start + bytes.length,
    opening: bytes.subarray(0, 64),
    last: bytes[bytes.length - 1],
  });
  return [scanned(a, 100), scanned(b, 100 + a.length + gap.length)];
}

const boundaryOf = (first: unknown, second: unknown, gap?: string) =>
  learnItemBoundary(...twoItems(first, second, gap))?.toString();

describe('learnItemBoundary', () => {
  it("is a typed list's metadata opening, whatever key comes first inside it", () => {
    expect(boundaryOf({ metadata: { name: 'a', uid: '1' } }, { metadata: { name: 'b' } })).toBe(
      '},{"metadata":{',
    );
  });

  it("is an unstructured list's sorted opening up to its metadata", () => {
    const item = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name } });
    expect(boundaryOf(item('a'), item('b'))).toBe('},{"apiVersion":"v1","kind":"Pod","metadata":{');
  });

  it('stops before a brace inside a string the two openings share', () => {
    expect(boundaryOf({ metadata: { note: '{{x', name: 'a' } }, { metadata: { note: '{{y' } })).toBe(
      '},{"metadata":{',
    );
  });

  it('is nothing when the items do not say it', () => {
    // Not one comma apart (a pretty-printed list), not objects, or too little in common.
    expect(boundaryOf({ metadata: { name: 'a' } }, { metadata: { name: 'b' } }, ', ')).toBeUndefined();
    expect(boundaryOf(['metadata', 1], ['metadata', 2])).toBeUndefined();
    expect(boundaryOf({ a: { x: 1 } }, { a: { y: 2 } })).toBeUndefined();
    expect(boundaryOf({ metadata: { name: 'a' } }, { spec: {} })).toBeUndefined();
  });
});
