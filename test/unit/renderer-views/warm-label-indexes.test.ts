import { describe, expect, it } from 'vitest';
import { readWhenIdle } from '../../../renderer/views/use-warm-label-indexes';
import type { IdleTimers } from '../../../renderer/views/use-warm-label-indexes';

/** Timers and idle callbacks run by hand. */
function manualTimers() {
  let time = 0;
  let timers: { at: number; callback: () => void }[] = [];
  let idle: (() => void)[] = [];
  const driver: IdleTimers = {
    setTimer: (callback, delayMs) => {
      const timer = { at: time + delayMs, callback };
      timers.push(timer);
      return timer;
    },
    clearTimer: (timer) => (timers = timers.filter((entry) => entry !== timer)),
    requestIdle: (callback) => {
      idle.push(callback);
      return callback;
    },
    cancelIdle: (handle) => (idle = idle.filter((entry) => entry !== handle)),
  };
  const advance = (ms: number): void => {
    time += ms;
    for (const timer of timers.filter((entry) => entry.at <= time)) {
      timers = timers.filter((entry) => entry !== timer);
      timer.callback();
    }
  };
  const runIdle = (): void => {
    const callbacks = idle;
    idle = [];
    for (const callback of callbacks) callback();
  };
  return { driver, advance, runIdle };
}

describe('readWhenIdle', () => {
  it('waits a period before the first read, so the frame that ends a listing is painted first', () => {
    const { driver, advance, runIdle } = manualTimers();
    let reads = 0;
    readWhenIdle(() => reads++, driver, 1_000);
    runIdle();
    expect(reads).toBe(0);
    advance(999);
    runIdle();
    expect(reads).toBe(0);
    advance(1);
    // Due, but only in an idle moment.
    expect(reads).toBe(0);
    runIdle();
    expect(reads).toBe(1);
    advance(1_000);
    runIdle();
    expect(reads).toBe(2);
  });

  it('reads no more once stopped, an idle callback already asked for included', () => {
    const { driver, advance, runIdle } = manualTimers();
    let reads = 0;
    const stop = readWhenIdle(() => reads++, driver, 1_000);
    advance(1_000);
    stop();
    runIdle();
    advance(5_000);
    runIdle();
    expect(reads).toBe(0);
  });
});
