// Binds a RevisionSettler to the mirror state: it hears of every change of one subscription's revision
// and of its sync state, and its list counts as whole only once the mirror holds a snapshot and the
// feed no longer lists. A page opened while main lists a kind is sent a snapshot of the rows listed so
// far (often none) and then the rest of the list as live batches, so the mirror's snapshot ends long
// before its list does: the feed's phase ("listing" until main has sent every listed row, then
// "synced") is what tells the listing's end, and it may arrive in a frame of its own, after the last
// batch, with no revision to go with it. Plain TypeScript (useKindRows binds it to React, through
// followSettledRequeries).
import type { MirrorState, MirrorStateStore } from '../store/mirror-state';
import { RevisionSettler } from './revision-settler';
import type { RevisionSettlerOptions } from './revision-settler';

/** True while `subscriptionId`'s feed is listing (its first list, or a relist, streams in). */
export function feedLists(state: MirrorState, subscriptionId: string | undefined): boolean {
  return subscriptionId !== undefined && state.syncStates[subscriptionId]?.phase === 'listing';
}

export type FollowOptions = Omit<RevisionSettlerOptions, 'revision' | 'hasSnapshot'> & {
  /** True once the mirror's first snapshot has ended. */
  readonly hasSnapshot: () => boolean;
};

/**
 * Settles `subscriptionId`'s revision of `store` as `options` pace it (see RevisionSettler), the end of
 * the feed's listing at once; returns the function that stops following.
 */
export function followSettledRevision(
  store: MirrorStateStore,
  subscriptionId: string | undefined,
  options: FollowOptions,
): () => void {
  const revision = (): number => (subscriptionId ? (store.getState().revisions[subscriptionId] ?? 0) : 0);
  const settler = new RevisionSettler({
    ...options,
    revision,
    hasSnapshot: () => options.hasSnapshot() && !feedLists(store.getState(), subscriptionId),
  });
  // A change between the render and this call (another subscription's revision, too) is not missed.
  settler.changed();
  const unsubscribe = store.subscribe((state, previous) => {
    if (subscriptionId === undefined) return;
    if (
      state.revisions[subscriptionId] !== previous.revisions[subscriptionId] ||
      state.syncStates[subscriptionId] !== previous.syncStates[subscriptionId]
    )
      settler.changed();
  });
  return () => {
    unsubscribe();
    settler.dispose();
  };
}
