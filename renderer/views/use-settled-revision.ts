// The revision of a subscription the window queries at: the mirror's, followed no more often than a
// gap the caller sets and, for live rows, not while the user scrolls (see InputQuiet).
import { useEffect, useRef, useState } from 'react';
import type { MirrorStateStore } from '../store/mirror-state';
import { watchWindowInput } from '../ui-state/input-quiet';

/**
 * The revision of `subscriptionId` to query at: follows the mirror's revision, but no sooner than
 * `minimumGapMs` after the last query, and, when `yieldsToInput`, not while the user scrolls (see
 * InputQuiet: a live re-query landing between two wheel notches was a skipped frame; at most
 * maxHoldMs). The mirror's state is watched outside React, so the revisions it skips render nothing:
 * under churn the caller (the whole window) renders at the query's pace, while the table follows
 * every revision on its own (ResourceView).
 */
export function useSettledRevision(
  store: MirrorStateStore,
  subscriptionId: string | undefined,
  minimumGapMs: number,
  yieldsToInput: boolean,
): number {
  const read = (): number => (subscriptionId ? (store.getState().revisions[subscriptionId] ?? 0) : 0);
  const [settled, setSettled] = useState(read);
  const lastRun = useRef(0);
  const gap = useRef(minimumGapMs);
  gap.current = minimumGapMs;
  const yields = useRef(yieldsToInput);
  yields.current = yieldsToInput;
  useEffect(() => {
    const input = watchWindowInput();
    let timer: ReturnType<typeof setTimeout> | undefined;
    /** When the pending re-query's gap ran out (undefined: none pending). */
    let dueAt: number | undefined;
    const settle = (): void => {
      timer = undefined;
      const now = performance.now();
      dueAt ??= now;
      const hold = yields.current ? input.delayFor(dueAt) : 0;
      if (hold > 0) {
        timer = setTimeout(settle, hold);
        return;
      }
      dueAt = undefined;
      lastRun.current = now;
      // The same revision as the state holds renders nothing (React bails out).
      setSettled(read());
    };
    const changed = (): void => {
      if (timer !== undefined) return;
      const wait = lastRun.current + gap.current - performance.now();
      if (wait <= 0) settle();
      else timer = setTimeout(settle, wait);
    };
    // A change between the render and this effect (another subscription's revision, too) is not missed.
    changed();
    const unsubscribe = store.subscribe((state, previous) => {
      if (
        subscriptionId !== undefined &&
        state.revisions[subscriptionId] !== previous.revisions[subscriptionId]
      )
        changed();
    });
    return () => {
      unsubscribe();
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [store, subscriptionId]);
  return settled;
}
