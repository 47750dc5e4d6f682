// Writes a value's JSON, byte for byte what JSON.stringify makes, as UTF-8 straight into a buffer.
// JSON.stringify builds its text in parts that it returns joined as a cons string, and writing that
// into a buffer flattens it first: about 7 KB of young garbage on the informers' thread per 2.3 KB
// pod, a third of what its collector sweeps under a flood of changes. Written here, a captured
// object costs no garbage at all: plain objects, arrays, strings, finite numbers, booleans and null
// are written as JSON.stringify writes them (key order, undefined and function members skipped,
// non-finite numbers as null); a string holding a character JSON escapes, or any non-ASCII one, goes
// through JSON.stringify and Buffer.write (rare in Kubernetes objects: a few per object at most), and
// so does any value JSON.stringify treats specially (toJSON, boxed primitives, bigint, a class's
// instance), so the bytes are always JSON.stringify's.

/** Room to write into: its buffer, replaced by a larger one when `ensure` asks for more. */
export interface ByteSink {
  /** The buffer being written; valid until the next ensure(). */
  bytes: Buffer;
  /** Bytes of `bytes` written. */
  used: number;
  /** Makes room for at least `free` more bytes past `used` (may replace `bytes`). */
  ensure(free: number): void;
}

const quote = 0x22;
const comma = 0x2c;
const colon = 0x3a;
const openBrace = 0x7b;
const closeBrace = 0x7d;
const openBracket = 0x5b;
const closeBracket = 0x5d;
const digitZero = 0x30;
const minus = 0x2d;

/** Writes one byte (a bracket, a separator). */
export function writeByte(sink: ByteSink, byte: number): void {
  sink.ensure(1);
  sink.bytes[sink.used++] = byte;
}

/** The most UTF-8 bytes a string of `length` UTF-16 code units takes as JSON, quotes included. */
function longestJson(length: number): number {
  // A control character becomes \u00XX: six bytes for one code unit, the worst case.
  return length * 6 + 2;
}

/**
 * Writes `value`'s JSON into `sink`; false (nothing written) when JSON.stringify would return
 * undefined for it (undefined, a function, a symbol), as the caller then writes something else.
 */
export function writeJson(sink: ByteSink, value: unknown): boolean {
  return writeValue(sink, value, '');
}

/** `value`, the member `key` of its holder (an array's index: what a toJSON is called with). */
function writeValue(sink: ByteSink, value: unknown, key: string | number): boolean {
  switch (typeof value) {
    case 'string':
      writeString(sink, value);
      return true;
    case 'number':
      writeNumber(sink, value);
      return true;
    case 'boolean':
      writeAscii(sink, value ? 'true' : 'false');
      return true;
    case 'object':
      if (value === null) writeAscii(sink, 'null');
      else if (Array.isArray(value)) {
        if (!isPlain(value, Array.prototype)) return writeStringified(sink, value, key);
        writeArray(sink, value);
      } else {
        if (!isPlain(value, Object.prototype)) return writeStringified(sink, value, key);
        writeObject(sink, value as Record<string, unknown>);
      }
      return true;
    case 'undefined':
    case 'function':
    case 'symbol':
      return false;
    default:
      // A bigint: JSON.stringify throws, or calls its toJSON.
      return writeStringified(sink, value, key);
  }
}

/**
 * An object or array of the plain kind JSON.parse makes: its prototype `expected` (or none, for an
 * object) and no toJSON. Anything else (a Date, a boxed primitive, a class's instance) is written by
 * JSON.stringify itself.
 */
function isPlain(value: object, expected: object): boolean {
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== expected && !(prototype === null && expected === Object.prototype)) return false;
  return typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

