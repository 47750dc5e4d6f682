// The one sync state a union of per-namespace informers shows: the state of the slowest member that
// can be served. A member refused in its namespace (a typed name the user cannot read) does not hold
// back the others; the union is an error only when every member is, or when there is none.
import type { SyncError, SyncState } from '../../shared/protocol/sync-state';
import { isForbiddenState } from './feed-view';

/**
 * Members listing: listing, with their counts summed (a total only when every listing member knows
 * its own). Else the earliest failing member's reconnecting or stale state. Else synced.
 * `denied` is the cluster scope's refusal, shown when there is no member to serve; `tried` are the
 * namespaces the rules refused as well, so the message says where else the user could look.
 */
export function mergeSyncStates(
  members: readonly SyncState[],
  denied: SyncError,
  tried: readonly string[] = [],
): SyncState {
  if (members.length === 0) {
    const where = tried.length > 0 ? `, nor in ${tried.join(', ')}` : '';
    return {
      phase: 'error',
      error: {
        ...denied,
        message: `${denied.message}${where}; add namespaces you can read in the namespace picker`,
      },
    };
  }
  const served = members.filter((state) => state.phase !== 'error');
  if (served.length === 0) {
    const forbidden = members.every(isForbiddenState);
    return forbidden ? { phase: 'error', error: denied } : members[0]!;
  }
  const listing = served.filter((state) => state.phase === 'listing');
  if (listing.length > 0) {
    const listed = listing.reduce((sum, state) => sum + (state.listed ?? 0), 0);
    const totals = listing.map((state) => state.total);
    if (totals.some((total) => total === undefined)) return { phase: 'listing', listed };
    return { phase: 'listing', listed, total: totals.reduce((sum, total) => sum! + total!, 0) };
  }
  const failing = served
    .filter((state) => state.phase === 'reconnecting' || state.phase === 'stale')
    .sort((left, right) => (left.since ?? 0) - (right.since ?? 0));
  if (failing.length > 0) return failing.find((state) => state.phase === 'stale') ?? failing[0]!;
  const reconnected = served.find((state) => state.reconnected)?.reconnected;
  return reconnected ? { phase: 'synced', reconnected } : { phase: 'synced' };
}
