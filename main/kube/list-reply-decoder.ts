// A LIST reply decoded as its bytes arrive. A list of 150,000 pods is 350 MB of JSON: collected and
// parsed whole, it holds the thread for seconds (concatenating, decoding, one JSON.parse) and three
// copies of itself in memory. Here each element of the top-level "items" array is parsed on its own
// as soon as its last byte arrives, so the work follows the network in chunk-sized pieces and the
// raw bytes of an item are dropped once it is parsed. Every other member (kind, apiVersion,
// metadata) is parsed whole when complete.
//
// Only the structure between values is scanned here (a byte loop that tracks strings and nesting, on
// bytes: structural characters are ASCII and never occur inside a multi-byte UTF-8 sequence); each
// value is validated by JSON.parse, and anything but whitespace after the object is refused, so the
// decoder accepts exactly the replies JSON.parse would.

import { textWithoutManagedFields } from './managed-fields-cut';
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

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/**
 * Whether the bytes of `chunk` just before `end` (back to `from` at most) are an odd run of
 * backslashes: then the byte at `end` is escaped. `from` must not itself be escaped.
 */
function oddBackslashRun(chunk: Buffer, from: number, end: number): boolean {
  let at = end - 1;
  while (at >= from && chunk[at] === backslash) at--;
  return (end - 1 - at) % 2 === 1;
}

type State =
  | 'before-object'
  | 'key-or-end'
  | 'key'
  | 'colon'
  | 'value'
  | 'after-value'
  | 'item-or-end'
  | 'item'
  | 'after-item'
  | 'done';

/** An item's metadata (managed-fields-cut.ts). */
const itemMetadataPath = ['metadata'];

/**
 * What a `mapItem` returns for an item it consumed itself: the item is not kept in the list's items.
 * A reader that folds each item into columns as it arrives (metrics-usage.ts) then holds no item past
 * its own parse, so none outlives a young-generation collection.
 */
export const skipItem: unique symbol = Symbol('skipItem');

export class ListReplyDecoder {
  /**
   * `mapItem` replaces each item as soon as it is parsed (see ListerWatcher.list's transformItem);
   * an item it maps to `skipItem` is left out of the items.
   * With `omitManagedFields` (the caller drops them) each item's managedFields are cut out unparsed.
   */
  constructor(
    private readonly mapItem?: (item: unknown) => unknown,
    private readonly omitManagedFields = false,
  ) {}

  private state: State = 'before-object';
  private readonly members: Record<string, unknown> = {};
  private items: unknown[] | undefined;
  private key = '';
  /** The value being scanned: the parts of it seen so far and what it is inside of. */
  private scanning: 'key' | 'member' | 'item' | undefined;
  /**
   * The bytes of the value from earlier chunks, when it began in one: most values lie within one
   * chunk and are decoded from it directly, without a copy or a view of their bytes.
   */
  private parts: Buffer[] = [];
  private depth = 0;
  private inString = false;
  private escaped = false;
  private primitive = false;
  /** Bytes pushed before the current chunk, and the offset of the byte being looked at (for errors). */
  private received = 0;
  private position = 0;

  /** Feeds the next bytes; throws a SyntaxError as soon as they cannot continue a JSON object. */
  push(chunk: Buffer): void {
    const start = this.received;
    let index = 0;
    while (index < chunk.length) {
      if (this.scanning) {
        const end = this.scan(chunk, index);
        if (end === -1) {
          this.parts.push(index === 0 ? chunk : chunk.subarray(index));
          break;
        }
        this.complete(chunk, index, end);
        index = end;
        continue;
      }
      const byte = chunk[index];
      if (isWhitespace(byte)) {
        index++;
        continue;
      }
      this.position = start + index;
      this.structural(byte);
      if (this.scanning) continue;
      index++;
    }
    this.received += chunk.length;
  }

  /** The whole reply once its last byte has been pushed; throws if it ended before the object did. */
  finish(): Record<string, unknown> {
    this.position = this.received;
    if (this.state !== 'done' || this.scanning) throw this.unexpected('end of reply');
    return this.members;
  }

