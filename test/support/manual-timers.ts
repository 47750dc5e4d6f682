// A hand-driven clock with its timers, for logic that takes now/setTimer/clearTimer as options: a test
// moves time with advance(), which runs each timer that comes due on the way, in time order.
export interface ManualTimers {
  now(): number;
  setTimer(callback: () => void, delayMs: number): unknown;
  clearTimer(timer: unknown): void;
  /** Moves the clock on by `ms`, running the timers that come due on the way. */
  advance(ms: number): void;
}

export function manualTimers(start = 1_000): ManualTimers {
  let time = start;
  let timers: { at: number; callback: () => void }[] = [];
  return {
    now: () => time,
    setTimer(callback, delayMs) {
      const timer = { at: time + delayMs, callback };
      timers.push(timer);
      return timer;
    },
    clearTimer(timer) {
      timers = timers.filter((entry) => entry !== timer);
    },
    advance(ms) {
      const end = time + ms;
      for (;;) {
        const due = timers.filter((timer) => timer.at <= end).sort((left, right) => left.at - right.at)[0];
        if (due === undefined) break;
        timers = timers.filter((timer) => timer !== due);
        time = due.at;
        due.callback();
      }
      time = end;
    },
  };
}
