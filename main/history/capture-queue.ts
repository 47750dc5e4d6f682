// The Recorder's bounded queue of captured entries, between the informers' thread and the recording
// process. Each entry's JSON is written as UTF-8 into the batch being filled, a JSON array text in one
// off-heap buffer: the informers' thread keeps no string per change alive (nothing for its collector
// to copy or trace), and take() hands the buffer over whole, to be transferred to the recording
// process without a copy. Bytes of changes queued plus sent but not yet written are bounded: when a
// change would pass the bound, it and every later change are dropped (the Recorder marks a
// queue-overflow gap) until the process has caught up to half the bound. Marks are never dropped:
// they are what says a gap exists. Nor are forced changes (a cache recorded whole, which ends such a
// gap), and they are kept outside the bound: at most a cache's worth, which the informer holds anyway,
// they would otherwise crowd out the live changes behind them, overflow again, and force another.
// Beside the text, the queue notes where each entry ends: the recording process then finds each
// object's text without scanning it to its end (it reads only the metadata, near its start).
// A change's object is copied into the batch as the text the watch stream parsed it from, when that
// was kept (main/cache/object-text.ts), else written as JSON straight into the batch (writeJson),
// never as a string of its own; the batch's buffer comes back from the process once read, to be
// filled again (BatchBuffer): the recorder's part of a flood then leaves next to no garbage on the
// informers' thread.
import { BatchBuffer } from './batch-buffer';
import { writeByte, writeJson, writeJsonText } from './json-bytes';

/** The smallest buffer a batch starts with; it doubles as entries arrive. */
const minimumBatchBytes = 16 * 1024;

/** The most bytes one UTF-8 code unit of a JavaScript string can take. */
const maximumBytesPerCodeUnit = 3;

/** Room a change's head (`[time,stream,code,`) takes, or nearly: integers of up to 16 digits. */
const maximumHeadBytes = 1 + 3 * 17;

/** Entries a batch's table of ends starts with room for; it doubles as entries arrive. */
const minimumEntries = 256;

const openBracket = 0x5b;
const comma = 0x2c;
const closeBracket = 0x5d;

/**
 * An entry's JSON: one string, or its pieces in order. A change comes as pieces (its prefix, its
 * object's JSON, its closing bracket): written one after another, they never exist as one string,
 * where a concatenation would be copied into a flat string before it is written, a second copy of
 * every object on the informers' thread's young generation (half of the recorder's garbage there).
 */
export type EntryText = string | readonly string[];

function lengthOf(entry: EntryText): number {
  if (typeof entry === 'string') return entry.length;
  let length = 0;
  for (const piece of entry) length += piece.length;
  return length;
}

/** A batch as take() hands it over: the caller owns both (and may transfer their buffers). */
export interface TakenBatch {
  /** The UTF-8 text of a JSON array of entries. */
  readonly entries: Uint8Array;
  /** Where each entry ends in `entries`: the index just past its last byte, in order. */
  readonly entryEnds: Uint32Array;
}

export class CaptureQueue {
  /** The batch being filled: "[" then entries separated by ","; not open until an entry comes. */
  private readonly batch = new BatchBuffer();
  /** Where each entry of `batch` ends (see TakenBatch.entryEnds); `entryCount` of them are set. */
  private entryEnds = new Uint32Array(minimumEntries);
  private entryCount = 0;
  /**
   * What the next batch's buffer starts at: the size the last one took, with a quarter to spare, so a
   * steady stream writes each batch into one buffer, and a quiet one goes back to small buffers (a
   * whole cache's batches never shrink it, see take).
   */
  private nextBatchBytes = minimumBatchBytes;
  private queuedBytes = 0;
  /** Of queuedBytes, those of forced changes (outside the bound). */
  private queuedForcedBytes = 0;
  private queuedChanges = 0;
  /** sequence -> [bytes, forced bytes, changes] of each batch sent and not yet written. */
  private readonly inFlight = new Map<number, readonly [number, number, number]>();
  private inFlightBytes = 0;
  private inFlightForcedBytes = 0;
  private inFlightChanges = 0;
  private overflowing = false;

