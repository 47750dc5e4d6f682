// One informer, for one resource in one namespace ("" for all), projected to rows and fanned out to
// every subscription that shares it. The feed keeps the current row of every cached object, so a new
// subscriber's snapshot costs no projection, and it turns the Reflector's phases into the SyncState
// the top bar shows: listing (with the count so far), synced (or synced but silent: no data for N s),
// reconnecting at a known time, stale since the first failure, or error for failures retrying cannot
// fix (401, 403, 404).
// The first LIST of a feed that shows nothing yet is previewed to the subscribers that ask for it
// (list-preview.ts): its rows are sent as they are decoded, long before the informer has them.
import type { Timer } from '../cache/clock';
import { resourceDescription } from '../cache/informer-factory';
import { DeletedFinalStateUnknown } from '../cache/keys';
import { ShardedMap } from '../cache/sharded-map';
import type { ReflectorState, WatchErrorHandler } from '../cache/reflector';
import type { ResourceEventHandlerRegistration } from '../cache/resource-event-handler';
import { SharedIndexInformer } from '../cache/shared-informer';
import type { GroupVersionResource, KubeObject } from '../../shared/kube/object';
import { gvrKey } from '../../shared/kube/object';
import { objectKey } from '../../shared/protocol/row';
import type { Row } from '../../shared/protocol/row';
import type { SyncState } from '../../shared/protocol/sync-state';
import { compactingListerWatcher } from './compacting-lister-watcher';
import { consistentFirstList } from './consistent-first-list';
import { WatchSilence, defaultSilenceAfterMs } from './watch-silence';
import { failureState } from './failure-state';
import { FailureLog } from './failure-log';
import type { FeedOptions, FeedSubscriber } from './feed-options';
import { trackListing } from './listing-progress';
import type { ListProgress } from './listing-progress';
import { createObjectCompactor } from './object-compactor';
import { ListPreview, showsVersion } from './list-preview';
import type { RowProjector } from './row-projection';
import type { RowChange } from './squash';
import { UnreadRows } from './unread-rows';

export { stripManagedFields } from '../kube/managed-fields';

export class Feed {
  readonly gvr: GroupVersionResource;
  readonly namespace: string;
  /**
   * Sharded (ShardedMap), as the informer's own store: one Map of 150,000 rows grew past 131,072 by
   * rehashing them all in one delivery on the main thread.
   */
  private readonly rowsByKey = new ShardedMap<Row>();
  /** Objects delivered while no subscriber wanted rows, projected when rows are next read. */
  private readonly unread = new UnreadRows();
  private readonly subscribers = new Set<FeedSubscriber>();
  private informer: SharedIndexInformer<KubeObject> | undefined;
  private registration: ResourceEventHandlerRegistration | undefined;
  private stopInformer: AbortController | undefined;
  private releaseInformer: (() => void) | undefined;
  private running: Promise<void> | undefined;
  private state: SyncState = { phase: 'listing', listed: 0 };
  /** Objects received by the LIST under way, and the total its first page announced. */
  private listProgress: ListProgress = { listed: 0 };
  private firstFailureAt: number | undefined;
  private lastError: unknown;
  /** What of the list and watch failures goes to onWatchError: not a retry failing the same way again. */
  private failureLog: FailureLog | undefined;
  private progressTimer: Timer | undefined;
  /** A look at hasSynced is queued behind the deliveries under way (see checkSyncedSoon). */
  private syncCheckQueued = false;
  private readonly silence: WatchSilence;
  /** A reconnect asked for by reconnect(), reported on the synced state once the watch is back. */
  private pendingReconnect: { reason: string; staleSince: number } | undefined;
  /** Keys held before a resync, not yet seen again; whatever remains once synced was deleted. */
  private unconfirmed: Set<string> | undefined;
  /** The first LIST's rows the informer has not delivered yet, while it is being listed. */
  private preview: ListPreview | undefined;
  private readonly staleAfterMs: number;
  private readonly progressIntervalMs: number;
  /** Replaced by reproject() when the kind's printer changes. */
  private projector: RowProjector;
  /** The next informer's first LIST is a consistent read (a manual resync must not go back in time). */
  private listConsistently = false;

  constructor(private readonly options: FeedOptions) {
    this.projector = options.projector;
    this.gvr = options.gvr;
    this.namespace = options.namespace;
    this.staleAfterMs = options.staleAfterMs ?? 30_000;
    this.progressIntervalMs = options.progressIntervalMs ?? 250;
    this.silence = new WatchSilence(
      options.clock,
      options.silenceAfterMs ?? defaultSilenceAfterMs,
      (silentSince) => this.silenceChanged(silentSince),
    );
  }

