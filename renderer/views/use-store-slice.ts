// A slice of a zustand store, as zustand's useStore selects it, but without a passive effect at every
// render. useStore hands React a getSnapshot made anew whenever its selector is (every render, for the
// inline selectors the views pass), and React's useSyncExternalStore answers a new getSnapshot with a
// passive effect that stores it. React 19 flushes a synchronous render's passive effects at the end of
// its commit, but the commit has already posted a task to its scheduler (a MessageChannel message) to
// flush them: that task then finds nothing to do, yet it is one more script task, one more the load
// can stretch into a long-task entry (issue 15, session 19). A slice whose value changed still asks
// for the effect (React stores the new value there), so a commit that follows a revision keeps its
// task; a view rendered again by its parent, or by another slice, no longer does.
//
// Here getSnapshot stays the same function for the store's life and reads the latest selector, which
// each render sets before React calls it: the store's changes are checked with the selector of the last
// render, as zustand's own (useCallback on the selector) does once its effect has run.
import { useCallback, useRef, useSyncExternalStore } from 'react';
import type { StoreApi } from 'zustand';

/** `selector`'s slice of `store`; the selector should return a primitive or a stable reference. */
export function useStoreSlice<State, Slice>(
  store: Pick<StoreApi<State>, 'getState' | 'subscribe'>,
  selector: (state: State) => Slice,
): Slice {
  const latest = useRef(selector);
  latest.current = selector;
  const getSnapshot = useCallback(() => latest.current(store.getState()), [store]);
  return useSyncExternalStore(store.subscribe, getSnapshot, getSnapshot);
}