  constructor(private readonly limitBytes: number) {}

  /**
   * Queues a change's JSON, given whole or as its pieces in order; false (and nothing queued) while
   * the queue overflows. Forced, it is queued whatever the bound, and outside it.
   */
  appendChange(entry: EntryText, force = false): boolean {
    if (force) {
      this.queuedForcedBytes += this.write(entry);
      this.queuedChanges++;
      return true;
    }
    const bounded = this.boundedBytes();
    // Its length counts UTF-16 code units: at most the UTF-8 bytes, and the same for ASCII.
    if (this.overflowing || bounded + lengthOf(entry) > this.limitBytes) {
      this.overflowing = true;
      return false;
    }
    this.write(entry);
    this.queuedChanges++;
    return true;
  }

  /**
   * Queues the change `[time, stream, code, key, object]` (object undefined: null), its JSON written
   * straight into the batch, byte for byte JSON.stringify's, or, given, `text`, the JSON the object
   * was parsed from (object-text.ts), copied; returns its UTF-8 bytes, or 0 (nothing queued) while
   * the queue overflows. Forced, it is queued whatever the bound, and outside it.
   */
  appendObjectChange(
    time: number,
    stream: number,
    code: number,
    key: string,
    object: unknown,
    force = false,
    text?: string,
  ): number {
    const bounded = this.boundedBytes();
    if (!force && (this.overflowing || bounded >= this.limitBytes)) {
      this.overflowing = true;
      return 0;
    }
    const batch = this.startEntry(maximumHeadBytes);
    const start = batch.used;
    writeByte(batch, openBracket);
    writeJson(batch, time);
    writeByte(batch, comma);
    writeJson(batch, stream);
    writeByte(batch, comma);
    writeJson(batch, code);
    writeByte(batch, comma);
    writeJson(batch, key);
    writeByte(batch, comma);
    if (text !== undefined) writeJsonText(batch, text);
    else if (object === undefined || !writeJson(batch, object)) writeJson(batch, null);
    writeByte(batch, closeBracket);
    const written = batch.used - start;
    // Measured once written: past the bound, the entry (and its separator) is taken back.
    if (!force && bounded + written > this.limitBytes) {
      if (this.entryCount === 0) batch.abandon();
      else batch.used = this.entryEnds[this.entryCount - 1];
      this.overflowing = true;
      return 0;
    }
    this.endEntry(written);
    if (force) this.queuedForcedBytes += written;
    this.queuedChanges++;
    return written;
  }

  /** Queues a mark's JSON. */
  appendMark(text: string): void {
    this.write(text);
  }

  /** Bytes queued and not yet taken. */
  get pendingBytes(): number {
    return this.queuedBytes;
  }

  /** Of pendingBytes, those of forced changes (a whole cache's records). */
  get pendingForcedBytes(): number {
    return this.queuedForcedBytes;
  }

  /**
   * Bytes of forced changes queued or sent and not yet written: a whole cache's record the process
   * has still to write (see WholeCachePace).
   */
  get unwrittenForcedBytes(): number {
    return this.queuedForcedBytes + this.inFlightForcedBytes;
  }

  /** Bytes of forced changes sent and not yet written (the part of unwrittenForcedBytes in flight). */
  get sentForcedBytes(): number {
    return this.inFlightForcedBytes;
  }

  /** Changes captured and not yet written (queued or in flight). */
  get bufferedChanges(): number {
    return this.queuedChanges + this.inFlightChanges;
  }

  get isOverflowing(): boolean {
    return this.overflowing;
  }

  /**
   * True once an overflowing queue has drained to half its bound, forced changes included (so that a
   * cache recorded whole is written before it is recorded again): the Recorder may resynchronize.
   */
  canRecover(): boolean {
    return this.overflowing && this.queuedBytes + this.inFlightBytes <= this.limitBytes / 2;
  }

