// The Recorder's end of its recording process: opens the recording there, sends what the capture
// queue holds as numbered batches, follows the replies (what is written, the process's own time),
// resolves flushed() callers once their batch is on disk, and closes the recording. A process that
// dies ends nothing else: every later send is a no-op and every waiter is released.
//
// At most postWindowBytes of batches are posted and unwritten at a time (one batch at least); the
// others wait here, taken from the queue, numbered and stamped when they were sent, and go as the
// process writes the ones before. The process then never has more than a few batches of work ahead
// of it: posted all at once, a big cluster's first list (375 MB of pod JSON at 150,000 pods, written
// at ~100 us a pod) sat in its message queue for a minute, where nothing could hold it back.
//
// While held (see hold), nothing more is posted: the recording process finishes the batches it has
// and then leaves the CPU to work the user waits for (a travel's moment being rebuilt, on a machine
// of two cores). The queue counts waiting batches as in flight, so its bound and overflow gaps work
// as before; past holdLimitBytes sent while held, the hold gives up and batches go as they would
// have. A flush or a close posts them first.
import type { CaptureQueue, TakenBatch } from './capture-queue';
import { RecordingError } from './recording-error';
import type { RecordingProcess, RecordingProcessFactory } from './recording-process';
import type { RecordingReply, RecordingSettings } from './recording-protocol';

/** A recording process with its recording open. */
export interface OpenedRecording {
  readonly process: RecordingProcess;
  /** When the file was last written (undefined for a new file). */
  readonly lastWritten: number | undefined;
}

/**
 * Starts a recording process and opens (or creates) the recording there. Rejects with a
 * RecordingError when the file cannot be recorded into (not a recording, a newer format, another
 * context, unreadable); the process is ended then.
 */
export async function openRecordingProcess(
  factory: RecordingProcessFactory,
  settings: RecordingSettings,
  now: number,
): Promise<OpenedRecording> {
  const process = factory();
  const opened = new Promise<RecordingReply>((resolve) => {
    process.onReply((reply) => {
      if (reply.type === 'opened' || reply.type === 'open-failed') resolve(reply);
    });
    process.onExit((error) =>
      resolve({ type: 'open-failed', file: settings.file, problem: undefined, message: error.message }),
    );
  });
  process.post({ type: 'open', settings, now });
  const reply = await opened;
  if (reply.type !== 'opened') {
    await process.terminate();
    const failed = reply as Extract<RecordingReply, { type: 'open-failed' }>;
    throw new RecordingError(
      failed.file,
      failed.problem ?? { kind: 'unreadable', where: 'open', message: failed.message },
    );
  }
  return { process, lastWritten: reply.lastWritten };
}

/** What the channel tells its Recorder. */
export interface ChannelEvents {
  /** A batch is written: the queue has room again (see CaptureQueue.canRecover). */
  written(): void;
  /** The process ended without being asked to; nothing more will be written. */
  died(error: Error): void;
  /** The process failed at something (a batch, retention) and goes on. */
  failed(error: Error, context: string): void;
}

/** What the recording process has written in this session, as its last reply told. */
export interface WrittenSoFar {
  readonly changesWritten: number;
  readonly bytes: number;
  readonly writeMs: number;
  readonly writeCpuMs: number | undefined;
}

/**
 * Bytes sent while a hold is on past which it gives up (see RecordingChannel.hold): half the Recorder's
 * default queue bound (128 MiB), which counts held batches as in flight, so that holding alone never
 * drops a change into an overflow gap. At 2,000 churn actions a second (~14,000 changes, ~35 MB/s
 * of JSON) a hold lasts about 2 s before it gives up; a travel at 50,000 pods rebuilds in about 1.
 */
export const defaultHoldLimitBytes = 64 * 1024 * 1024;

/**
 * Bytes of batches posted ahead of the process's writes. A megabyte of pod JSON is about 40 ms of the
 * process's work: 8 MiB keep it busy through a main thread's turn of 300 ms (the longest seen while a
 * 150,000-pod list decodes), and a hold takes effect within that.
 */
