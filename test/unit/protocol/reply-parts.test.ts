// A reply's value cut into parts and joined back (reply-parts.ts): the same value, whatever its size.
import { describe, expect, it } from 'vitest';
import { joinReplyValue, splitReplyValue } from '../../../shared/protocol/reply-parts';

const parted = { fields: ['keys', 'cpu', 'memory', 'addedKeys'], itemsPerPart: 4 };

describe('reply parts', () => {
  it('cuts the long arrays into parts of at most itemsPerPart, the rest in the head, and joins them back', () => {
    const keys = Array.from({ length: 10 }, (_, index) => `shop/web-${index}`);
    const value = {
      timestamp: 5,
      keys,
      cpu: keys.map((_, index) => index / 10),
      memory: keys.map((_, index) => (index % 3 === 0 ? null : index * 1024)),
      keysDigest: 'a'.repeat(40),
    };
    const split = splitReplyValue(value, parted)!;
    expect(split.head).toEqual({
      timestamp: 5,
      keys: [],
      cpu: [],
      memory: [],
      keysDigest: 'a'.repeat(40),
      joinParts: 3,
    });
    expect(split.parts.map((part) => part.keys!.length)).toEqual([4, 4, 2]);
    // As they travel: JSON each.
    const sent = (part: unknown) => JSON.parse(JSON.stringify(part)) as unknown;
    expect(joinReplyValue(sent(split.head), split.parts.map(sent))).toEqual(value);
  });

  it('joins arrays laid out by keys held (no keys, values and added keys of their own lengths)', () => {
    const value = {
      keys: [],
      keysFrom: 'b'.repeat(40),
      cpu: [1, 2, 3, 4, 5, 6],
      memory: [1, 2, 3, 4, 5, 6],
      addedKeys: ['x'],
    };
    const split = splitReplyValue(value, parted)!;
    expect(split.parts).toEqual([
      { keys: [], cpu: [1, 2, 3, 4], memory: [1, 2, 3, 4], addedKeys: ['x'] },
      { keys: [], cpu: [5, 6], memory: [5, 6], addedKeys: [] },
    ]);
    expect(joinReplyValue(split.head, split.parts)).toEqual(value);
  });

  it('leaves a value that fits in a part whole, and reads a value that was never parted as it is', () => {
    const small = { keys: ['a'], cpu: [1], memory: [2] };
    expect(splitReplyValue(small, parted)).toBeUndefined();
    expect(joinReplyValue(small, [])).toBe(small);
    expect(joinReplyValue(null, [])).toBeNull();
  });

  it('refuses parts that are not the ones the head counts', () => {
    const split = splitReplyValue({ keys: Array.from({ length: 9 }, String), cpu: [], memory: [] }, parted)!;
    expect(() => joinReplyValue(split.head, split.parts.slice(1))).toThrow(/2 of its 3 parts/);
    expect(() => joinReplyValue(split.head, [{ keys: 'x' }, {}, {}])).toThrow(/"keys"/);
  });
});