  /** "pods.v1 in payments", for logs and errors. */
  get description(): string {
    return `${gvrKey(this.gvr)}${this.namespace ? ` in ${this.namespace}` : ''}`;
  }

  /** Starts the informer (list, then watch); idempotent. */
  start(): void {
    if (this.informer) return;
    const clock = this.options.clock;
    const compactor = createObjectCompactor();
    // Rows kept from an earlier informer (a resync, a restart after the quiet period) are already
    // shown: only a feed showing nothing previews its LIST.
    this.preview =
      this.rowsByKey.size === 0
        ? new ListPreview(
            (object) => this.projector.project(object, clock.now()),
            (change) => this.publish(change, 'preview'),
          )
        : undefined;
    let listerWatcher = trackListing(this.options.newListerWatcher(), {
      preview: () => this.preview,
      progress: () => this.listProgress,
      pageListed: (progress) => {
        this.listProgress = progress;
        if (this.state.phase === 'listing') this.reportListing();
      },
    });
    if (this.listConsistently) listerWatcher = consistentFirstList(listerWatcher);
    this.listConsistently = false;
    const informer = new SharedIndexInformer<KubeObject>({
      name: this.description,
      listerWatcher: compactingListerWatcher(listerWatcher, compactor, clock),
      clock,
      transform: compactor.transform,
      reflector: {
        typeDescription: resourceDescription(this.gvr),
        ...this.options.reflector,
        onStateChange: (state) => this.reflectorStateChanged(state),
        onWatchData: () => this.silence.data(),
      },
    });
    // A new informer's first failure is told, whatever the last one's said.
    const failureLog = new FailureLog(
      (error) => this.options.onWatchError?.(this.description, error),
      (failures) => this.options.onWatchRecovered?.(this.description, failures),
    );
    this.failureLog = failureLog;
    const watchErrorHandler: WatchErrorHandler = (_reflector, error) => failureLog.failed(error);
    informer.setWatchErrorHandler(watchErrorHandler);
    this.releaseInformer = this.options.onInformer?.(informer, watchErrorHandler);
    this.informer = informer;
    this.registration = informer.addEventHandler({
      onAdd: (object) => this.upsert(object),
      onUpdate: (_old, object) => this.upsert(object),
      onDelete: (object) => this.remove(object),
    });
    this.stopInformer = new AbortController();
    this.running = informer.run(this.stopInformer.signal).catch((error: unknown) => {
      this.options.onWatchError?.(this.description, error);
    });
    this.listProgress = { listed: 0 };
    this.reportListing();
    this.watchProgress();
  }

  /** Stops the informer and resolves once it has stopped. Rows are kept for a later start(). */
  async stop(): Promise<void> {
    this.progressTimer?.stop();
    this.progressTimer = undefined;
    this.silence.stop();
    this.stopInformer?.abort();
    this.endPreview();
    // The rows are kept for a later start(); the stopped informer's objects are not.
    this.projectWaiting();
    this.releaseInformer?.();
    this.releaseInformer = undefined;
    const running = this.running;
    this.informer = undefined;
    this.registration = undefined;
    this.running = undefined;
    await running;
  }

  /**
   * Relists from scratch (the manual refresh): a new informer lists again; rows it does not confirm
   * by the time it has synced are deleted. Its first LIST is a consistent read (resourceVersion "",
   * served from etcd), not the Reflector's usual RV "0" (whatever the API server's watch cache
   * holds, which may lag behind what this feed already shows: client-go #83520): a refresh never
   * moves a row back in time, nor deletes one that a lagging cache has not seen yet.
   */
  async resync(): Promise<void> {
    await this.stop();
    this.projectWaiting();
    this.unconfirmed = new Set(this.rowsByKey.keys());
    this.firstFailureAt = undefined;
    this.listConsistently = true;
    this.start();
  }

  /**
   * The machine slept or the network came back: the watch is probably dead. Shows "reconnecting" since
   * `staleSince` and has the informer re-watch at once (Reflector.restartWatch); once the watch runs
   * again the synced state carries how long the data was stale.
   */
  reconnect(reason: string, staleSince: number): void {
    if (!this.informer) return;
    this.pendingReconnect = { reason, staleSince };
    this.setState({
      phase: 'reconnecting',
      since: staleSince,
      error: { message: `${reason}: re-establishing the watch` },
    });
    this.informer.restartWatch();
  }

