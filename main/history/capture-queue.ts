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

/** The smallest buffer a batch starts with; it doubles as entries arrive. */
const minimumBatchBytes = 16 * 1024;

/** The most bytes one UTF-8 code unit of a JavaScript string can take. */
const maximumBytesPerCodeUnit = 3;

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
  /** The batch being filled: "[" then entries separated by ","; undefined until an entry comes. */
  private batch: Buffer | undefined;
  /** Bytes of `batch` written, its opening bracket included. */
  private used = 0;
  /** Where each entry of `batch` ends (see TakenBatch.entryEnds); `entryCount` of them are set. */
  private entryEnds = new Uint32Array(minimumEntries);
  private entryCount = 0;
  /**
   * What the next batch's buffer starts at: the size the last one took, with a quarter to spare, so a
   * steady stream writes each batch into one buffer, and a quiet one goes back to small buffers.
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
    const bounded = this.queuedBytes - this.queuedForcedBytes + this.inFlightBytes - this.inFlightForcedBytes;
    // Its length counts UTF-16 code units: at most the UTF-8 bytes, and the same for ASCII.
    if (this.overflowing || bounded + lengthOf(entry) > this.limitBytes) {
      this.overflowing = true;
      return false;
    }
    this.write(entry);
    this.queuedChanges++;
    return true;
  }

  /** Queues a mark's JSON. */
  appendMark(text: string): void {
    this.write(text);
  }

  /** Bytes queued and not yet taken. */
  get pendingBytes(): number {
    return this.queuedBytes;
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
    const batch = this.batch;
    if (batch === undefined) return undefined;
    batch[this.used] = closeBracket;
    const text = batch.subarray(0, this.used + 1);
    const entryEnds = this.entryEnds.slice(0, this.entryCount);
    this.inFlight.set(sequence, [this.queuedBytes, this.queuedForcedBytes, this.queuedChanges]);
    this.inFlightBytes += this.queuedBytes;
    this.inFlightForcedBytes += this.queuedForcedBytes;
    this.inFlightChanges += this.queuedChanges;
    this.nextBatchBytes = Math.max(minimumBatchBytes, Math.ceil(text.length * 1.25));
    this.batch = undefined;
    this.used = 0;
    this.entryCount = 0;
    this.queuedBytes = 0;
    this.queuedForcedBytes = 0;
    this.queuedChanges = 0;
    return { entries: text, entryEnds };
  }

  /** Batch `sequence` is written: its bytes leave the bound. */
  written(sequence: number): void {
    const batch = this.inFlight.get(sequence);
    if (!batch) return;
    this.inFlight.delete(sequence);
    this.inFlightBytes -= batch[0];
    this.inFlightForcedBytes -= batch[1];
    this.inFlightChanges -= batch[2];
  }

  /** Writes `entry` into the batch; returns its UTF-8 bytes. */
  private write(entry: EntryText): number {
    // Room for the separator, the entry at its longest in UTF-8, and take()'s closing bracket.
    const batch = this.room(1 + lengthOf(entry) * maximumBytesPerCodeUnit + 1);
    if (this.used > 1) batch[this.used++] = comma;
    let bytes = 0;
    if (typeof entry === 'string') bytes = batch.write(entry, this.used);
    else for (const piece of entry) bytes += batch.write(piece, this.used + bytes);
    this.used += bytes;
    this.queuedBytes += bytes;
    if (this.entryCount === this.entryEnds.length) {
      const grown = new Uint32Array(this.entryEnds.length * 2);
      grown.set(this.entryEnds);
      this.entryEnds = grown;
    }
    this.entryEnds[this.entryCount++] = this.used;
    return bytes;
  }

  /** The batch, with at least `bytes` free after what is written (grown by doubling, copied once). */
  private room(bytes: number): Buffer {
    // A new batch starts with its opening bracket.
    const needed = Math.max(this.used, 1) + bytes;
    if (this.batch !== undefined && needed <= this.batch.length) return this.batch;
    let size = this.batch?.length ?? this.nextBatchBytes;
    while (size < needed) size *= 2;
    // Its own ArrayBuffer (never the shared pool's), so that it can be transferred whole.
    const grown = Buffer.allocUnsafeSlow(size);
    if (this.batch === undefined) {
      grown[0] = openBracket;
      this.used = 1;
    } else this.batch.copy(grown, 0, 0, this.used);
    this.batch = grown;
    return grown;
  }
}
