// What a Feed is built from, and what it tells its subscribers (a subscription's BatchStream, a log
// view, an AccessAwareFeed's merge).
import type { Clock } from '../cache/clock';
import type { ReflectorTuning } from '../cache/controller';
import type { ListerWatcher } from '../cache/lister-watcher';
import type { WatchErrorHandler } from '../cache/reflector';
import type { SharedIndexInformer } from '../cache/shared-informer';
import type { GroupVersionResource, KubeObject } from '../../shared/kube/object';
import type { SyncState } from '../../shared/protocol/sync-state';
import type { RowProjector } from './row-projection';
import type { RowChange } from './squash';

/** Whoever mirrors a feed: a subscription's BatchStream plus its sync-state sender. */
export interface FeedSubscriber {
  record(change: RowChange): void;
  syncStateChanged(state: SyncState): void;
  /**
   * A manual resync has finished: its changes have been recorded, and a subscriber may resend a full
   * snapshot so the renderer is rebuilt from scratch. (Automatic relists after a failed watch need no
   * snapshot: the informer diffs them against its cache and delivers updates and deletions.)
   */
  resynced?(): void;
  /**
   * Also receive the rows of a first LIST as it is decoded, before the informer has them (their
   * cachedObject is still undefined); see ListPreview.
   */
  readonly preview?: boolean;
  /**
   * False while this subscriber has nobody to pass rows to (an AccessAwareFeed with no subscriber of
   * its own): a feed whose every subscriber says so projects no rows until they are read. Omitted:
   * always wanted.
   */
  wantsRows?(): boolean;
}

export interface FeedOptions {
  gvr: GroupVersionResource;
  namespace: string;
  newListerWatcher: () => ListerWatcher<KubeObject>;
  projector: RowProjector;
  clock: Clock;
  /** A failing watch counts as stale (not just reconnecting) once it has failed for this long. */
  staleAfterMs?: number;
  /** How often listing progress is reported. */
  progressIntervalMs?: number;
  /**
   * A synced watch that delivered nothing (no event, no bookmark) for this long is reported as
   * silent ("no data for N s") until data arrives. Default: the API server's bookmark cadence plus
   * a margin (defaultSilenceAfterMs).
   */
  silenceAfterMs?: number;
  reflector?: ReflectorTuning<KubeObject>;
  /**
   * Told about a list or watch failure, unless it is a retry failing as the one told last (see
   * FailureLog; every failure shows in the sync state); default: ignored.
   */
  onWatchError?: (feed: string, error: unknown) => void;
  /** Told when the feed watches again after `failures` list or watch failures, some of them not told. */
  onWatchRecovered?: (feed: string, failures: number) => void;
  /**
   * Called with each new informer before it runs, and with the watch error handler the feed gave it
   * (a recorder attaches here, so it sees the initial list and keeps the feed's handler); the
   * function it returns is called when the informer stops.
   */
  onInformer?: (
    informer: SharedIndexInformer<KubeObject>,
    watchErrorHandler: WatchErrorHandler,
  ) => (() => void) | undefined;
}
