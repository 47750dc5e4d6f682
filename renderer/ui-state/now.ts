// One ticking clock for every relative age on screen. A single interval notifies subscribers, so a
// table of 40 visible rows re-renders its age cells once a second without 40 timers, and nothing
// ticks while no age is mounted.
import { useSyncExternalStore } from 'react';

const tickMs = 1000;
const listeners = new Set<() => void>();
let now = Date.now();
let interval: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (interval === undefined) {
    now = Date.now();
    interval = setInterval(() => {
      now = Date.now();
      for (const notify of listeners) notify();
    }, tickMs);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && interval !== undefined) {
      clearInterval(interval);
      interval = undefined;
    }
  };
}

/** Milliseconds since the epoch, re-rendering the caller once a second. */
export function useNow(): number {
  return useSyncExternalStore(subscribe, () => now);
}
