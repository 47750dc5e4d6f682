// managedFields cut out of an object's bytes before they are parsed. Informers drop them as objects
// enter the cache (controller-runtime's TransformStripManagedFields; our ObjectCompactor), but only
// after JSON.parse has built them: on a real cluster they are a third to a half of a pod's bytes, and
// every entry of fieldsV1 is a small object for the collector. A decoder whose caller says it drops
// them (DecodeHints.omitManagedFields) cuts the member out of the text instead; everything else parses
// as before. Only a compact member is cut ("managedFields":[...] right after a comma or the opening
// brace, as API servers write it); anything else is left to the transform. The value cut is skipped,
// not validated: an object whose managedFields alone is malformed parses (the rest is validated).

import {
  backslash,
  closeBrace,
  closeBracket,
  colon,
  comma,
  openBrace,
  openBracket,
  quote,
} from './json-bytes';

const member = Buffer.from('"managedFields":');

/** The bytes to leave out: [from, to) of the buffer given. */
export interface Cut {
  from: number;
  to: number;
}

/**
 * Where `"managedFields":[...]` (with the comma beside it) lies in `bytes[start, end)`, a JSON object,
 * when it is a member of the object that `path`'s keys lead to from the top; else undefined.
 * ['metadata'] for an object, ['object', 'metadata'] for a watch event.
 */
export function managedFieldsCut(
  bytes: Buffer,
  start: number,
  end: number,
  path: readonly string[],
): Cut | undefined {
  // Searched within the object only: a LIST chunk holds dozens of items after this one, and a search
  // to the chunk's end for each would read the chunk dozens of times.
  const object = bytes.subarray(start, end);
  // An annotation or a label may be named managedFields too: the next occurrence is tried.
  let found = object.indexOf(member);
  while (found > 0 && !isMemberAt(bytes, start, start + found, path))
    found = object.indexOf(member, found + member.length);
  if (found <= 0) return undefined;
  const candidate = start + found;
  const valueStart = candidate + member.length;
  if (bytes[valueStart] !== openBracket) return undefined;
  const valueEnd = endOfArray(bytes, valueStart, end);
  if (valueEnd === -1) return undefined;
  const before = bytes[candidate - 1];
  if (before === comma) return { from: candidate - 1, to: valueEnd };
  if (before !== openBrace) return undefined;
  const after = bytes[valueEnd];
  if (after === comma) return { from: candidate, to: valueEnd + 1 };
  return after === closeBrace ? { from: candidate, to: valueEnd } : undefined;
}

/**
 * Whether the key at `at` is a key of the object `path` leads to: the structure before it is scanned
 * (strings skipped by indexOf), remembering the key that opened each level.
 */
function isMemberAt(bytes: Buffer, start: number, at: number, path: readonly string[]): boolean {
  // openers[d]: the key whose value is the object at depth d (d >= 2; depth 1 is the top object).
  const openers: string[] = [];
  let depth = 0;
  let lastKey = '';
  for (let index = start; index < at; index++) {
    const byte = bytes[index];
    if (byte === quote) {
      const close = endOfString(bytes, index + 1, at);
      if (close === -1) return false;
      // A key is a string followed by a colon (API servers write no space between them).
      if (bytes[close + 1] === colon && depth <= path.length)
        lastKey = bytes.toString('latin1', index + 1, close);
      index = close;
    } else if (byte === openBrace || byte === openBracket) {
      depth++;
      if (depth <= path.length + 1) openers[depth] = byte === openBrace ? lastKey : '';
      lastKey = '';
    } else if (byte === closeBrace || byte === closeBracket) depth--;
  }
  if (depth !== path.length + 1) return false;
  for (let level = 0; level < path.length; level++) if (openers[level + 2] !== path[level]) return false;
  return true;
}

/** The index of the quote that ends the string whose contents start at `from`, or -1 before `end`. */
function endOfString(bytes: Buffer, from: number, end: number): number {
  let at = from;
  for (;;) {
    const next = bytes.indexOf(quote, at);
    if (next === -1 || next >= end) return -1;
    let backslashes = 0;
    while (bytes[next - 1 - backslashes] === backslash) backslashes++;
    if (backslashes % 2 === 0) return next;
    at = next + 1;
  }
}

/** The index just after the bracket that closes the array opened at `open`, or -1 before `end`. */
function endOfArray(bytes: Buffer, open: number, end: number): number {
  let depth = 0;
  for (let index = open; index < end; index++) {
    const byte = bytes[index];
    if (byte === quote) {
      const close = endOfString(bytes, index + 1, end);
      if (close === -1) return -1;
      index = close;
    } else if (byte === openBrace || byte === openBracket) depth++;
    else if ((byte === closeBrace || byte === closeBracket) && --depth === 0) return index + 1;
  }
  return -1;
}

/** `bytes[start, end)` as text, without its managedFields where managedFieldsCut finds them. */
export function textWithoutManagedFields(
  bytes: Buffer,
  start: number,
  end: number,
  path: readonly string[],
): string {
  const cut = managedFieldsCut(bytes, start, end, path);
  if (!cut) return bytes.toString('utf8', start, end);
  return bytes.toString('utf8', start, cut.from) + bytes.toString('utf8', cut.to, end);
}
