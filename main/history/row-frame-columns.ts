// Reads a row frame's columns back (see row-frame-codec.ts for how they are stored): each a function
// of the row's index, checked against the frame's row count once, when the frame is read.
import type { Column } from './row-frame-codec';
import { codeOffset, digitAlphabet } from './row-frame-codec';

/** A column's reader: row index -> value (values shared through a dictionary are one object). */
export type ColumnReader = (index: number) => unknown;

/**
 * A reader of the column `stored` of `length` values; throws when it does not hold as many (a frame
 * damaged past what deflate and JSON notice is still never read as rows).
 */
export function reader(stored: Column, length: number): ColumnReader {
  const fail = () => new Error('row frame: a column does not hold a value per row');
  if ('sameAsName' in stored) throw new Error('row frame: only a cell can be the name');
  if ('lines' in stored) {
    if (typeof stored.lines !== 'string') throw fail();
    const lines = stored.lines.split('\n');
    if (lines.length !== length) throw fail();
    return (index) => lines[index];
  }
  if ('values' in stored) {
    if (!Array.isArray(stored.values) || stored.values.length !== length) throw fail();
    return (index) => stored.values[index];
  }
  if (!Array.isArray(stored.dictionary)) throw fail();
  const dictionary = stored.dictionary;
  if ('digits' in stored) {
    const positions = digitPositions(stored.digits, stored.width, length, dictionary.length);
    if (positions === undefined) throw fail();
    return (index) => dictionary[positions[index]];
  }
  if ('codes' in stored) {
    const codes = stored.codes;
    if (typeof codes !== 'string' || codes.length !== length) throw fail();
    for (let index = 0; index < length; index++) {
      const position = codes.charCodeAt(index) - codeOffset;
      if (position < 0 || position >= dictionary.length) throw fail();
    }
    return (index) => dictionary[codes.charCodeAt(index) - codeOffset];
  }
  const indexes = stored.indexes;
  if (!Array.isArray(indexes) || indexes.length !== length) throw fail();
  for (const index of indexes)
    if (!Number.isInteger(index) || index < 0 || index >= dictionary.length) throw fail();
  return (index) => dictionary[indexes[index]];
}

/** Character code -> its value as a digit (see digitAlphabet), -1 for a character that is none. */
const digitValues = new Int8Array(128).fill(-1);
for (let value = 0; value < digitAlphabet.length; value++)
  digitValues[digitAlphabet.charCodeAt(value)] = value;

/**
 * The dictionary position of each of `length` rows, read once off `digits` (`width` digits a row), or
 * undefined when they are not that many positions below `count`.
 */
function digitPositions(
  digits: unknown,
  width: unknown,
  length: number,
  count: number,
): Uint32Array | undefined {
  if (typeof digits !== 'string' || !Number.isInteger(width) || (width as number) < 1) return undefined;
  if (digits.length !== length * (width as number)) return undefined;
  const base = digitAlphabet.length;
  const positions = new Uint32Array(length);
  for (let row = 0, at = 0; row < length; row++) {
    let position = 0;
    for (const end = at + (width as number); at < end; at++) {
      const code = digits.charCodeAt(at);
      const value = code < 128 ? digitValues[code] : -1;
      if (value < 0) return undefined;
      position = position * base + value;
    }
    if (position >= count) return undefined;
    positions[row] = position;
  }
  return positions;
}