export const defaultPostWindowBytes = 8 * 1024 * 1024;

/** A batch taken from the queue and not posted yet (the window is full, or a hold is on). */
interface HeldBatch {
  readonly sequence: number;
  readonly batch: TakenBatch;
  readonly now: number;
}

export class RecordingChannel {
  /** flushed() callers, each waiting for a batch sequence to be written. */
  private waiting: { readonly sequence: number; readonly resolve: () => void }[] = [];
  private sequence = 0;
  private writtenSequence = 0;
  private written: WrittenSoFar = { changesWritten: 0, bytes: 0, writeMs: 0, writeCpuMs: 0 };
  private deadWith: Error | undefined;
  /** Holds not yet released (see hold). */
  private holds = 0;
  /**
   * Set once the bytes sent while held passed the limit: batches go as they come until every hold is
   * released.
   */
  private holdGaveUp = false;
  /** Batches sent and not posted, in order. */
  private held: HeldBatch[] = [];
  /** Bytes sent since the first of the holds on began: past holdLimitBytes, the hold gives up. */
  private bytesSentWhileHeld = 0;
  /** Bytes of the batches posted and not yet written (see postWindowBytes). */
  private postedBytes = 0;
  /** Holds are ignored until this batch is written: a flushed() caller is owed what was held. */
  private flushThrough = 0;
  /**
   * The time of the last batch written (its last entry's: every change stamped up to it is on disk);
   * undefined until one is. With batches sent and unwritten, the recording's end trails the clock
   * by the time since then (see unwrittenSince).
   */
  private writtenThrough: number | undefined;
  /**
   * Per batch sent and not yet written, oldest first: its sequence, time and bytes. Those posted are
   * its head (batches are posted in order, and only posted ones are written).
   */
  private unwritten: { readonly sequence: number; readonly now: number; readonly bytes: number }[] = [];

  constructor(
    readonly process: RecordingProcess,
    private readonly queue: CaptureQueue,
    private readonly events: ChannelEvents,
    private readonly holdLimitBytes = defaultHoldLimitBytes,
    private readonly postWindowBytes = defaultPostWindowBytes,
  ) {
    process.onReply((reply) => this.replied(reply));
    process.onExit((error) => {
      this.deadWith = error;
      events.died(error);
      this.releaseWaiting(Infinity);
    });
  }

  /** Set once the process died: nothing sent after that is written. */
  get dead(): Error | undefined {
    return this.deadWith;
  }

  get writtenSoFar(): WrittenSoFar {
    return this.written;
  }

  /**
   * Sends what is queued as the next batch, at `now` (its last entry's time); returns its sequence
   * (undefined when nothing was queued or the process is dead).
   */
  send(now: number): number | undefined {
    if (this.deadWith) return undefined;
    const sequence = this.sequence + 1;
    const batch = this.queue.take(sequence);
    if (batch === undefined) return undefined;
    this.sequence = sequence;
    this.unwritten.push({ sequence, now, bytes: batch.entries.byteLength });
    this.held.push({ sequence, batch, now });
    if (this.holds > 0) this.bytesSentWhileHeld += batch.entries.byteLength;
    // Counted from the hold's start: batches already waiting for the window wait with or without it.
    if (this.holding && this.bytesSentWhileHeld > this.holdLimitBytes) this.holdGaveUp = true;
    this.postHeld();
    return sequence;
  }

  /** A hold is on, and neither gave up nor is overridden by a flush. */
  private get holding(): boolean {
    return this.holds > 0 && !this.holdGaveUp && this.writtenSequence >= this.flushThrough;
  }

