// The revision of a subscription the window queries at: the mirror's, followed no more often than a
// gap the caller sets and, for live rows, not while the user scrolls (see InputQuiet and
// RevisionSettler, which holds the timing).
import { useEffect, useRef, useState } from 'react';
import type { MirrorStateStore } from '../store/mirror-state';
import { watchWindowInput } from '../ui-state/input-quiet';
import { followSettledRevision } from './settled-revision';

/**
 * The revision of `subscriptionId` to query at: follows the mirror's revision, but no sooner than
 * `minimumGapMs` after the last query, and, when `yieldsToInput`, not while the user scrolls (see
 * InputQuiet: a live re-query landing between two wheel notches was a skipped frame; at most
 * maxHoldMs). The revision that ends the mirror's first list (its snapshot ended and its feed no
 * longer lists: see followSettledRevision) is followed at once. The mirror's state is watched outside
 * React, so the revisions it skips render nothing: under churn the caller (the whole window) renders
 * at the query's pace, while the table follows every revision on its own (ResourceView).
 */
export function useSettledRevision(
  store: MirrorStateStore,
  subscriptionId: string | undefined,
  minimumGapMs: number,
  yieldsToInput: boolean,
  hasSnapshot: () => boolean = () => true,
): number {
  const read = (): number => (subscriptionId ? (store.getState().revisions[subscriptionId] ?? 0) : 0);
  const [settled, setSettled] = useState(read);
  const gap = useRef(minimumGapMs);
  gap.current = minimumGapMs;
  const yields = useRef(yieldsToInput);
  yields.current = yieldsToInput;
  const snapshotEnded = useRef(hasSnapshot);
  snapshotEnded.current = hasSnapshot;
  useEffect(() => {
    const input = watchWindowInput();
    return followSettledRevision(store, subscriptionId, {
      settle: setSettled,
      gapMs: () => gap.current,
      holdFor: (dueAt) => (yields.current ? input.delayFor(dueAt) : 0),
      hasSnapshot: () => snapshotEnded.current(),
      now: () => performance.now(),
      setTimer: (callback, delayMs) => setTimeout(callback, delayMs),
      clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
    });
  }, [store, subscriptionId]);
  return settled;
}