  recovered(): void {
    this.overflowing = false;
  }

  /** Everything queued, as one batch sent as batch `sequence`; undefined when empty. */
  take(sequence: number): TakenBatch | undefined {
    if (!this.batch.isOpen) return undefined;
    // endEntry left room for it.
    this.batch.bytes[this.batch.used++] = closeBracket;
    const text = this.batch.take();
    const entryEnds = this.entryEnds.slice(0, this.entryCount);
    this.inFlight.set(sequence, [this.queuedBytes, this.queuedForcedBytes, this.queuedChanges]);
    this.inFlightBytes += this.queuedBytes;
    this.inFlightForcedBytes += this.queuedForcedBytes;
    this.inFlightChanges += this.queuedChanges;
    const size = Math.max(minimumBatchBytes, Math.ceil(text.length * 1.25));
    // A batch of a whole cache's records does not shrink the next: the flush timer cuts a record's
    // batches short (under load main fills one in more than a flush interval), and the next, started
    // in a buffer sized for that, grew by doubling into fresh buffers, copying what it held each time
    // (7-13% of main's time in a record, test/bench/README.md, session 24).
    this.nextBatchBytes = this.queuedForcedBytes > 0 ? Math.max(this.nextBatchBytes, size) : size;
    this.entryCount = 0;
    this.queuedBytes = 0;
    this.queuedForcedBytes = 0;
    this.queuedChanges = 0;
    return { entries: text, entryEnds };
  }

  /**
   * Batch `sequence` is written: its bytes leave the bound. `returned`, its buffer given back by the
   * process that read it, is filled again by a later batch (see BatchBuffer).
   */
  written(sequence: number, returned?: Uint8Array): void {
    if (returned !== undefined) this.batch.recycle(returned);
    const batch = this.inFlight.get(sequence);
    if (!batch) return;
    this.inFlight.delete(sequence);
    this.inFlightBytes -= batch[0];
    this.inFlightForcedBytes -= batch[1];
    this.inFlightChanges -= batch[2];
  }

  /** Bytes queued or in flight that count toward the bound (forced entries do not). */
  private boundedBytes(): number {
    return this.queuedBytes - this.queuedForcedBytes + this.inFlightBytes - this.inFlightForcedBytes;
  }

  /** Writes `entry` into the batch; returns its UTF-8 bytes. */
  private write(entry: EntryText): number {
    const batch = this.startEntry(lengthOf(entry) * maximumBytesPerCodeUnit);
    let bytes = 0;
    if (typeof entry === 'string') bytes = batch.bytes.write(entry, batch.used);
    else for (const piece of entry) bytes += batch.bytes.write(piece, batch.used + bytes);
    batch.used += bytes;
    this.endEntry(bytes);
    return bytes;
  }

  /**
   * The batch, opened if none is, its separator written when an entry precedes, with `bytes` free
   * after it and one more byte for take()'s closing bracket.
   */
  private startEntry(bytes: number): BatchBuffer {
    const batch = this.batch;
    if (!batch.isOpen) {
      batch.open(Math.max(this.nextBatchBytes, 1 + bytes + 1), 1 + bytes + 1);
      batch.bytes[batch.used++] = openBracket;
    } else batch.ensure(1 + bytes + 1);
    if (this.entryCount > 0) batch.bytes[batch.used++] = comma;
    return batch;
  }

  /** The entry just written ends here: noted, with its bytes queued. */
  private endEntry(bytes: number): void {
    this.queuedBytes += bytes;
    if (this.entryCount === this.entryEnds.length) {
      const grown = new Uint32Array(this.entryEnds.length * 2);
      grown.set(this.entryEnds);
      this.entryEnds = grown;
    }
    this.entryEnds[this.entryCount++] = this.batch.used;
    // take()'s closing bracket always has room.
    this.batch.ensure(1);
  }
}
