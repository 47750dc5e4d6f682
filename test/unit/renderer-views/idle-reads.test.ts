import { describe, expect, it } from 'vitest';
import { IdleReads } from '../../../renderer/views/idle-reads';
import type { IdleTimers } from '../../../renderer/views/idle-reads';

/** Timers and idle callbacks run by hand. */
function manualTimers() {
  let time = 0;
  let timers: { at: number; callback: () => void }[] = [];
  let idle: (() => void)[] = [];
  /** Timers set and idle callbacks asked for so far: each is a task of the page's. */
  const asked = { timers: 0, idle: 0 };
  const driver: IdleTimers = {
    setTimer: (callback, delayMs) => {
      asked.timers++;
      const timer = { at: time + delayMs, callback };
      timers.push(timer);
      return timer;
    },
    clearTimer: (timer) => (timers = timers.filter((entry) => entry !== timer)),
    requestIdle: (callback) => {
      asked.idle++;
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
  return { driver, advance, runIdle, asked };
}

describe('IdleReads', () => {
  it('waits a period before the first read, so the frame that ends a listing is painted first', () => {
    const { driver, advance, runIdle } = manualTimers();
    let reads = 0;
    new IdleReads(driver, 1_000).add(() => reads++);
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
    const stop = new IdleReads(driver, 1_000).add(() => reads++);
    advance(1_000);
    stop();
    runIdle();
    advance(5_000);
    runIdle();
    expect(reads).toBe(0);
  });

  it('reads every reader in one timer and one idle callback a period', () => {
    // The Pods view and three prefetched kinds: four readers once made four timers and four idle
    // callbacks a second, 8 of the page's 21 script-running tasks a second under churn (session 21).
    const { driver, advance, runIdle, asked } = manualTimers();
    const idleReads = new IdleReads(driver, 1_000);
    const reads = [0, 0, 0, 0];
    for (let reader = 0; reader < reads.length; reader++) idleReads.add(() => reads[reader]!++);
    for (let period = 0; period < 3; period++) {
      advance(1_000);
      runIdle();
    }
    // The three asked for once the first's period was under way joined the next.
    expect(reads).toEqual([3, 2, 2, 2]);
    // Three periods run and the fourth's timer set: one timer and one idle callback each.
    expect(asked).toEqual({ timers: 4, idle: 3 });
  });

  it('lets a reader added during a period wait for the next, and keeps the others reading', () => {
    const { driver, advance, runIdle } = manualTimers();
    const idleReads = new IdleReads(driver, 1_000);
    let first = 0;
    let second = 0;
    const stopFirst = idleReads.add(() => first++);
    advance(900);
    idleReads.add(() => second++);
    advance(100);
    runIdle();
    // 100 ms after it was asked for: not yet.
    expect([first, second]).toEqual([1, 0]);
    stopFirst();
    advance(1_000);
    runIdle();
    expect([first, second]).toEqual([1, 1]);
  });

  it('stops its timer and idle callback once the last reader is stopped', () => {
    const { driver, advance, runIdle, asked } = manualTimers();
    const idleReads = new IdleReads(driver, 1_000);
    let reads = 0;
    const stops = [idleReads.add(() => reads++), idleReads.add(() => reads++)];
    advance(1_000);
    for (const stop of stops) stop();
    runIdle();
    advance(5_000);
    runIdle();
    expect(reads).toBe(0);
    expect(asked).toEqual({ timers: 1, idle: 1 });
  });
});
