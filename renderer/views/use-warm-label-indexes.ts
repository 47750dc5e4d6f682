// Keeps the shown kind's label indexes current while the page is idle. They are built when first read
// and caught up from the change log on each later read; the filter bar's first keystroke read them
// all (completion, free text) and paid the build: one keystroke of 390-435 ms in the ui bench at
// 50,000 and 150,000 pods, the first of each session and the first after the log had moved past them
// (an idle minute under churn). Read in idle time about once a second, the build happens once after
// the rows arrive, and each later read replays a second of changes. Live rows only: a replay's rows
// (a playback at 10x) change too fast for reading ahead to be worth its work. The free text's key
// search (packed lower-cased keys) is kept current the same way: built once, its first build was a
// 20-30 ms share of a keystroke at 150,000 pods.
//
// The first read waits a period too: the list has just ended then (the feed's "synced"), and the page's
// first idle moment after it came before the frame that paints "synced" and the whole table: the
// build (110 ms of CPU at 50,000 pods) delayed that frame by its length.
import { useEffect } from 'react';
import type { SubscriptionMirror } from '../store/subscription-mirror';
import { warmTextSearch } from '../store/text-match';
import { IdleReads } from './idle-reads';
import type { IdleTimers } from './idle-reads';

const readEveryMs = 1000;

/** The window's timers and idle callbacks. */
export const windowTimers: IdleTimers = {
  setTimer: (callback, delayMs) => setTimeout(callback, delayMs),
  clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
  ...(typeof requestIdleCallback === 'function'
    ? {
        requestIdle: (callback: () => void) => requestIdleCallback(callback),
        cancelIdle: (handle: unknown) => cancelIdleCallback(handle as number),
      }
    : {}),
};

/** The window's idle reads, about once a second, one timer and one idle callback for all. */
export const windowIdleReads = new IdleReads(windowTimers, readEveryMs);

export function useWarmLabelIndexes(mirror: SubscriptionMirror | undefined, hasSnapshot: boolean): void {
  useEffect(() => {
    if (mirror === undefined || !hasSnapshot) return;
    return windowIdleReads.add(() => {
      void mirror.indexes.byLabel;
      warmTextSearch(mirror);
    });
  }, [mirror, hasSnapshot]);
}
