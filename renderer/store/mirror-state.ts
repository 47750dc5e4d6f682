// The small, immutable state React subscribes to (zustand vanilla store). It never holds rows: a
// view selects its subscription's revision and reads rows from the SubscriptionMirror when it moves.
import { createStore } from 'zustand/vanilla';
import type { StoreApi } from 'zustand/vanilla';
import type { SyncState } from '../../shared/protocol/sync-state';
import type { ContextList, NamespaceChoices, ServedKind } from '../../shared/protocol/server-messages';
import type { HistoryCursorMessage } from '../../shared/protocol/history-messages';

/** What a replay subscription shows: its moment, playback, rebuild progress and the gap it is in. */
export type ReplayStatus = Omit<HistoryCursorMessage, 'type' | 'subscriptionId'>;

/**
 * - connecting: no link yet (first attempt or after a loss, until `retryAt`).
 * - open: hello answered; batches flow.
 * - closed: the client was closed on purpose; it will not reconnect.
 */
export type ConnectionPhase = 'connecting' | 'open' | 'closed';

export interface ConnectionState {
  phase: ConnectionPhase;
  /** Epoch ms of the next reconnect attempt, while connecting after a loss. */
  retryAt?: number;
  /** Why the last link was lost or refused. */
  error?: string;
}

export interface MirrorState {
  connection: ConnectionState;
  /** Per subscription: bumped once per frame in which its rows changed. */
  revisions: Readonly<Record<string, number>>;
  syncStates: Readonly<Record<string, SyncState>>;
  /**
   * Per replay subscription, as of the batches applied so far (cursors are applied in order with
   * them): rows equal to `total` only once the moment is rebuilt.
   */
  replays: Readonly<Record<string, ReplayStatus>>;
  /**
   * Per live subscription whose snapshot is still on its way to this page (SubscriptionMirror.loading):
   * its feed may say "synced" in main while the table here holds a part of its rows.
   */
  loading: Readonly<Record<string, SnapshotLoading>>;
  /**
   * Per live subscription, the mirror's revision at which its last snapshot became whole here: a table
   * whose answer was taken before it still shows a part of the rows (see FeedSyncBadge).
   */
  loadedRevisions: Readonly<Record<string, number>>;
  kinds: readonly ServedKind[];
  /** The namespaces main tries where the cluster scope is refused (with the kinds message). */
  namespaceChoices?: NamespaceChoices;
  contexts?: ContextList;
}

/**
 * Rows of a live snapshot applied so far, of the `total` main said it holds (unknown before its first
 * batch: a subscription opened, its rows not begun).
 */
export interface SnapshotLoading {
  readonly received: number;
  readonly total?: number;
}

export type MirrorStateStore = StoreApi<MirrorState>;

export function createMirrorState(): MirrorStateStore {
  return createStore<MirrorState>()(() => ({
    connection: { phase: 'connecting' },
    revisions: {},
    syncStates: {},
    replays: {},
    loading: {},
    loadedRevisions: {},
    kinds: [],
  }));
}
