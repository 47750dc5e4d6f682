// How fresh a subscription's mirror is. The top bar shows it at a glance ("listing 40%", "reconnecting
// in 8 s", "stale since 12:01"), so users never mistake a frozen list for a quiet cluster.

/**
 * - listing: the initial LIST (or a relist) is under way; `listed` of `total` objects so far.
 * - synced: the cache holds the full list and the watch is running; with `noDataSince`, the watch has
 *   delivered nothing (not even a bookmark, which API servers send about once a minute) since then,
 *   so the data may be frozen ("no data for N s").
 * - reconnecting: the watch failed; the reflector retries at `retryAt` (epoch ms).
 * - stale: the data is known to be out of date `since` (epoch ms), for `error`; retries continue.
 * - error: the subscription cannot be served (forbidden, kind not served); no retry until asked.
 */
export type SyncPhase = 'listing' | 'synced' | 'reconnecting' | 'stale' | 'error';

/** Why a subscription is not synced, with the API server's Status code and reason when there was one. */
export interface SyncError {
  code?: number;
  reason?: string;
  message: string;
  /**
   * The reason alone, for the badge's line and the empty table ("cannot reach https://10.0.0.1:6443
   * (connection refused: ...)"): the message without the list and the request it failed; absent when
   * it would be the message. The message, whole, is for the badge's title.
   */
  summary?: string;
}

/** A failure's reason where a line says it: its summary where main gave one, else its message. */
export function reasonOf(error: SyncError): string {
  return error.summary ?? error.message;
}

/** A reconnect Kubetide made on its own (resume from sleep, network back) and how stale data had been. */
export interface Reconnect {
  /** When the watch was running again (epoch ms). */
  at: number;
  /** How long the data may have been out of date: from suspend (or going offline) until `at`. */
  staleForMs: number;
  /** Why: "resumed from sleep", "network is back". */
  reason: string;
}

export interface SyncState {
  phase: SyncPhase;
  /** On synced: the last reconnect after sleep or a network change. */
  reconnected?: Reconnect;
  /** On synced: the watch has been silent since this time (epoch ms), past the bookmark cadence. */
  noDataSince?: number;
  listed?: number;
  total?: number;
  since?: number;
  retryAt?: number;
  error?: SyncError;
  /**
   * Set when the cluster scope is refused and the subscription is served by one informer per
   * namespace the user can read: those namespaces, sorted. The view is then partial by design.
   */
  namespaces?: string[];
}