  /**
   * A feed whose list or watch keeps failing tries again at once, its backoff cut short (its
   * connection took new credentials); a healthy feed is left as it is.
   */
  retryNow(): void {
    if (this.firstFailureAt !== undefined) this.informer?.restartWatch();
  }

  /**
   * The kind's columns changed (its CRD's printer columns were edited): every cached object is
   * projected again and sent as an update, though no object changed, so subscribers get the new cells.
   */
  reproject(projector: RowProjector): void {
    this.projector = projector;
    const now = this.options.clock.now();
    this.projectWaiting();
    for (const object of this.informer?.getIndexer().list() ?? []) {
      const row = projector.project(object, now);
      if (!this.rowsByKey.has(row.key)) continue;
      this.rowsByKey.set(row.key, row);
      this.publish({ type: 'updated', row });
    }
  }

  /** The running informer's indexer holds full objects (managedFields stripped). */
  cachedObject(namespace: string, name: string): KubeObject | undefined {
    return this.informer?.getIndexer().getByKey(objectKey(namespace, name));
  }

  /** The most rows one of its tables holds: what one delivery may have to rehash. */
  get largestTable(): number {
    return this.rowsByKey.largestShard;
  }

  /** The rows the informer has delivered, and with `preview` those of the LIST under way too. */
  rows(options: { preview?: boolean } = {}): Row[] {
    this.projectWaiting();
    const rows = this.rowsByKey.valuesArray();
    if (options.preview && this.preview) for (const row of this.preview.values()) rows.push(row);
    return rows;
  }

  get count(): number {
    return this.rowsByKey.size + this.unread.added;
  }

  syncState(): SyncState {
    return this.state;
  }

  attach(subscriber: FeedSubscriber): void {
    this.subscribers.add(subscriber);
  }

