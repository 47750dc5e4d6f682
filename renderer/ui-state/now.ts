// One ticking clock for every relative age on screen. A single interval notifies subscribers, so a
// table of 40 visible rows re-renders its age cells once a second without 40 timers, and nothing
// ticks while no age is mounted.
import { useSyncExternalStore } from 'react';

const tickMs = 1000;
const listeners = new Set<() => void>();
let now = Date.now();
let interval: ReturnType<typeof setInterval> | undefined;
/** The travel moment while the view shows the past: ages are then as they were at that moment. */
let pinned: number | undefined;

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

/** Milliseconds since the epoch (or the pinned moment), re-rendering the caller once a second. */
export function useNow(): number {
  return useSyncExternalStore(subscribe, () => pinned ?? now);
}

/** Shows every age as of `moment` (time travel), or as of the present again when undefined. */
export function pinNow(moment: number | undefined): void {
  if (pinned === moment) return;
  pinned = moment;
  for (const notify of listeners) notify();
}