  /** One byte between values: the object's punctuation, or the first byte of a value (not consumed). */
  private structural(byte: number): void {
    switch (this.state) {
      case 'before-object':
        if (byte !== openBrace) throw this.unexpected(byte);
        this.state = 'key-or-end';
        return;
      case 'key-or-end':
      case 'key':
        if (byte === closeBrace && this.state === 'key-or-end') this.state = 'done';
        else if (byte === quote) this.startValue('key', byte);
        else throw this.unexpected(byte);
        return;
      case 'colon':
        if (byte !== colon) throw this.unexpected(byte);
        this.state = 'value';
        return;
      case 'value':
        if (this.key === 'items' && byte === openBracket) {
          this.items = [];
          this.state = 'item-or-end';
          // The bracket is consumed by the caller's index++ since nothing is being scanned.
          return;
        }
        this.startValue('member', byte);
        return;
      case 'after-value':
        if (byte === comma) this.state = 'key';
        else if (byte === closeBrace) this.state = 'done';
        else throw this.unexpected(byte);
        return;
      case 'item-or-end':
      case 'item':
        if (byte === closeBracket && this.state === 'item-or-end') this.endItems();
        else if (byte === closeBracket || byte === comma || byte === colon || byte === closeBrace)
          throw this.unexpected(byte);
        else this.startValue('item', byte);
        return;
      case 'after-item':
        if (byte === comma) this.state = 'item';
        else if (byte === closeBracket) this.endItems();
        else throw this.unexpected(byte);
        return;
      case 'done':
        throw this.unexpected(byte);
    }
  }

  /** Starts scanning a value at its first byte; scan() is then given that byte again. */
  private startValue(kind: 'key' | 'member' | 'item', first: number): void {
    this.scanning = kind;
    this.depth = 0;
    this.inString = false;
    this.escaped = false;
    this.primitive = first !== quote && first !== openBrace && first !== openBracket;
  }

  /** Scans from `index`; the position just after the value's last byte, or -1 if it goes on. */
  private scan(chunk: Buffer, index: number): number {
    let { depth, inString, escaped } = this;
    const primitive = this.primitive;
    const length = chunk.length;
    for (; index < length; index++) {
      if (inString) {
        if (escaped) {
          escaped = false;
          continue;
        }
        // Most of a reply's bytes are inside strings: the next quote is found by indexOf (memchr)
        // rather than byte by byte. It ends the string unless an odd run of backslashes precedes it.
        const next = chunk.indexOf(quote, index);
        const escapedAtEnd = oddBackslashRun(chunk, index, next === -1 ? length : next);
        if (next === -1) {
          escaped = escapedAtEnd;
          index = length;
          break;
        }
        index = next;
        if (escapedAtEnd) continue;
        inString = false;
        if (depth === 0) return this.save(depth, inString, escaped, index + 1);
        continue;
      }
      const byte = chunk[index];
      if (primitive) {
        if (isWhitespace(byte) || byte === comma || byte === closeBrace || byte === closeBracket)
          return this.save(depth, inString, escaped, index);
      } else if (byte === quote) inString = true;
      else if (byte === openBrace || byte === openBracket) depth++;
      else if (byte === closeBrace || byte === closeBracket) {
        if (--depth === 0) return this.save(depth, inString, escaped, index + 1);
      }
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    return -1;
  }

  private save(depth: number, inString: boolean, escaped: boolean, end: number): number {
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    return end;
  }

  /**
   * The scanned value is whole, its last bytes `chunk` from `start` to `end`: parse it (JSON.parse
   * validates it) and move on.
   */
  private complete(chunk: Buffer, start: number, end: number): void {
    const kind = this.scanning;
    let bytes = chunk;
    if (this.parts.length > 0) {
      this.parts.push(chunk.subarray(start, end));
      bytes = Buffer.concat(this.parts);
      this.parts = [];
      start = 0;
      end = bytes.length;
    }
    const text =
      kind === 'item' && this.omitManagedFields
        ? textWithoutManagedFields(bytes, start, end, itemMetadataPath)
        : bytes.toString('utf8', start, end);
    this.scanning = undefined;
    const value: unknown = JSON.parse(text);
    if (kind === 'key') {
      this.key = value as string;
      this.state = 'colon';
    } else if (kind === 'member') {
      this.setMember(this.key, value);
      this.state = 'after-value';
    } else {
      const item = this.mapItem ? this.mapItem(value) : value;
      if (item !== skipItem) (this.items as unknown[]).push(item);
      this.state = 'after-item';
    }
  }

  private endItems(): void {
    this.setMember('items', this.items);
    this.items = undefined;
    this.state = 'after-value';
  }

  /** Like JSON.parse: a later duplicate wins; "__proto__" is an ordinary member. */
  private setMember(key: string, value: unknown): void {
    Object.defineProperty(this.members, key, { value, writable: true, enumerable: true, configurable: true });
  }

  private unexpected(what: number | string): SyntaxError {
    const found = typeof what === 'string' ? what : `'${String.fromCharCode(what)}'`;
    return new SyntaxError(`Unexpected ${found} at byte ${this.position} of the reply`);
  }
}
