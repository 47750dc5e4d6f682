// The Recorder's end of its recording process: opens the recording there, sends what the capture
// queue holds as numbered batches, follows the replies (what is written, the process's own time),
// resolves flushed() callers once their batch is on disk, and closes the recording. A process that
// dies ends nothing else: every later send is a no-op and every waiter is released.
import type { CaptureQueue } from './capture-queue';
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

export class RecordingChannel {
  /** flushed() callers, each waiting for a batch sequence to be written. */
  private waiting: { readonly sequence: number; readonly resolve: () => void }[] = [];
  private sequence = 0;
  private writtenSequence = 0;
  private written: WrittenSoFar = { changesWritten: 0, bytes: 0, writeMs: 0, writeCpuMs: 0 };
  private deadWith: Error | undefined;

  constructor(
    readonly process: RecordingProcess,
    private readonly queue: CaptureQueue,
    private readonly events: ChannelEvents,
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
    this.process.post({ type: 'batch', sequence, ...batch, now });
    return sequence;
  }

  /** Resolves once every batch sent so far is written (or the process died). */
  flushed(): Promise<void> {
    const target = this.sequence;
    if (this.writtenSequence >= target || this.deadWith) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push({ sequence: target, resolve }));
  }

  /** Closes the recording at `now` (checkpointing its WAL into the file) and ends the process. */
  async close(now: number): Promise<void> {
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

  private replied(reply: RecordingReply): void {
    if (reply.type === 'written') {
      this.queue.written(reply.sequence);
      const { changesWritten, bytes, writeMs, writeCpuMs } = reply;
      this.written = { changesWritten, bytes, writeMs, writeCpuMs };
      this.writtenSequence = reply.sequence;
      this.releaseWaiting(reply.sequence);
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