function writeObject(sink: ByteSink, object: Record<string, unknown>): void {
  writeByte(sink, openBrace);
  let first = true;
  // for-in over a plain object walks its own enumerable string keys in JSON.stringify's order
  // (integer-like keys ascending, then the rest in insertion order); its prototype adds none.
  for (const key in object) {
    const member = object[key];
    const kind = typeof member;
    if (kind === 'undefined' || kind === 'function' || kind === 'symbol') continue;
    const start = sink.used;
    if (!first) writeByte(sink, comma);
    writeString(sink, key);
    writeByte(sink, colon);
    // Only a toJSON may turn out to say nothing: the member is then left out, as JSON.stringify does.
    if (writeValue(sink, member, key)) first = false;
    else sink.used = start;
  }
  writeByte(sink, closeBrace);
}

function writeArray(sink: ByteSink, array: readonly unknown[]): void {
  writeByte(sink, openBracket);
  for (let index = 0; index < array.length; index++) {
    if (index > 0) writeByte(sink, comma);
    const item = array[index];
    // Holes and what JSON.stringify leaves out of an object are null in an array.
    if (item === undefined || !writeValue(sink, item, index)) writeAscii(sink, 'null');
  }
  writeByte(sink, closeBracket);
}

/** A string as JSON: copied code unit by code unit while each is printable ASCII with no escape. */
function writeString(sink: ByteSink, text: string): void {
  const length = text.length;
  sink.ensure(length + 2);
  const bytes = sink.bytes;
  let at = sink.used;
  bytes[at++] = quote;
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === quote || code === 0x5c || code > 0x7e) {
      writeEscaped(sink, text);
      return;
    }
    bytes[at++] = code;
  }
  bytes[at++] = quote;
  sink.used = at;
}

/** A string that needs escapes or is not ASCII: JSON.stringify's text of it, as UTF-8. */
function writeEscaped(sink: ByteSink, text: string): void {
  sink.ensure(longestJson(text.length));
  sink.used += sink.bytes.write(JSON.stringify(text), sink.used, 'utf8');
}

/** A number as JSON.stringify writes it: small integers digit by digit, the rest by String(). */
function writeNumber(sink: ByteSink, value: number): void {
  if (!Number.isFinite(value)) {
    writeAscii(sink, 'null');
    return;
  }
  if (!Number.isSafeInteger(value) || Math.abs(value) >= 1e21) {
    writeAscii(sink, String(value));
    return;
  }
  // -0 is written "0", as JSON.stringify writes it.
  let rest = Math.abs(value);
  let digits = 1;
  for (let power = 10; power <= rest; power *= 10) digits++;
  sink.ensure(digits + 1);
  const bytes = sink.bytes;
  if (value < 0) bytes[sink.used++] = minus;
  for (let index = sink.used + digits - 1; index >= sink.used; index--) {
    bytes[index] = digitZero + (rest % 10);
    rest = Math.floor(rest / 10);
  }
  sink.used += digits;
}

/** A string known to be printable ASCII needing no escape (a literal, a number's text). */
function writeAscii(sink: ByteSink, text: string): void {
  sink.ensure(text.length);
  const bytes = sink.bytes;
  let at = sink.used;
  for (let index = 0; index < text.length; index++) bytes[at++] = text.charCodeAt(index);
  sink.used = at;
}

/**
 * What JSON.stringify writes for `value` (as the member `key` of its holder, for a toJSON's
 * argument); false, with nothing written, when that is undefined.
 */
function writeStringified(sink: ByteSink, value: unknown, member: string | number): boolean {
  const key = String(member);
  const text = JSON.stringify({ [key]: value }) as string;
  // {"key":VALUE}: the value is what follows the key's JSON and its colon, up to the closing brace.
  const prefix = JSON.stringify(key).length + 2;
  if (text.length <= prefix) return false;
  writeJsonText(sink, text.slice(prefix, -1));
  return true;
}

/** `json`, a JSON text already (a value's, or a kept object text), as its UTF-8 bytes. */
export function writeJsonText(sink: ByteSink, json: string): void {
  // A UTF-16 code unit is at most 3 bytes of UTF-8 (a surrogate pair, two units, is 4).
  sink.ensure(json.length * 3);
  sink.used += sink.bytes.write(json, sink.used, 'utf8');
}
