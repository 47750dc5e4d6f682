// Where one item of a LIST ends and the next begins, told by bytes rather than by scanning. An API
// server writes a list's items alike: compact JSON, one comma between them, every item opening with
// the same members (a typed list's `{"metadata":{`, an unstructured one's sorted
// `{"apiVersion":"…","kind":"…","metadata":{`). So `}` + `,` + that opening, found by a memchr-speed
// search, is almost always the end of one item and the start of the next; where it is not (the same
// bytes inside an item, e.g. a second ownerReference of an unstructured object), the text up to it is
// not valid JSON, which JSON.parse says, and ListReplyDecoder scans that item byte by byte instead.
// Learned from the list's first two items, so nothing is assumed of a kind never seen.

import { backslash, closeBrace, comma, openBrace, openBracket, quote } from './json-bytes';

/** The most bytes of an item's opening kept to learn from: a pod's is ~45. */
export const itemOpeningBytes = 64;

/** An opening shorter than this (`{"a":`) is too common inside items to be worth searching for. */
const shortestOpening = 8;

/** An item as ListReplyDecoder's scanner found it: its offsets in the reply and its first bytes. */
export interface ScannedItem {
  readonly start: number;
  readonly end: number;
  readonly opening: Buffer;
  /** Its last byte: an object's is a closing brace. */
  readonly last: number;
}

/**
 * The bytes that end one item and open the next (`},` then the two items' common opening, cut after
 * its last brace or bracket outside a string), or undefined when the two items do not say it: not
 * objects, not one comma apart, or too short an opening in common. Cut there, not after a key: the
 * first key inside an object varies (an unstructured object's first member of metadata is whichever
 * sorts first of those it has), and an opening that stops matching costs a failed parse per item.
 */
export function learnItemBoundary(first: ScannedItem, second: ScannedItem): Buffer | undefined {
  if (first.last !== closeBrace || second.start !== first.end + 1) return undefined;
  if (first.opening[0] !== openBrace || second.opening[0] !== openBrace) return undefined;
  const common = commonLength(first.opening, second.opening);
  const opening = first.opening.subarray(0, structuralCut(first.opening, common));
  if (opening.length < shortestOpening) return undefined;
  return Buffer.concat([Buffer.from([closeBrace, comma]), opening]);
}

function commonLength(a: Buffer, b: Buffer): number {
  const length = Math.min(a.length, b.length);
  let at = 0;
  while (at < length && a[at] === b[at]) at++;
  return at;
}

/** The length of the longest prefix of `bytes[0, length)` that ends just after `{` or `[` outside a string. */
function structuralCut(bytes: Buffer, length: number): number {
  let cut = 0;
  let inString = false;
  for (let at = 0; at < length; at++) {
    const byte = bytes[at];
    if (inString) {
      if (byte === backslash) at++;
      else if (byte === quote) inString = false;
    } else if (byte === quote) inString = true;
    else if (byte === openBrace || byte === openBracket) cut = at + 1;
  }
  return cut;
}
