// Every timer, sleep and "now" in main/cache goes through a Clock, so that tests drive time by hand
// (client-go's k8s.io/utils/clock and its testing.FakeClock).

export interface Timer {
  /** Cancels the timer; true if it had not fired yet. */
  stop(): boolean;
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `callback` once after `delayMs`. */
  setTimeout(callback: () => void, delayMs: number): Timer;
  /** Resolves after `delayMs`, or rejects with the signal's reason once it aborts. */
  sleep(delayMs: number, signal?: AbortSignal): Promise<void>;
  /**
   * Milliseconds this thread's event loop has spent working (not waiting for I/O), counted from any
   * fixed point: only differences mean something. A clock that cannot tell leaves it out; then a
   * TurnBudget cannot count the work an iteration did before its first turn (see LoopTurn).
   */
  loopBusyMs?(): number;
}
