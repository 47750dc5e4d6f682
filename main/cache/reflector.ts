// client-go tools/cache Reflector: keeps a Store in step with the API server by listing once and then
// watching from the list's resourceVersion, relisting (after a backoff) whenever the watch cannot be
// resumed. See reflector-watch.ts (one watch), watch-list.ts (streaming lists) and pager.ts (paged LIST).
import type { KubeObject } from '../../shared/kube/object';
import {
  isInternalError,
  isResourceExpired,
  isTooLargeResourceVersion,
  isTooManyRequests,
} from '../../shared/kube/status';
import type { DelayHandler, RandomSource } from './backoff';
import { newReflectorDelayHandler } from './backoff';
import type { Clock, Timer } from './clock';
import type { ListOptions, ListerWatcher, Watcher } from './lister-watcher';
import { ListPager, defaultPageSize } from './pager';
import type { ExpectedType, ReflectorLogger } from './reflector-watch';
import { errorStopRequested, handleAnyWatch } from './reflector-watch';
import { RetryWithDeadline } from './retry-with-deadline';
import type { Store } from './store';
import { sleepUnlessAborted, untilAborted } from './until-aborted';
import type { WatchListHost } from './watch-list';
import { isWatchErrorRetriable, watchList } from './watch-list';

/** Implemented by stores that track the Reflector's resourceVersion as it advances on the watch. */
export interface ResourceVersionUpdater {
  updateResourceVersion(resourceVersion: string): void;
}

/** Called with every error that ends a listAndWatch; the Reflector then backs off and relists. */
export type WatchErrorHandler = (reflector: ReflectorIdentity, error: unknown) => void;

/** What a watch error handler learns about the Reflector that failed. */
export interface ReflectorIdentity {
  readonly name: string;
  readonly typeDescription: string;
  lastSyncResourceVersion(): string;
}

/** What the Reflector is doing, for display: listing (or streaming a watch-list), watching, or waiting. */
export interface ReflectorState {
  phase: 'listing' | 'watching' | 'backoff';
  /** Objects in the last completed list. */
  itemsListed?: number;
  /** The error that led to the current backoff. */
  error?: unknown;
  /** When this phase began, on the Reflector's clock (ms since the epoch). */
  since: number;
}

export interface ReflectorOptions<T extends KubeObject = KubeObject> {
  /** Names this Reflector in logs and errors. */
  name: string;
  /** The kind listed and watched; mismatching watch objects are skipped. Also labels messages. */
  expectedType?: ExpectedType;
  /** Overrides the label used in messages (default: "apiVersion, Kind=kind", or "<unspecified>"). */
  typeDescription?: string;
  listerWatcher: ListerWatcher<T>;
  store: Store<T>;
  /** How often to call store.resync() while watching, in ms; 0 never. */
  resyncPeriod: number;
  /** Asked at each resync tick; undefined means always resync. */
  shouldResync?: () => boolean;
  clock: Clock;
  /** The delay before each relist and each retried watch (default: 800 ms ×2 to 30 s, jittered, reset after 2 m). */
  backoff?: DelayHandler;
  /** LIST page size; by default 500, except 0 (unpaged) for lists at an exact RV the watch cache can serve. */
  watchListPageSize?: number;
  /** Try a streaming watch-list (sendInitialEvents) before LIST; off when the ListerWatcher says it is unsupported. */
  useWatchList?: boolean;
  /** Watch timeouts are random in [min, 2·min) seconds; min is 300 unless this is larger. */
  minWatchTimeoutSeconds?: number;
  /** How long to keep re-watching at once after InternalError watch failures, in ms; 0 (default) never. */
  maxInternalErrorRetryDuration?: number;
  /** Source of randomness for watch timeouts and the default backoff's jitter. */
  random?: RandomSource;
  watchErrorHandler?: WatchErrorHandler;
  onStateChange?: (state: ReflectorState) => void;
  /** Where skipped events and store failures are reported (default console.warn). */
  log?: ReflectorLogger;
}

const defaultMinWatchTimeoutSeconds = 300;
const internalErrorResetPeriodMs = 60_000;

/** Logs with context; an expired resourceVersion is routine (the relist handles it) and stays quiet. */
export const defaultWatchErrorHandler: WatchErrorHandler = (reflector, error) => {
  if (isResourceExpired(error)) return;
  console.warn(`reflector ${reflector.name}: failed to watch ${reflector.typeDescription}:`, error);
};

