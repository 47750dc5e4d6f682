// A LIST reply decoded as its bytes arrive. A list of 150,000 pods is 350 MB of JSON: collected and
// parsed whole, it holds the thread for seconds (concatenating, decoding, one JSON.parse) and three
// copies of itself in memory. Here each element of the top-level "items" array is parsed on its own
// as soon as it is known whole (its last byte, or the next item's opening, below), so the work follows
// the network in chunk-sized pieces and the raw bytes of an item are dropped once it is parsed. Every other member (kind, apiVersion,
// metadata) is parsed whole when complete.
//
// Only the structure between values is scanned here (a byte loop that tracks strings and nesting, on
// bytes: structural characters are ASCII and never occur inside a multi-byte UTF-8 sequence); each
// value is validated by JSON.parse, and anything but whitespace after the object is refused, so the
// decoder accepts exactly the replies JSON.parse would.
//
// Past the first two items, an item's end is not scanned for but searched (item-boundary.ts): the
// bytes that end an item and open the next, learned from those two. The scan stepped through every
// string of every item, a quarter of the sync bench's main-thread CPU (150,000 pods: 3.6-4.1 s of it
// before, 2.7-2.9 s since); a search for a dozen or more bytes reads them at memchr speed. The text up
// to a match is an item only if JSON.parse accepts it (it starts at the item's opening brace, and a
// JSON value has one end; the managedFields cut removes a balanced member and cannot make a part
// whole), so a match inside an item costs one failed parse and a scan of that item; after a few, the
// list is scanned as before. Such an item is parsed once the next one's opening has arrived (the last,
// when the reply ends).

import { textWithoutManagedFields } from './managed-fields-cut';
import { itemOpeningBytes, learnItemBoundary } from './item-boundary';
import { listItemType, withListItemType } from './list-item-type';
import type { ListItemType } from './list-item-type';
import type { ScannedItem } from './item-boundary';
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

/** Matches of the learned boundary inside an item a list may have before it is scanned throughout. */
const seekFailuresAllowed = 8;

/**
 * The most bytes of one item gathered while seeking its end: past them (an item this large, or a list
 * whose items stopped opening alike) the item is scanned, so no more is held than scanning would.
 */
