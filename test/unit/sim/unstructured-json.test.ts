import { describe, expect, it } from 'vitest';
import { unstructuredJson } from '../../../main/sim/unstructured-json';

describe('unstructuredJson', () => {
  it("writes every object's keys sorted, at every depth, and the values as JSON.stringify does", () => {
    const value = { spec: { zeta: [{ b: 2, a: 'x"y' }], alpha: null }, kind: 'Gadget', apiVersion: 'v1' };
    expect(unstructuredJson(value)).toBe(
      '{"apiVersion":"v1","kind":"Gadget","spec":{"alpha":null,"zeta":[{"a":"x\\"y","b":2}]}}',
    );
    expect(JSON.parse(unstructuredJson(value))).toEqual(value);
  });

  it('leaves out members without JSON, and writes them as null in arrays, as JSON.stringify does', () => {
    const value = { a: undefined, b: [undefined, 1], c: 'kept' };
    expect(unstructuredJson(value)).toBe(JSON.stringify({ b: [null, 1], c: 'kept' }));
  });

  it('orders keys by code point, as Go orders UTF-8 bytes, and integer-like keys as text', () => {
    // U+1F600 is a surrogate pair in UTF-16 (0xD83D 0xDE00), which sorts before U+FF21 by code unit
    // but after it by code point; JavaScript itself would put "9" before "10".
    const value = { '\u{ff21}': 1, '\u{1f600}': 2, a: 3, '10': 4, '9': 5 };
    expect(unstructuredJson(value)).toBe('{"10":4,"9":5,"a":3,"\u{ff21}":1,"\u{1f600}":2}');
  });
});