export class Reflector<T extends KubeObject = KubeObject> implements ReflectorIdentity {
  readonly name: string;
  readonly typeDescription: string;
  private readonly expectedType?: ExpectedType;
  private readonly clock: Clock;
  private readonly listerWatcher: ListerWatcher<T>;
  private readonly store: Store<T>;
  private readonly log: ReflectorLogger;
  private readonly resyncPeriod: number;
  private readonly shouldResync?: () => boolean;
  private readonly delayHandler: DelayHandler;
  private readonly watchListPageSize: number;
  private readonly useWatchList: boolean;
  private readonly minWatchTimeoutSeconds: number;
  private readonly maxInternalErrorRetryDuration: number;
  private readonly random: RandomSource;
  private readonly onStateChange?: (state: ReflectorState) => void;
  private watchErrorHandler: WatchErrorHandler;
  private lastSyncRV = '';
  private lastSyncRVUnavailable = false;
  private paginatedResult = false;
  /** Why the last watch ended when that ends listAndWatch without an error (410, very short, ...). */
  private watchEndReason: unknown;
  private currentState: ReflectorState;
  private stateReported = false;

  constructor(options: ReflectorOptions<T>) {
    this.name = options.name;
    this.expectedType = options.expectedType;
    this.typeDescription = options.typeDescription ?? describeType(options.expectedType);
    this.listerWatcher = options.listerWatcher;
    this.store = options.store;
    this.resyncPeriod = options.resyncPeriod;
    this.shouldResync = options.shouldResync;
    this.clock = options.clock;
    this.random = options.random ?? Math.random;
    this.delayHandler = options.backoff ?? newReflectorDelayHandler(this.clock, this.random);
    this.watchListPageSize = options.watchListPageSize ?? 0;
    this.useWatchList = (options.useWatchList ?? false) && options.listerWatcher.supportsWatchList !== false;
    const minWatchTimeout = options.minWatchTimeoutSeconds ?? 0;
    this.minWatchTimeoutSeconds = Math.max(minWatchTimeout, defaultMinWatchTimeoutSeconds);
    this.maxInternalErrorRetryDuration = options.maxInternalErrorRetryDuration ?? 0;
    this.watchErrorHandler = options.watchErrorHandler ?? defaultWatchErrorHandler;
    this.onStateChange = options.onStateChange;
    this.log =
      options.log ??
      ((message, details) => (details ? console.warn(message, details) : console.warn(message)));
    this.currentState = { phase: 'listing', since: this.clock.now() };
  }