  detach(subscriber: FeedSubscriber): void {
    this.subscribers.delete(subscriber);
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  private upsert(object: KubeObject): void {
    const key = objectKey(object.metadata.namespace, object.metadata.name ?? '');
    this.unconfirmed?.delete(key);
    const previewed = this.preview?.take(key, object);
    if (previewed === undefined && !this.rowsWanted()) {
      // Nobody reads this row now: it is projected when rows are next read (projectWaiting).
      this.unread.hold(key, object, this.rowsByKey.has(key));
      this.checkSyncedSoon();
      return;
    }
    // One lookup of the key's row serves both (a row is never undefined): each is a hash and a probe
    // of a table of up to 150,000 rows, once per delivered item.
    const previous = this.rowsByKey.get(key);
    const waited = this.unread.forget(key, previous !== undefined);
    if (previous && !waited && showsVersion(previous, object)) return;
    const row = previewed?.current ? previewed.row : this.projector.project(object, this.options.clock.now());
    this.rowsByKey.set(key, row);
    this.checkSyncedSoon();
    for (const subscriber of this.subscribers) {
      if (!subscriber.preview)
        subscriber.record(previous ? { type: 'updated', row } : { type: 'added', row });
      // A preview subscriber already holds this very row.
      else if (!previewed?.current)
        subscriber.record(previous || previewed ? { type: 'updated', row } : { type: 'added', row });
    }
  }

  private remove(object: KubeObject | DeletedFinalStateUnknown<KubeObject>): void {
    const key =
      object instanceof DeletedFinalStateUnknown
        ? object.key
        : objectKey(object.metadata.namespace, object.metadata.name ?? '');
    this.deleteKey(key);
  }

  private deleteKey(key: string): void {
    this.unread.forget(key, this.rowsByKey.has(key));
    if (!this.rowsByKey.delete(key)) return;
    this.publish({ type: 'deleted', key });
  }

  /**
   * Whether a subscriber wants each change's row now. None does when the feed has no subscriber, or
   * when each says it serves nobody (wantsRows): then rows wait, unprojected, until they are read.
   */
  private rowsWanted(): boolean {
    for (const subscriber of this.subscribers) if (subscriber.wantsRows?.() ?? true) return true;
    return false;
  }

  /**
   * Projects the rows that waited for a reader, without telling the subscribers: none wanted them
   * when they came, and one that wants them now reads them (rows()) before it is sent a change.
   */
  private projectWaiting(): void {
    const now = this.options.clock.now();
    this.unread.drain((key, object) => this.rowsByKey.set(key, this.projector.project(object, now)));
  }

  /** Sends `change` to every subscriber, or with 'preview' only to those that asked for previews. */
  private publish(change: RowChange, audience: 'all' | 'preview' = 'all'): void {
    for (const subscriber of this.subscribers)
      if (audience === 'all' || subscriber.preview) subscriber.record(change);
  }

  private endPreview(): void {
    this.preview?.end();
    this.preview = undefined;
  }

  private reflectorStateChanged(state: ReflectorState): void {
    if (state.phase !== 'watching') this.silence.stop();
    if (state.phase === 'backoff') {
      if (state.error !== undefined) {
        this.lastError = state.error;
        this.firstFailureAt ??= state.since;
      }
      if (state.retryAt !== undefined) this.backingOff(state.retryAt);
    } else if (state.phase === 'listing') {
      // A retry after a failure keeps showing the failure (stale since T) until it succeeds.
      this.listProgress = { listed: 0 };
      if (this.firstFailureAt === undefined) this.reportListing();
      this.watchProgress();
    } else if (state.phase === 'watching') {
      this.firstFailureAt = undefined;
      this.lastError = undefined;
      this.failureLog?.recovered();
      this.watchProgress();
    }
  }

  /** The Reflector entered backoff after a failure and will retry at `retryAt`. */
  private backingOff(retryAt: number): void {
    if (this.lastError === undefined || this.firstFailureAt === undefined) return;
    const now = this.options.clock.now();
    this.setState(failureState(this.lastError, this.firstFailureAt, retryAt, now, this.staleAfterMs));
  }

  /**
   * While listing, reports the count so far every progressIntervalMs, and turns synced once this
   * feed's handler has received the whole initial list (the registration's hasSynced).
   */
  private watchProgress(): void {
    if (this.progressTimer) return;
    const tick = () => {
      this.progressTimer = undefined;
      if (!this.registration) return;
      if (this.registration.hasSynced()) {
        this.synced();
        return;
      }
      if (this.state.phase === 'listing') this.reportListing();
      this.progressTimer = this.options.clock.setTimeout(tick, this.progressIntervalMs);
    };
    this.progressTimer = this.options.clock.setTimeout(tick, 0);
  }

  /**
   * While the progress tick waits for hasSynced, looks again once the deliveries under way have
   * returned (a microtask, one per turn of deliveries): the last initial item makes the feed synced
   * at once rather than at the next tick, up to progressIntervalMs later (250 ms of "listing" on a
   * table that already holds every row).
   */
  private checkSyncedSoon(): void {
    if (this.syncCheckQueued || this.progressTimer === undefined) return;
    this.syncCheckQueued = true;
    queueMicrotask(() => {
      this.syncCheckQueued = false;
      if (this.progressTimer === undefined || !this.registration?.hasSynced()) return;
      this.progressTimer.stop();
      this.progressTimer = undefined;
      this.synced();
    });
  }

  private reportListing(): void {
    const listed = Math.max(this.listProgress.listed, this.rowsByKey.size + (this.preview?.size ?? 0));
    const total = this.listProgress.total;
    this.setState(total === undefined ? { phase: 'listing', listed } : { phase: 'listing', listed, total });
  }

  private synced(): void {
    this.endPreview();
    if (this.unconfirmed) {
      const gone = this.unconfirmed;
      this.unconfirmed = undefined;
      for (const key of gone) this.deleteKey(key);
      for (const subscriber of this.subscribers) subscriber.resynced?.();
    }
    if (this.firstFailureAt !== undefined) return;
    this.silence.restart();
    const reconnect = this.pendingReconnect;
    this.pendingReconnect = undefined;
    if (!reconnect) {
      this.setState(
        this.state.reconnected
          ? { phase: 'synced', reconnected: this.state.reconnected }
          : { phase: 'synced' },
      );
      return;
    }
    const at = this.options.clock.now();
    this.setState({
      phase: 'synced',
      reconnected: { at, staleForMs: at - reconnect.staleSince, reason: reconnect.reason },
    });
  }

  /** A synced watch went silent (since when data last came) or spoke again (undefined). */
  private silenceChanged(silentSince: number | undefined): void {
    if (this.state.phase !== 'synced') return;
    const { noDataSince: _previous, ...synced } = this.state;
    this.setState(silentSince === undefined ? synced : { ...synced, noDataSince: silentSince });
  }

  private setState(next: SyncState): void {
    if (JSON.stringify(next) === JSON.stringify(this.state)) return;
    this.state = next;
    for (const subscriber of this.subscribers) subscriber.syncStateChanged(next);
  }
}
