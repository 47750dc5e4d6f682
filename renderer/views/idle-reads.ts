// Reads the page does in idle time about once a period (the shown kind's label indexes, the prefetched
// kinds' name orders), all in one timer and one idle callback a period. Each reader once had its own
// pair: at 150,000 pods under churn the Pods view and three prefetched kinds made 8 of the page's 21
// script-running tasks a second (session 21), every one a task a loaded machine can stretch past 50 ms.

/** Timers and idle callbacks (the window's; tests drive them by hand). */
export interface IdleTimers {
  setTimer(callback: () => void, delayMs: number): unknown;
  clearTimer(timer: unknown): void;
  /** Runs `callback` when the page is idle; undefined where there is no such callback (it runs now). */
  requestIdle?(callback: () => void): unknown;
  cancelIdle?(handle: unknown): void;
}

interface Reader {
  readonly read: () => void;
  /** The first period whose idle callback may read: one that began after the read was asked for. */
  readonly from: number;
}

/**
 * Runs every read added in an idle moment a period after the last, until it is removed. A read waits at
 * least a period before its first run (one asked for while a period is under way joins the next), so
 * the frame that ends a listing is painted before the first read. A busy page (a playback applying
 * 20,000 changes a second) is not given more work: its first keystroke reads the indexes as before.
 */
export class IdleReads {
  private readonly readers = new Set<Reader>();
  /** Periods begun (timers set); the one under way while a timer or idle callback is pending. */
  private period = 0;
  private timer: unknown;
  private idle: unknown;

  constructor(
    private readonly timers: IdleTimers,
    private readonly everyMs: number,
  ) {}

  /** Reads `read` in idle moments, the first a period from now at least; returns the stop. */
  add(read: () => void): () => void {
    const pending = this.timer !== undefined || this.idle !== undefined;
    if (!pending) this.startPeriod();
    // A period already under way began before this read was asked for: it joins the next.
    const reader = { read, from: pending ? this.period + 1 : this.period };
    this.readers.add(reader);
    return () => {
      this.readers.delete(reader);
      if (this.readers.size > 0) return;
      if (this.timer !== undefined) this.timers.clearTimer(this.timer);
      if (this.idle !== undefined) this.timers.cancelIdle?.(this.idle);
      this.timer = this.idle = undefined;
    };
  }

  private startPeriod(): void {
    this.period++;
    this.timer = this.timers.setTimer(this.whenIdle, this.everyMs);
  }

  private readonly whenIdle = (): void => {
    this.timer = undefined;
    if (this.timers.requestIdle) this.idle = this.timers.requestIdle(this.run);
    else this.run();
  };

  private readonly run = (): void => {
    this.idle = undefined;
    const period = this.period;
    // A read may stop itself or another (its view unmounted): a copy is walked.
    for (const reader of [...this.readers])
      if (reader.from <= period && this.readers.has(reader)) reader.read();
    if (this.readers.size > 0 && this.timer === undefined && this.idle === undefined) this.startPeriod();
  };
}