  /**
   * Lists and watches until `signal` aborts: every failed or ended listAndWatch goes to the watch
   * error handler (if it failed) and is followed by a backoff wait before the next relist. Resolves
   * once the signal aborts; by then every request, watcher and timer it started has been released.
   */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      let reason: unknown;
      try {
        this.watchEndReason = undefined;
        await this.listAndWatch(signal);
        reason = this.watchEndReason;
      } catch (error) {
        if (signal.aborted) break;
        this.watchErrorHandler(this, error);
        reason = error;
      }
      if (!(await this.backoff(signal, reason))) break;
    }
  }

  /**
   * One list (or watch-list) followed by watching until the watch cannot be resumed without a relist.
   * Resolves when that happens or when the signal aborts; rejects with a list error (wrapped as
   * "failed to list <type>: ...") or with a watch that could not be opened.
   */
  async listAndWatch(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return;
    let watcher: Watcher<T> | undefined;
    let fallbackToList = !this.useWatchList;
    try {
      if (this.useWatchList) {
        this.setState('listing');
        try {
          const streamed = await watchList(this.watchListHost(), signal);
          if (!streamed) return;
          watcher = streamed.watcher;
          this.setState('watching', undefined, streamed.itemsListed);
        } catch (error) {
          this.log('Data could not be fetched in watch-list mode; falling back to LIST', {
            reflector: this.name,
            error,
          });
          fallbackToList = true;
          watcher = undefined;
        }
      }
      if (fallbackToList) {
        if (!(await this.list(signal))) return;
      }
      const initial = watcher;
      watcher = undefined;
      await this.watchWithResync(signal, initial);
    } finally {
      watcher?.stop();
    }
  }

  /** The resourceVersion of the last list or watch event applied to the store ("" before the first). */
  lastSyncResourceVersion(): string {
    return this.lastSyncRV;
  }

  /** True after a LIST (or watch-list) at the last RV failed with 410 or too-large, until one succeeds. */
  isLastSyncResourceVersionUnavailable(): boolean {
    return this.lastSyncRVUnavailable;
  }

  setWatchErrorHandler(handler: WatchErrorHandler): void {
    this.watchErrorHandler = handler;
  }

  /** What the Reflector is doing now; "listing" (since construction) until run or listAndWatch starts. */
  state(): ReflectorState {
    return { ...this.currentState };
  }

  /** "" once the last RV is unavailable, "0" before any sync (served from the watch cache), else the last RV. */
  private relistResourceVersion(): string {
    if (this.lastSyncRVUnavailable) return '';
    return this.lastSyncRV === '' ? '0' : this.lastSyncRV;
  }

  /** Random in [min, 2·min) seconds so that watches of many clients do not all expire together. */
  private watchTimeoutSeconds(): number {
    const min = this.minWatchTimeoutSeconds;
    return Math.floor(min + this.random() * min);
  }

  private watchListHost(): WatchListHost<T> {
    return {
      name: this.name,
      typeDescription: this.typeDescription,
      expectedType: this.expectedType,
      clock: this.clock,
      listerWatcher: this.listerWatcher,
      store: this.store,
      log: this.log,
      rewatchResourceVersion: () => (this.lastSyncRVUnavailable ? '' : this.lastSyncRV),
      setLastSyncResourceVersionUnavailable: (unavailable) => (this.lastSyncRVUnavailable = unavailable),
      setLastSyncResourceVersion: (resourceVersion) => (this.lastSyncRV = resourceVersion),
      watchTimeoutSeconds: () => this.watchTimeoutSeconds(),
      backoff: (signal, error) => this.backoff(signal, error),
    };
  }

  /** Waits one backoff delay on the clock, showing the backoff phase; false once aborted. */
  private async backoff(signal: AbortSignal, error: unknown): Promise<boolean> {
    if (signal.aborted) return false;
    this.setState('backoff', error);
    return sleepUnlessAborted((delay, abort) => this.clock.sleep(delay, abort), this.delayHandler(), signal);
  }

  /** LISTs at relistResourceVersion and replaces the store; false when the signal aborted. */
  private async list(signal: AbortSignal): Promise<boolean> {
    this.setState('listing');
    const options: ListOptions = { resourceVersion: this.relistResourceVersion() };
    let pageSize = defaultPageSize;
    if (this.watchListPageSize !== 0) pageSize = this.watchListPageSize;
    else if (!this.paginatedResult && options.resourceVersion !== '' && options.resourceVersion !== '0')
      pageSize = 0;
    const pager = new ListPager<T>(
      (pageOptions, pageSignal) => this.listerWatcher.list(pageOptions, pageSignal),
      {
        pageSize,
      },
    );

    let outcome;
    try {
      try {
        outcome = await untilAborted(pager.list(options, signal), signal);
      } catch (error) {
        if (signal.aborted || !(isResourceExpired(error) || isTooLargeResourceVersion(error))) throw error;
        this.lastSyncRVUnavailable = true;
        outcome = await untilAborted(
          pager.list({ resourceVersion: this.relistResourceVersion() }, signal),
          signal,
        );
      }
    } catch (error) {
      if (signal.aborted) return false;
      throw new Error(`failed to list ${this.typeDescription}: ${messageOf(error)}`, { cause: error });
    }
    if (outcome.aborted) return false;
    const { list, paginated } = outcome.value;
    if (options.resourceVersion === '0' && paginated) this.paginatedResult = true;
    this.lastSyncRVUnavailable = false;
    const resourceVersion = list.metadata?.resourceVersion ?? '';
    const items = list.items ?? [];
    try {
      this.store.replace(items, resourceVersion);
    } catch (error) {
      throw new Error(`unable to sync list result: ${messageOf(error)}`, { cause: error });
    }
    this.lastSyncRV = resourceVersion;
    this.setState('watching', undefined, items.length);
    return true;
  }

  /** Watches (starting with `watcher` when watch-list left one open) with the resync timer running beside. */
  private async watchWithResync(signal: AbortSignal, watcher: Watcher<T> | undefined): Promise<void> {
    const resync = this.startResync();
    try {
      await this.watch(signal, watcher, resync.failed);
    } finally {
      resync.stop();
    }
  }

  /**
   * Re-watches from the last RV for as long as the watch can be resumed: at once after a normal close
   * or an InternalError within maxInternalErrorRetryDuration, after a backoff for 429 and refused
   * connections. Returns (so that run() relists after a backoff) on 410, a very short watch, a resync
   * failure or any other watch error; rejects when a watch cannot be opened for another reason.
   */
  private async watch(signal: AbortSignal, initial: Watcher<T> | undefined, resyncFailed: AbortSignal) {
    const retry = new RetryWithDeadline(
      this.maxInternalErrorRetryDuration,
      internalErrorResetPeriodMs,
      isInternalError,
      this.clock,
    );
    let watcher = initial;
    try {
      for (;;) {
        if (signal.aborted) return;
        const start = this.clock.now();
        let propagateRVFromStart = true;
        if (!watcher) {
          const options: ListOptions = {
            resourceVersion: this.lastSyncRV,
            timeoutSeconds: this.watchTimeoutSeconds(),
            allowWatchBookmarks: true,
          };
          if (options.resourceVersion === '' || options.resourceVersion === '0') propagateRVFromStart = false;
          try {
            const opened = await untilAborted(this.listerWatcher.watch(options, signal), signal, (late) =>
              late.stop(),
            );
            if (opened.aborted) return;
            watcher = opened.value;
          } catch (error) {
            if (signal.aborted) return;
            if (isWatchErrorRetriable(error)) {
              if (!(await this.backoff(signal, error))) return;
              continue;
            }
            throw error;
          }
        }
        this.setState('watching');
        const current = watcher;
        watcher = undefined;
        const { error } = await handleAnyWatch(start, current, this.store, {
          name: this.name,
          typeDescription: this.typeDescription,
          expectedType: this.expectedType,
          clock: this.clock,
          signal,
          resyncFailed,
          exitOnInitialEventsEnd: false,
          setLastSyncResourceVersion: (resourceVersion, eventReceivedBesidesAdded) => {
            if (!propagateRVFromStart && !eventReceivedBesidesAdded) return;
            this.lastSyncRV = resourceVersion;
            (this.store as Partial<ResourceVersionUpdater>).updateResourceVersion?.(resourceVersion);
          },
          log: this.log,
        });
        retry.after(error);
        if (error === undefined) continue;
        if (error === errorStopRequested || signal.aborted) return;
        if (isTooManyRequests(error)) {
          if (!(await this.backoff(signal, error))) return;
          continue;
        }
        if (isInternalError(error) && retry.shouldRetry()) continue;
        if (!isResourceExpired(error)) {
          this.log('Warning: watch ended with error', {
            reflector: this.name,
            type: this.typeDescription,
            error,
          });
        }
        this.watchEndReason = error;
        return;
      }
    } finally {
      watcher?.stop();
    }
  }

  /**
   * Arms the resync timer (unless resyncPeriod is 0). Each tick asks shouldResync and calls
   * store.resync(); a throwing resync aborts `failed` with its error, which ends the watch, and stops
   * the ticking.
   */
  private startResync(): { failed: AbortSignal; stop(): void } {
    const failed = new AbortController();
    let timer: Timer | undefined;
    let stopped = false;
    const arm = () => {
      if (this.resyncPeriod <= 0 || stopped) return;
      timer = this.clock.setTimeout(() => {
        timer = undefined;
        if (stopped) return;
        if (!this.shouldResync || this.shouldResync()) {
          try {
            this.store.resync();
          } catch (error) {
            failed.abort(error);
            return;
          }
        }
        arm();
      }, this.resyncPeriod);
    };
    arm();
    return {
      failed: failed.signal,
      stop: () => {
        stopped = true;
        timer?.stop();
      },
    };
  }

  /** Records and reports a phase change; itemsListed carries over unless a new list gives it. */
  private setState(
    phase: ReflectorState['phase'],
    error?: unknown,
    itemsListed = this.currentState.itemsListed,
  ): void {
    const previous = this.currentState;
    const unchanged =
      previous.phase === phase && previous.error === error && previous.itemsListed === itemsListed;
    if (unchanged && this.stateReported) return;
    this.stateReported = true;
    this.currentState = { phase, since: this.clock.now() };
    if (itemsListed !== undefined) this.currentState.itemsListed = itemsListed;
    if (error !== undefined) this.currentState.error = error;
    this.onStateChange?.({ ...this.currentState });
  }
}

function describeType(expectedType: ExpectedType | undefined): string {
  if (!expectedType) return '<unspecified>';
  return expectedType.apiVersion
    ? `${expectedType.apiVersion}, Kind=${expectedType.kind}`
    : expectedType.kind;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
