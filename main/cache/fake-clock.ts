// k8s.io/utils/clock/testing.FakeClock: time moves only when a test says so, so timing behaviour
// (backoff, resync, watch timeouts) is tested without sleeps.
import type { Clock, Timer } from './clock';
import { sleepOn } from './real-clock';

interface Waiter {
  readonly id: number;
  readonly due: number;
  readonly callback: () => void;
  active: boolean;
}

export class FakeClock implements Clock {
  private time: number;
  private nextId = 0;
  private waiters: Waiter[] = [];
  /** See loopBusyMs: only work() moves it, so a test that only steps time has an idle loop. */
  private busy = 0;

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, delayMs: number): Timer {
    const waiter: Waiter = {
      id: this.nextId++,
      due: this.time + Math.max(0, delayMs),
      callback,
      active: true,
    };
    this.waiters.push(waiter);
    return {
      stop: () => {
        const wasActive = waiter.active;
        waiter.active = false;
        this.waiters = this.waiters.filter((other) => other !== waiter);
        return wasActive;
      },
    };
  }

  sleep(delayMs: number, signal?: AbortSignal): Promise<void> {
    return sleepOn(this, delayMs, signal);
  }

  /** Timers not yet fired or stopped (client-go's HasWaiters). */
  waiterCount(): number {
    return this.waiters.length;
  }

  hasWaiters(): boolean {
    return this.waiters.length > 0;
  }

  /** The delays, from now, of every pending timer, soonest first. */
  pendingDelays(): number[] {
    return this.waiters.map((waiter) => waiter.due - this.time).sort((a, b) => a - b);
  }

  /**
   * Moves time forward by `deltaMs`, firing due timers in order of due time (then creation). Timers
   * set by callbacks fire too when they fall due within the step.
   */
  step(deltaMs: number): void {
    this.setTime(this.time + deltaMs);
  }

  /** The loop works for `deltaMs` outside any TurnBudget (a collection, an I/O callback): time steps too. */
  work(deltaMs: number): void {
    this.busy += deltaMs;
    this.step(deltaMs);
  }

  loopBusyMs(): number {
    return this.busy;
  }

  setTime(target: number): void {
    while (this.fireNext(target));
    this.time = Math.max(this.time, target);
  }

  /**
   * Steps time and lets promise continuations run between timers, so async code that awaits a
   * sleep and then sets a new timer sees each due time in turn.
   */
  async stepAsync(deltaMs: number): Promise<void> {
    const target = this.time + deltaMs;
    await flushMicrotasks();
    while (this.fireNext(target)) await flushMicrotasks();
    this.time = Math.max(this.time, target);
    await flushMicrotasks();
  }

  /** Fires the earliest timer due by `target`, moving time to its due time; false if none is due. */
  private fireNext(target: number): boolean {
    const next = this.nextDue(target);
    if (next === undefined) return false;
    this.time = Math.max(this.time, next.due);
    next.active = false;
    this.waiters = this.waiters.filter((other) => other !== next);
    next.callback();
    return true;
  }

  private nextDue(target: number): Waiter | undefined {
    let best: Waiter | undefined;
    for (const waiter of this.waiters) {
      if (waiter.due > target) continue;
      if (!best || waiter.due < best.due || (waiter.due === best.due && waiter.id < best.id)) best = waiter;
    }
    return best;
  }
}

/** Lets every pending promise continuation run (a macrotask turn drains the microtask queue). */
export function flushMicrotasks(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