  /**
   * Posts no more batches to the recording process until the returned release is called (once; holds
   * nest, and the last release posts what waits), or until the bytes sent since it began pass
   * holdLimitBytes (what waited for the window before it does not count). The process still writes
   * the batches posted before (at most postWindowBytes).
   */
  hold(): () => void {
    if (this.holds++ === 0) this.bytesSentWhileHeld = 0;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holds > 0) return;
      this.holdGaveUp = false;
      this.postHeld();
    };
  }

  /**
   * Since when changes captured are not on disk, when a batch sent is still unwritten: the last
   * written batch's time (the first unwritten change is later), or the first unwritten batch's when
   * none was written yet. Undefined when every batch sent is written: the recording is as current as
   * its flush interval, however long ago its last change was (a quiet cluster).
   */
  unwrittenSince(): number | undefined {
    const oldest = this.unwritten[0];
    if (oldest === undefined || this.deadWith) return undefined;
    return this.writtenThrough ?? oldest.now;
  }

  /** Batches sent and not yet posted (a hold, or the window full). */
  get heldBatches(): number {
    return this.held.length;
  }

  /** Resolves once every batch sent so far is written (or the process died). */
  flushed(): Promise<void> {
    // A caller waiting for the disk is owed what was held: holds wait until it is written.
    const target = this.sequence;
    this.flushThrough = Math.max(this.flushThrough, target);
    this.postHeld();
    if (this.writtenSequence >= target || this.deadWith) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push({ sequence: target, resolve }));
  }

  /** Closes the recording at `now` (checkpointing its WAL into the file) and ends the process. */
  async close(now: number): Promise<void> {
    // Everything, whatever the window: the close comes after the last batch.
    this.postHeld(true);
    if (!this.deadWith) {
      const closed = new Promise<void>((resolve) => {
        this.process.onReply((reply) => {
          if (reply.type !== 'closed') return;
          this.written = { ...this.written, bytes: reply.bytes };
          resolve();
        });
        this.process.onExit(() => resolve());
      });
      this.process.post({ type: 'close', now });
      await closed;
    }
    await this.process.terminate();
  }

  /** Whether `next` may be posted now: the window holds it, or nothing is posted (a batch bigger than it). */
  private windowHasRoom(next: HeldBatch): boolean {
    return this.postedBytes === 0 || this.postedBytes + next.batch.entries.byteLength <= this.postWindowBytes;
  }

  /**
   * Posts the batches waiting, in order, while the window has room and no hold is on (all of them
   * when `all`); drops them if the process died: nothing it is sent is written.
   */
  private postHeld(all = false): void {
    if (this.deadWith) {
      this.held = [];
      return;
    }
    while (this.held.length > 0 && (all || (!this.holding && this.windowHasRoom(this.held[0]!)))) {
      const { sequence, batch, now } = this.held.shift()!;
      this.postedBytes += batch.entries.byteLength;
      this.process.post({ type: 'batch', sequence, ...batch, now });
    }
  }

  private replied(reply: RecordingReply): void {
    if (reply.type === 'written') {
      this.queue.written(reply.sequence, reply.entries);
      const { changesWritten, bytes, writeMs, writeCpuMs } = reply;
      this.written = { changesWritten, bytes, writeMs, writeCpuMs };
      this.writtenSequence = reply.sequence;
      // Replies come in sequence order: what is written is the head of the list.
      while (this.unwritten.length > 0 && this.unwritten[0]!.sequence <= reply.sequence) {
        const done = this.unwritten.shift()!;
        this.writtenThrough = done.now;
        this.postedBytes -= done.bytes;
      }
      this.releaseWaiting(reply.sequence);
      this.postHeld();
      this.events.written();
    } else if (reply.type === 'error') {
      this.events.failed(new Error(reply.message), reply.context);
    }
  }

  /** Resolves the flushed() callers waiting for batches up to `sequence`. */
  private releaseWaiting(sequence: number): void {
    const done = this.waiting.filter((waiter) => waiter.sequence <= sequence);
    this.waiting = this.waiting.filter((waiter) => waiter.sequence > sequence);
    for (const waiter of done) waiter.resolve();
  }
}