const seekingBytesLimit = 4 * 1024 * 1024;

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
  /** What an item without apiVersion and kind is (list-item-type.ts), from the members before items. */
  private itemType: ListItemType | undefined;
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
  /** The offset in the reply of the first byte of the value being scanned or sought. */
  private valueStart = 0;
  /** The item being read ends where `boundary` is next found, not where a scan would end it. */
  private seeking = false;
  /** The bytes that end an item and open the next, once learned; undefined while scanning. */
  private boundary: Buffer | undefined;
  /** The first items scanned, to learn the boundary from (item-boundary.ts). */
  private readonly scannedItems: ScannedItem[] = [];
  private seekFailures = 0;

  /** Feeds the next bytes; throws a SyntaxError as soon as they cannot continue a JSON object. */
  push(chunk: Buffer): void {
    this.consume(chunk, this.received);
    this.received += chunk.length;
  }

  /** Reads `chunk`, whose first byte is the reply's byte `base`. */
  private consume(chunk: Buffer, base: number): void {
    if (this.seeking && this.parts.length > 0 && this.boundaryAcrossParts(chunk, base)) return;
    let index = 0;
    while (index < chunk.length) {
      if (this.scanning && this.seeking) {
        const found = chunk.indexOf(this.boundary as Buffer, index);
        if (found === -1) {
          this.gather(index === 0 ? chunk : chunk.subarray(index));
          break;
        }
        // A sought item ends just after the boundary's closing brace.
        const end = found + 1;
        if (!this.completeSought(chunk, index, end)) {
          // Rescanned: what follows may continue an item whose own boundary straddles the cut.
          this.consume(chunk.subarray(end), base + end);
          return;
        }
        index = end;
        continue;
      }
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
      this.position = base + index;
      this.structural(byte);
      if (this.scanning) continue;
      index++;
    }
  }

  /** The whole reply once its last byte has been pushed; throws if it ended before the object did. */
  finish(): Record<string, unknown> {
    // The last item has no next one to open after it: it is scanned, and so is all after it.
    if (this.seeking) {
      this.boundary = undefined;
      this.rescan(Buffer.concat(this.parts), false);
    }
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
          // kube-apiserver writes kind and apiVersion before the items: a list that does not leaves
          // its untyped items as they are.
          this.itemType = listItemType(this.members);
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
    this.valueStart = this.position;
    // Only an object can end in the boundary's closing brace.
    this.seeking = kind === 'item' && first === openBrace && this.boundary !== undefined;
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
    const { bytes, from, to } = this.gathered(chunk, start, end);
    if (kind === 'item' && this.scannedItems.length < 2) this.learnFrom(bytes, from, to);
    const text = kind === 'item' ? this.itemText(bytes, from, to) : bytes.toString('utf8', from, to);
    this.scanning = undefined;
    const value: unknown = JSON.parse(text);
    if (kind === 'key') {
      this.key = value as string;
      this.state = 'colon';
    } else if (kind === 'member') {
      this.setMember(this.key, value);
      this.state = 'after-value';
    } else this.addItem(value);
  }

  /**
   * The sought item's text runs to `end` of `chunk`: its value if JSON.parse accepts it (then it is the
   * whole item); else false, the item rescanned from its start and `chunk` up to `end` read.
   */
  private completeSought(chunk: Buffer, start: number, end: number): boolean {
    const { bytes, from, to } = this.gathered(chunk, start, end);
    let value: unknown;
    try {
      value = JSON.parse(this.itemText(bytes, from, to));
    } catch {
      this.rescan(bytes.subarray(from, to), true);
      return false;
    }
    this.scanning = undefined;
    this.seeking = false;
    this.addItem(value);
    return true;
  }

  /** The value's bytes: the parts gathered from earlier chunks joined to `chunk[start, end)`. */
  private gathered(chunk: Buffer, start: number, end: number): { bytes: Buffer; from: number; to: number } {
    if (this.parts.length === 0) return { bytes: chunk, from: start, to: end };
    this.parts.push(chunk.subarray(start, end));
    const bytes = Buffer.concat(this.parts);
    this.parts = [];
    return { bytes, from: 0, to: bytes.length };
  }

  private itemText(bytes: Buffer, from: number, to: number): string {
    return this.omitManagedFields
      ? textWithoutManagedFields(bytes, from, to, itemMetadataPath)
      : bytes.toString('utf8', from, to);
  }

  private addItem(value: unknown): void {
    const typed = this.itemType ? withListItemType(value, this.itemType) : value;
    const item = this.mapItem ? this.mapItem(typed) : typed;
    if (item !== skipItem) (this.items as unknown[]).push(item);
    this.state = 'after-item';
  }

  /** Keeps a sought item's bytes; past seekingBytesLimit, the item is scanned instead. */
  private gather(part: Buffer): void {
    this.parts.push(part);
    let bytes = 0;
    for (const each of this.parts) bytes += each.length;
    if (bytes > seekingBytesLimit) this.rescan(Buffer.concat(this.parts), true);
  }

  /**
   * Reads the item being sought again, from its first byte, by scanning: `bytes` are its bytes so far.
   * A failed match counts against the list's allowance (seekFailuresAllowed).
   */
  private rescan(bytes: Buffer, failed: boolean): void {
    if (failed && ++this.seekFailures >= seekFailuresAllowed) this.boundary = undefined;
    this.parts = [];
    this.position = this.valueStart;
    this.startValue('item', openBrace);
    this.seeking = false;
    this.consume(bytes, this.valueStart);
  }

  /**
   * Whether the boundary starts in the gathered parts and ends in `chunk` (a chunk's search cannot see
   * it): then the item is completed up to it and the rest read, `chunk` included.
   */
  private boundaryAcrossParts(chunk: Buffer, base: number): boolean {
    const boundary = this.boundary as Buffer;
    const tail = this.gatheredTail(boundary.length - 1);
    const window = Buffer.concat([tail, chunk.subarray(0, boundary.length - 1)]);
    const found = window.indexOf(boundary);
    if (found === -1 || found >= tail.length) return false;
    const itemStart = this.valueStart;
    const joined = Buffer.concat(this.parts);
    const end = joined.length - tail.length + found + 1;
    this.parts = [];
    this.completeSought(joined, 0, end);
    this.consume(joined.subarray(end), itemStart + end);
    this.consume(chunk, base);
    return true;
  }

  /** The last `length` bytes gathered (fewer if there are not as many), copying only those. */
  private gatheredTail(length: number): Buffer {
    const newest = this.parts[this.parts.length - 1];
    if (newest.length >= length) return newest.subarray(newest.length - length);
    const last: Buffer[] = [];
    let bytes = 0;
    for (let index = this.parts.length - 1; index >= 0 && bytes < length; index--) {
      last.unshift(this.parts[index]);
      bytes += this.parts[index].length;
    }
    const joined = Buffer.concat(last);
    return joined.subarray(Math.max(0, joined.length - length));
  }

  /** Notes one of the first items scanned; after the second, learns the boundary from them. */
  private learnFrom(bytes: Buffer, from: number, to: number): void {
    this.scannedItems.push({
      start: this.valueStart,
      end: this.valueStart + (to - from),
      opening: Buffer.from(bytes.subarray(from, Math.min(to, from + itemOpeningBytes))),
      last: bytes[to - 1],
    });
    if (this.scannedItems.length === 2)
      this.boundary = learnItemBoundary(this.scannedItems[0], this.scannedItems[1]);
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
