import type { Clock, Timer } from './clock';

/** The wall clock and Node's timers. */
export class RealClock implements Clock {
  now(): number {
    return Date.now();
  }

  setTimeout(callback: () => void, delayMs: number): Timer {
    let pending = true;
    const handle = setTimeout(() => {
      pending = false;
      callback();
    }, delayMs);
    return {
      stop: () => {
        clearTimeout(handle);
        const wasPending = pending;
        pending = false;
        return wasPending;
      },
    };
  }

  sleep(delayMs: number, signal?: AbortSignal): Promise<void> {
    return sleepOn(this, delayMs, signal);
  }

  /** Time since the thread started less the time its loop waited for I/O (libuv's idle time). */
  loopBusyMs(): number {
    return performance.now() - performance.nodeTiming.idleTime;
  }
}

/** A sleep built on any Clock's setTimeout, rejecting with the signal's reason on abort. */
export function sleepOn(clock: Clock, delayMs: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      timer.stop();
      reject(signal?.reason);
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, delayMs);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export const realClock: Clock = new RealClock();
