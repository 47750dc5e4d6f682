// The top bar's answer to "can I trust what I see?": synced, listing with progress, reconnecting with
// a countdown, stale since a time with the error, each with a manual resync (lens#2070: users asked
// for a refresh button and a freshness indicator because lists went stale silently).
import type { ReactNode } from 'react';
import { reasonOf } from '../../shared/protocol';
import type { SyncState } from '../../shared/protocol';
import type { ConnectionState, SnapshotLoading } from '../store/mirror-state';
import { useNow } from '../ui-state/now';
import { RefreshIcon } from '../components/icons';
import { humanDuration } from '../../shared/kinds/columns';
import { StatusPill } from '../components/status-pill';

const integer = new Intl.NumberFormat('en-US');
/** How long the badge mentions a reconnect after sleep or a network change. */
const reconnectNoticeMs = 60_000;
const clockTime = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' });

/**
 * The badge's words for a state: the same text the e2e tests and screen readers read. `loading` is the
 * feed's snapshot still on its way to this page: a feed synced in main is not yet what the table shows.
 */
export function describeSync(
  state: SyncState | undefined,
  connection: ConnectionState,
  now: number,
  loading?: SnapshotLoading,
): string {
  if (connection.phase === 'closed') return `disconnected${connection.error ? `: ${connection.error}` : ''}`;
  if (connection.phase === 'connecting') {
    if (connection.retryAt === undefined) return 'connecting…';
    const seconds = Math.max(0, Math.ceil((connection.retryAt - now) / 1000));
    const reason = connection.error ? ` (${connection.error})` : '';
    return seconds > 0 ? `reconnecting in ${seconds} s${reason}` : `reconnecting…${reason}`;
  }
  if (!state) return 'waiting for data…';
  switch (state.phase) {
    case 'synced': {
      if (loading?.total !== undefined)
        return `loading ${Math.floor(percent(loading.received, loading.total))}% (${integer.format(loading.received)} of ${integer.format(loading.total)})`;
      if (loading) return 'loading…';
      if (state.noDataSince !== undefined) return `no data for ${silence(now - state.noDataSince)}`;
      const reconnect = state.reconnected;
      if (!reconnect || now - reconnect.at > reconnectNoticeMs) return 'synced';
      return `synced · ${reconnect.reason}, reconnected after ${humanDuration(reconnect.staleForMs)} stale`;
    }
    case 'listing': {
      if (state.total && state.total > 0) {
        const listed = Math.floor(percent(state.listed ?? 0, state.total));
        return `listing ${listed}% (${integer.format(state.listed ?? 0)} of ${integer.format(state.total)})`;
      }
      return state.listed ? `listing (${integer.format(state.listed)} so far)` : 'listing…';
    }
    case 'reconnecting': {
      const seconds = state.retryAt === undefined ? 0 : Math.max(0, Math.ceil((state.retryAt - now) / 1000));
      const reason = state.error ? `: ${reasonOf(state.error)}` : '';
      return seconds > 0 ? `reconnecting in ${seconds} s${reason}` : `reconnecting…${reason}`;
    }
    case 'stale': {
      const since = state.since === undefined ? '' : ` since ${clockTime.format(state.since)}`;
      return `stale${since}: ${state.error ? reasonOf(state.error) : 'the watch is not running'}`;
    }
    case 'error':
      return `error: ${state.error ? reasonOf(state.error) : 'this kind cannot be listed'}`;
  }
}

/** How far `done` of `total` has come, in percent (at most 100; all of nothing is done). */
function percent(done: number, total: number): number {
  return total > 0 ? Math.min(100, (done / total) * 100) : 100;
}

/** The pill's bar while rows are coming: a listing's, or a synced feed's snapshot on its way here. */
function progressOf(state: SyncState | undefined, loading: SnapshotLoading | undefined): number | undefined {
  if (state?.phase === 'listing') return state.total ? percent(state.listed ?? 0, state.total) : undefined;
  if (state?.phase !== 'synced' || loading === undefined) return undefined;
  return loading.total === undefined ? 0 : percent(loading.received, loading.total);
}

/** "75 s" up to two minutes, then the table's durations ("3m", "2h"). */
function silence(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return seconds < 120 ? `${seconds} s` : humanDuration(ms);
}

/** The badge's colour: a synced watch that has gone silent is a warning, not a green light. */
/**
 * The snapshot loading the badge shows: the one still arriving, else, while the table's answer was
 * taken before the snapshot became whole here (`answeredRevision` < `loadedAt`; its re-query runs in a
 * task of its own, see useKindRows), the last one arrived at its end. "synced" waits for the table, or
 * it would read over a table short of its rows for a frame or more.
 */
export function loadingShownOf(
  arriving: SnapshotLoading | undefined,
  lastArrived: SnapshotLoading | undefined,
  loadedAt: number | undefined,
  answeredRevision: number | undefined,
): SnapshotLoading | undefined {
  if (arriving) return arriving;
  const total = lastArrived?.total;
  if (total === undefined || loadedAt === undefined || answeredRevision === undefined) return undefined;
  return answeredRevision < loadedAt ? { received: total, total } : undefined;
}

function badgePhase(
  state: SyncState | undefined,
  connection: ConnectionState,
  loadingShown: boolean,
): string {
  if (connection.phase === 'closed') return 'stale';
  if (connection.phase === 'connecting')
    return connection.retryAt === undefined ? 'connecting' : 'reconnecting';
  // Looks as a listing does: rows are still coming.
  if (loadingShown) return 'listing';
  if (state?.phase === 'synced' && state.noDataSince !== undefined) return 'silent';
  return state?.phase ?? 'connecting';
}

export interface SyncBadgeProps {
  readonly state: SyncState | undefined;
  readonly connection: ConnectionState;
  /** The feed's snapshot still on its way to this page (MirrorState.loading). */
  readonly loading?: SnapshotLoading;
  readonly onResync: () => void;
}

export function SyncBadge(props: SyncBadgeProps): ReactNode {
  const now = useNow();
  const { state, connection, loading } = props;
  const text = describeSync(state, connection, now, loading);
  // A synced feed whose snapshot is still on its way here reads as rows still coming.
  const loadingShown = state?.phase === 'synced' && loading !== undefined;
  const phase = badgePhase(state, connection, loadingShown);
  const progress = progressOf(state, loading);
  return (
    <>
      <StatusPill
        phase={phase}
        text={text}
        // The badge's line names the reason; its title the whole failure, request and list included.
        title={state?.error && connection.phase === 'open' ? `${text}\n\n${state.error.message}` : text}
        {...(progress !== undefined ? { progress } : {})}
      />
      {connection.phase === 'open' && state && state.phase !== 'listing' && !loadingShown && (
        <button
          type="button"
          className="icon-button"
          title="Resync: list this kind again from the API server"
          aria-label="Resync"
          data-testid="resync"
          onClick={props.onResync}
        >
          <RefreshIcon />
        </button>
      )}
    </>
  );
}
