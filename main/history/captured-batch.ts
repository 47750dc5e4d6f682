// Reads a batch of captured entries (the JSON array text a CaptureQueue takes) without parsing the
// objects in it: a change's time, stream, delta type and key are read from their JSON, its object is
// kept as its text (see CapturedObject), and marks and crash logs, a few per batch, are parsed whole.
// JSON.parse of a batch built a tree of every object only for the writer to serialize it again. The
// queue's table of entry ends says where each object's text ends, so only its metadata is scanned.
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
const openBracket = 0x5b;
const closeBracket = 0x5d;
const nullText = Buffer.from('null');

/**
 * The entries of `batch`, a JSON array of BatchEntry in UTF-8, each ending where `entryEnds` says (see
 * CaptureQueue's TakenBatch). Throws on a malformed batch, or ends that do not fit it.
 */
export function readCapturedBatch(batch: Buffer, entryEnds: Uint32Array): CapturedEntry[] {
  const reader = new EntryReader(batch);
  reader.expect(openBracket);
  const entries: CapturedEntry[] = [];
  for (let entry = 0; entry < entryEnds.length; entry++) {
    const end = entryEnds[entry];
    if (end <= reader.index || end >= batch.length)
      throw new Error(`a recorded batch's entry ${entry} ends at ${end}, outside the batch`);
    entries.push(reader.peek() === openBracket ? reader.change(end) : reader.record(end));
    const next = reader.peek();
    if (next !== comma && next !== closeBracket)
      throw new Error(`a recorded batch has ${reader.describe(next)} between entries`);
    reader.index++;
    if (next === closeBracket && entry !== entryEnds.length - 1)
      throw new Error(`a recorded batch closes after ${entry + 1} of its ${entryEnds.length} entries`);
  }
  if (entryEnds.length === 0) reader.expect(closeBracket);
  if (skipWhitespace(batch, reader.index) !== batch.length || batch[reader.index - 1] !== closeBracket)
    throw new Error(`a recorded batch has more than its ${entryEnds.length} entries`);
  return entries;
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

  /** `[time, stream, code, key, object]` ending at `end`, the object read as text. */
  change(end: number): CapturedChange {
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
    // The object ends where the entry's closing bracket, its last byte, begins (whitespace aside).
    if (this.bytes[end - 1] !== closeBracket)
      throw new Error(`a recorded change does not end with "]" at byte ${end - 1}`);
    const objectEnd = whitespaceBefore(this.bytes, end - 1);
    let object: CapturedObject | undefined;
    if (this.peek() === openBrace) object = readCapturedObject(this.bytes, this.index, objectEnd);
    else if (objectEnd - this.index !== 4 || !this.bytes.subarray(this.index, objectEnd).equals(nullText))
      throw new Error(`a recorded change's object is neither an object nor null at byte ${this.index}`);
    this.index = end;
    return { time, stream, code, key, object };
  }

  /** A mark or a crash log ending at `end`: a JSON object, parsed. */
  record(end: number): MarkEntry | CrashLogEntry {
    if (this.peek() !== openBrace)
      throw new Error(`a recorded entry starts with ${this.describe(this.peek())}`);
    const start = this.index;
    this.index = end;
    return JSON.parse(this.bytes.toString('utf8', start, end)) as MarkEntry | CrashLogEntry;
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

/** The index just past the last byte before `end` that is not JSON whitespace. */
function whitespaceBefore(bytes: Uint8Array, end: number): number {
  while (end > 0) {
    const byte = bytes[end - 1];
    if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) return end;
    end--;
  }
  return end;
}
