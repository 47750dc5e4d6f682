// Reads a batch of captured entries (the JSON array text a CaptureQueue takes) without parsing the
// objects in it: a change's time, stream, delta type and key are read from their JSON, its object is
// kept as its text (see CapturedObject), and marks and crash logs, a few per batch, are parsed whole.
// JSON.parse of a batch built a tree of every object only for the writer to serialize it again.
import type { CapturedObject } from './captured-object';
import { readCapturedObject, skipWhitespace, stringEnd, stringValue } from './captured-object';
import type { CrashLogEntry, MarkEntry } from './recording-protocol';

/** A ChangeEntry with its object as captured text. */
export interface CapturedChange {
  readonly time: number;
  readonly stream: number;
  /** encodeDeltaType's code. */
  readonly code: number;
  readonly key: string;
  /** Undefined for a deletion with no known state (the entry's null). */
  readonly object: CapturedObject | undefined;
}

export type CapturedEntry = CapturedChange | MarkEntry | CrashLogEntry;

export function isCapturedChange(entry: CapturedEntry): entry is CapturedChange {
  return 'code' in entry;
}

const quote = 0x22;
const comma = 0x2c;
const openBrace = 0x7b;
const closeBrace = 0x7d;
const openBracket = 0x5b;
const closeBracket = 0x5d;
const nullText = Buffer.from('null');

/** The entries of `batch`, a JSON array of BatchEntry in UTF-8. Throws on a malformed batch. */
export function readCapturedBatch(batch: Buffer): CapturedEntry[] {
  const reader = new EntryReader(batch);
  reader.expect(openBracket);
  const entries: CapturedEntry[] = [];
  if (reader.peek() === closeBracket) return entries;
  for (;;) {
    entries.push(reader.peek() === openBracket ? reader.change() : reader.record());
    const next = reader.peek();
    reader.index++;
    if (next === closeBracket) return entries;
    if (next !== comma) throw new Error(`a recorded batch has ${reader.describe(next)} between entries`);
  }
}

class EntryReader {
  index = 0;

  constructor(private readonly bytes: Buffer) {}

  /** The next byte that is not whitespace, where `index` then points. */
  peek(): number {
    this.index = skipWhitespace(this.bytes, this.index);
    if (this.index >= this.bytes.length) throw new Error('a recorded batch ends early');
    return this.bytes[this.index];
  }

  expect(byte: number): void {
    const found = this.peek();
    if (found !== byte)
      throw new Error(
        `a recorded batch has ${this.describe(found)} where ${String.fromCharCode(byte)} belongs`,
      );
    this.index++;
  }

  describe(byte: number): string {
    return `"${String.fromCharCode(byte)}" at byte ${this.index}`;
  }

  /** `[time, stream, code, key, object]`, the object read as text. */
  change(): CapturedChange {
    this.expect(openBracket);
    const time = this.number();
    this.expect(comma);
    const stream = this.number();
    this.expect(comma);
    const code = this.number();
    this.expect(comma);
    if (this.peek() !== quote)
      throw new Error(`a recorded change's key is not a string at byte ${this.index}`);
    const keyEnd = stringEnd(this.bytes, this.index);
    const key = stringValue(this.bytes, this.index, keyEnd);
    this.index = keyEnd;
    this.expect(comma);
    let object: CapturedObject | undefined;
    if (this.peek() === openBrace) {
      const read = readCapturedObject(this.bytes, this.index);
      object = read.object;
      this.index = read.end;
    } else if (this.bytes.subarray(this.index, this.index + 4).equals(nullText)) this.index += 4;
    else throw new Error(`a recorded change's object is neither an object nor null at byte ${this.index}`);
    this.expect(closeBracket);
    return { time, stream, code, key, object };
  }

  /** A mark or a crash log: a JSON object, parsed. */
  record(): MarkEntry | CrashLogEntry {
    const start = this.index;
    if (this.peek() !== openBrace)
      throw new Error(`a recorded entry starts with ${this.describe(this.peek())}`);
    let depth = 0;
    for (let index = start; index < this.bytes.length; index++) {
      const byte = this.bytes[index];
      if (byte === quote) index = stringEnd(this.bytes, index) - 1;
      else if (byte === openBrace || byte === openBracket) depth++;
      else if ((byte === closeBrace || byte === closeBracket) && --depth === 0) {
        this.index = index + 1;
        return JSON.parse(this.bytes.toString('utf8', start, this.index)) as MarkEntry | CrashLogEntry;
      }
    }
    throw new Error('a recorded batch ends inside an entry');
  }

  /** A JSON number: read digit by digit when a plain integer (times, stream numbers, codes). */
  private number(): number {
    const start = skipWhitespace(this.bytes, this.index);
    let index = start;
    let value = 0;
    let plain = true;
    for (; index < this.bytes.length; index++) {
      const byte = this.bytes[index];
      if (byte >= 0x30 && byte <= 0x39) value = value * 10 + byte - 0x30;
      else if (byte === comma || byte === closeBracket || byte <= 0x20) break;
      else plain = false;
    }
    if (index === start) throw new Error(`a recorded change lacks a number at byte ${start}`);
    this.index = index;
    if (plain) return value;
    const parsed = Number(this.bytes.toString('latin1', start, index));
    if (Number.isNaN(parsed)) throw new Error(`a recorded change has a malformed number at byte ${start}`);
    return parsed;
  }
}
