// What an empty table says, from the sync state of its subscription first: an empty table is "there
// are none" only once a list has answered and the watch is running. Before (a list under way, or one
// that keeps failing: the VPN is down, the cluster was stopped), it says so, with the reason; an empty
// table that claimed "No pods in the selected namespaces" while the API server could not be reached
// told a user with a stale kubeconfig their cluster was empty.
import { reasonOf } from '../../shared/protocol';
import type { SyncState } from '../../shared/protocol';
import { formatCount } from './format';

export interface EmptyTable {
  /** The kind's title, lower case ("pods", "config maps"). */
  readonly title: string;
  /** The subscription's sync state (undefined while none has come, or while the past is shown). */
  readonly sync: SyncState | undefined;
  /** A snapshot of the subscription has been applied (main sends one at once, empty before the list). */
  readonly hasSnapshot: boolean;
  readonly filtered: boolean;
  /** The past moment being rebuilt (it wins: the past is shown, not the live state). */
  readonly pending?: string | undefined;
}

export function emptyTableMessage(table: EmptyTable): string {
  const { title, sync, filtered } = table;
  if (table.pending) return table.pending;
  // The reason alone (the badge's title has the whole message, with the list and request it failed).
  const reason = sync?.error && reasonOf(sync.error);
  switch (sync?.phase) {
    case 'error':
      if (sync.error?.code === 403) return `No access to ${title}: ${sync.error.message}`;
      // The Reflector retries a refused login too, with the connection's credentials as they are then.
      if (sync.error?.code === 401)
        return `Cannot list ${title}: ${reason}. Retrying; a new login written to the kubeconfig is used.`;
      return `Cannot list ${title}: ${reason ?? 'unknown error'}`;
    case 'reconnecting':
    case 'stale':
      return `No ${title} listed: ${reason ?? 'the watch is not running'}. Retrying (see the badge above).`;
    case 'listing': {
      const progress = sync.total ? `: ${formatCount(sync.listed ?? 0)} of ${formatCount(sync.total)}` : '';
      return filtered
        ? `No ${title} match the filter so far (listing${progress})…`
        : `Listing ${title}${progress}…`;
    }
  }
  if (!table.hasSnapshot) return `Listing ${title}…`;
  if (filtered) return `No ${title} match the filter. Press Esc, then clear it with /.`;
  return `No ${title} in the selected namespaces.`;
}
