// The text of a watch event's object, out of the event's line: what object-text.ts keeps beside the
// object so that the history recorder copies it instead of serializing the object again. Taken only
// from a line as API servers write events, and only when it is exactly the object parsed.
import { backslash, closeBrace, closeBracket, openBrace, openBracket, quote } from './json-bytes';

/**
 * The text of `object`, parsed from the event `line` of `type`, when the line is an event as API
 * servers write them (`{"type":"…","object":{…}}`, nothing else in it) and the object has no
 * managedFields (cut from the line, or never there); else undefined (it is serialized when needed).
 */
export function eventObjectText(line: string, type: string, object: object): string | undefined {
  if (type === 'BOOKMARK') return undefined;
  const metadata = (object as { metadata?: object }).metadata;
  if (metadata === undefined || 'managedFields' in metadata) return undefined;
  const prefix = `{"type":"${type}","object":`;
  if (!line.startsWith(prefix) || line.charCodeAt(prefix.length) !== openBrace) return undefined;
  const end = endOfObject(line, prefix.length);
  // Only the event's closing brace may follow (not a duplicate "object" member, whose value is the
  // one JSON.parse keeps, nor any other).
  if (end === -1 || line.charCodeAt(end) !== closeBrace) return undefined;
  for (let index = end + 1; index < line.length; index++)
    if (!isJsonWhitespace(line.charCodeAt(index))) return undefined;
  return line.slice(prefix.length, end);
}

/**
 * Where the object opening at `start` in `text` (valid JSON: it was parsed) ends, just past its
 * closing brace; -1 if it does not. Strings are skipped by indexOf, so the loop visits only the
 * punctuation between them.
 */
function endOfObject(text: string, start: number): number {
  let depth = 0;
  for (let index = start; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === quote) {
      index = endOfString(text, index + 1);
      if (index === -1) return -1;
    } else if (code === openBrace || code === openBracket) depth++;
    else if ((code === closeBrace || code === closeBracket) && --depth === 0) return index + 1;
  }
  return -1;
}

/** The index of the quote closing the string whose content starts at `from`; -1 if none. */
function endOfString(text: string, from: number): number {
  for (let closing = text.indexOf('"', from); closing !== -1; closing = text.indexOf('"', closing + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(closing - 1 - backslashes) === backslash) backslashes++;
    if (backslashes % 2 === 0) return closing;
  }
  return -1;
}

function isJsonWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}
