// The buffer a CaptureQueue writes its batch into, and the buffers the recording process gave back.
// A batch's buffer is handed over whole (transferred to a worker thread: this thread's copy is then
// detached, unreadable and unwritable), and the process gives it back once it has read the batch
// (its reply that the batch is written carries it, see RecordingReply). Only a buffer given back is
// ever written again: one still in flight, or held by the channel, is not this thread's to touch.
// Reused, a steady flood fills the same few buffers over and over, instead of allocating (and
// faulting in, and accounting to the collector as external memory) a fresh megabyte per batch.
import type { ByteSink } from './json-bytes';

/** Buffers given back and kept for the next batches. */
const maximumSpares = 4;
/** A buffer larger than this (a batch grown by one huge entry) is let go rather than kept. */
const maximumSpareBytes = 8 * 1024 * 1024;

/** Of the size a batch asks for, the share a given-back buffer must have to be taken (see open). */
const spareShare = 0.9;

const noBytes = Buffer.alloc(0);

export class BatchBuffer implements ByteSink {
  /** The batch being written (empty when none is open). */
  bytes: Buffer = noBytes;
  used = 0;
  private spares: Buffer[] = [];

  /** A batch is being written. */
  get isOpen(): boolean {
    return this.bytes !== noBytes;
  }

  /**
   * Starts a batch in a buffer of about `size` bytes and at least `required`. A buffer given back
   * does at nine tenths of `size`: the queue asks for a quarter more than its last batch took, and a
   * steady stream's batches differ by a few KB either way, so asked for in full, a spare sized for
   * an earlier batch was often a few KB short, and the batch took a fresh buffer, whose external
   * memory made main's collector run (a whole cache recorded with four batches in flight: 40-348 ms
   * of pauses per 150,000 pods against 5-12, test/bench/README.md, session 23).
   */
  open(size: number, required = size): void {
    const least = Math.max(required, Math.floor(size * spareShare));
    const spare = this.spares.findIndex((buffer) => buffer.length >= least);
    this.bytes = spare >= 0 ? this.spares.splice(spare, 1)[0] : allocate(size);
    this.used = 0;
  }

  ensure(free: number): void {
    const needed = this.used + free;
    if (needed <= this.bytes.length) return;
    let size = Math.max(this.bytes.length, 1024);
    while (size < needed) size *= 2;
    const grown = allocate(size);
    this.bytes.copy(grown, 0, 0, this.used);
    // The smaller buffer was never handed over: it is this thread's to keep.
    this.recycle(this.bytes);
    this.bytes = grown;
  }

  /** The batch written, handed over: from now it is the caller's (and its process's) alone. */
  take(): Buffer {
    const taken = this.bytes.subarray(0, this.used);
    this.bytes = noBytes;
    this.used = 0;
    return taken;
  }

  /** Ends the batch being written unsent: its buffer is kept for the next. */
  abandon(): void {
    const bytes = this.bytes;
    this.bytes = noBytes;
    this.used = 0;
    this.recycle(bytes);
  }

  /**
   * `returned` (a view of a batch's buffer, given back by the process that read it) may be written
   * again. A detached or foreign view, or one past the spares' bounds, is let go.
   */
  recycle(returned: Uint8Array): void {
    const buffer = returned.buffer;
    if (!(buffer instanceof ArrayBuffer) || buffer.byteLength === 0 || buffer.byteLength > maximumSpareBytes)
      return;
    if (this.spares.length >= maximumSpares) return;
    if (this.spares.some((spare) => spare.buffer === buffer) || this.bytes.buffer === buffer) return;
    this.spares.push(Buffer.from(buffer));
  }

  /** Buffers kept for reuse (a test's view). */
  get spareCount(): number {
    return this.spares.length;
  }
}

/** Its own ArrayBuffer (never the shared pool's), so that it can be transferred whole. */
function allocate(size: number): Buffer {
  return Buffer.allocUnsafeSlow(size);
}
