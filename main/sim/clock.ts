// The simulator's view of time. main/sim may not import main/cache, so it declares the shape it
// needs; main/cache's RealClock and FakeClock satisfy it structurally, so tests drive the controller
// loop, bookmarks and watch timeouts on a FakeClock without sleeps.

export interface SimTimer {
  /** Cancels the timer; true if it had not fired yet. */
  stop(): boolean;
}

export interface SimClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `callback` once after `delayMs`. */
  setTimeout(callback: () => void, delayMs: number): SimTimer;
}

/** Wall-clock time backed by the Node timers; timers never keep the process alive on their own. */
export const systemClock: SimClock = {
  now: () => Date.now(),
  setTimeout(callback, delayMs) {
    let pending = true;
    const handle = setTimeout(() => {
      pending = false;
      callback();
    }, delayMs);
    handle.unref();
    return {
      stop() {
        clearTimeout(handle);
        const wasPending = pending;
        pending = false;
        return wasPending;
      },
    };
  },
};

let lastSecond = Number.NaN;
let lastText = '';

/** RFC 3339 at second precision, as Kubernetes writes metav1.Time (the last result is reused). */
export function formatTime(epochMs: number): string {
  const second = Math.floor(epochMs / 1000);
  if (second !== lastSecond) {
    lastSecond = second;
    lastText = new Date(second * 1000).toISOString().replace('.000Z', 'Z');
  }
  return lastText;
}
