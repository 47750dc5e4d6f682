// client-go tools/cache Reflector: keeps a Store in step with the API server by listing once and then
// watching from the list's resourceVersion, relisting (after a backoff) whenever the watch cannot be
// resumed. See reflector-list.ts (the LIST), reflector-watch.ts (one watch), watch-list.ts (streaming
// lists), resync-timer.ts, and reflector-options.ts for the options and state it reports.
import type { KubeObject } from '../../shared/kube/object';
import {
  isInternalError,
  isResourceExpired,
  isTooManyRequests,
  suggestsClientDelay,
} from '../../shared/kube/status';
import type { DelayHandler, RandomSource } from './backoff';
import { newReflectorDelayHandler } from './backoff';
import type { Clock } from './clock';
import type { ListOptions, ListerWatcher, Watcher } from './lister-watcher';
import type { ExpectedType, ReflectorLogger } from './reflector-watch';
import type { ResourceVersionBookkeeping } from './reflector-list';
import { listIntoStore } from './reflector-list';
import { errorStopRequested, handleAnyWatch, veryShortWatchMs } from './reflector-watch';
import type {
  ReflectorIdentity,
  ReflectorOptions,
  ReflectorState,
  ResourceVersionUpdater,
  WatchErrorHandler,
} from './reflector-options';
import { defaultReflectorLog, defaultWatchErrorHandler, typeDescriptionOf } from './reflector-options';
import { startResync } from './resync-timer';
import { RetryWithDeadline } from './retry-with-deadline';
import type { Store } from './store';
import { sleepUnlessAborted, untilAborted } from './until-aborted';
import type { WatchListHost } from './watch-list';
import { isWatchErrorRetriable, watchList } from './watch-list';

export type {
  ReflectorIdentity,
  ReflectorOptions,
  ReflectorState,
  ResourceVersionUpdater,
  WatchErrorHandler,
} from './reflector-options';
export { defaultWatchErrorHandler } from './reflector-options';

const defaultMinWatchTimeoutSeconds = 300;
const internalErrorResetPeriodMs = 60_000;

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
  private readonly onWatchData?: () => void;
  private watchErrorHandler: WatchErrorHandler;
  private readonly versions: ResourceVersionBookkeeping = {
    lastSyncResourceVersion: '',
    lastSyncResourceVersionUnavailable: false,
    paginatedResult: false,
  };
  /** Why the last watch ended when that ends listAndWatch without an error (410, very short, ...). */
  private watchEndReason: unknown;
  private currentState: ReflectorState;
  private stateReported = false;
  /** Aborted by restartWatch to cut a backoff wait short; replaced after each use. */
  private wake = new AbortController();
  /** The watch being handled, so restartWatch can stop it. */
  private currentWatcher: Watcher<T> | undefined;
  /** Set by restartWatch: the watch it stopped is re-opened at once rather than handled as ended. */
  private restartRequested = false;
  /**
   * Set by restartWatch: the next backoff is skipped, so a restarted watch that finds its version
   * expired relists at once. Cleared once a watch has lived past the very-short-watch threshold.
   */
  private skipNextBackoff = false;

  constructor(options: ReflectorOptions<T>) {
    this.name = options.name;
    this.expectedType = options.expectedType;
    this.typeDescription = options.typeDescription ?? typeDescriptionOf(options.expectedType);
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
    this.onWatchData = options.onWatchData;
    this.log = options.log ?? defaultReflectorLog;
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
        this.reportWatchError(error);
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
        this.setState('listing');
        const itemsListed = await listIntoStore(
          {
            listerWatcher: this.listerWatcher,
            store: this.store,
            typeDescription: this.typeDescription,
            watchListPageSize: this.watchListPageSize,
            versions: this.versions,
            clock: this.clock,
          },
          signal,
        );
        if (itemsListed === undefined) return;
        this.setState('watching', undefined, itemsListed);
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
    return this.versions.lastSyncResourceVersion;
  }

  /** True after a LIST (or watch-list) at the last RV failed with 410 or too-large, until one succeeds. */
  isLastSyncResourceVersionUnavailable(): boolean {
    return this.versions.lastSyncResourceVersionUnavailable;
  }

  setWatchErrorHandler(handler: WatchErrorHandler): void {
    this.watchErrorHandler = handler;
  }

  /**
   * Kubetide's addition (client-go has none): after the machine slept or the network changed, the open
   * watch is probably a dead, half-open connection and a pending backoff is pointless. This stops the
   * watch and cuts any backoff short, so the Reflector re-watches from the last synced
   * resourceVersion at once (and relists at once if that version has expired). Safe at any time.
   */
  restartWatch(): void {
    this.restartRequested = true;
    this.skipNextBackoff = true;
    // The fresh watch is reported as a new "watching" phase even though the phase does not change.
    this.stateReported = false;
    this.currentWatcher?.stop();
    const wake = this.wake;
    this.wake = new AbortController();
    wake.abort();
  }

  /** What the Reflector is doing now; "listing" (since construction) until run or listAndWatch starts. */
  state(): ReflectorState {
    return { ...this.currentState };
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
      rewatchResourceVersion: () =>
        this.versions.lastSyncResourceVersionUnavailable ? '' : this.versions.lastSyncResourceVersion,
      setLastSyncResourceVersionUnavailable: (unavailable) =>
        (this.versions.lastSyncResourceVersionUnavailable = unavailable),
      setLastSyncResourceVersion: (resourceVersion) =>
        (this.versions.lastSyncResourceVersion = resourceVersion),
      watchTimeoutSeconds: () => this.watchTimeoutSeconds(),
      backoff: (signal, error) => this.backoff(signal, error),
    };
  }

  /** A throwing handler must not end run(): it is logged, and the Reflector backs off as usual. */
  private reportWatchError(error: unknown): void {
    try {
      this.watchErrorHandler(this, error);
    } catch (handlerError) {
      this.log('Watch error handler failed', { reflector: this.name, error, handlerError });
    }
  }

  /**
   * Waits one backoff delay on the clock, showing the backoff phase; false once aborted. A server
   * that said how long to wait (429 with Retry-After) is taken at its word, and the backoff does not
   * advance: client-go honours Retry-After (on a 429 or 5xx) in its REST client, retrying the request
   * itself (rest/with_retry.go, checkWait) before the Reflector ever sees the error; Kubetide's REST
   * client leaves that wait to the Reflector.
   */
  private async backoff(signal: AbortSignal, error: unknown): Promise<boolean> {
    if (signal.aborted) return false;
    if (this.skipNextBackoff) {
      this.skipNextBackoff = false;
      this.restartRequested = false;
      return true;
    }
    const retryAfterSeconds = suggestsClientDelay(error);
    const delay = retryAfterSeconds === undefined ? this.delayHandler() : retryAfterSeconds * 1000;
    this.setState('backoff', error, this.currentState.itemsListed, this.clock.now() + delay);
    const interrupt = AbortSignal.any([signal, this.wake.signal]);
    await sleepUnlessAborted((delayMs, abort) => this.clock.sleep(delayMs, abort), delay, interrupt);
    this.restartRequested = false;
    this.skipNextBackoff = false;
    return !signal.aborted;
  }

  /** Watches (starting with `watcher` when watch-list left one open) with the resync timer running beside. */
  private async watchWithResync(signal: AbortSignal, watcher: Watcher<T> | undefined): Promise<void> {
    const resync = startResync(this.clock, this.resyncPeriod, this.store, this.shouldResync);
    try {
      await this.watch(signal, watcher, resync.failed);
    } finally {
      resync.stop();
    }
  }

  /**
   * Re-watches from the last RV for as long as the watch can be resumed: at once after a normal close,
   * a lost connection or an InternalError within maxInternalErrorRetryDuration, after a backoff for
   * 429 and refused connections. Returns (so that run() relists after a backoff) on 410, a very short
   * watch, a resync failure or any other watch error; rejects when a watch cannot be opened for
   * another reason. A watch that delivered events resets the backoff (see resetBackoffAfter).
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
            resourceVersion: this.versions.lastSyncResourceVersion,
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
            // The server answered from lastSyncResourceVersion: the new watch's silence starts now.
            this.onWatchData?.();
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
        // A restart asked for while listing or opening is served by this fresh watch.
        this.restartRequested = false;
        this.currentWatcher = current;
        const outcome = await handleAnyWatch(start, current, this.store, {
          name: this.name,
          typeDescription: this.typeDescription,
          expectedType: this.expectedType,
          clock: this.clock,
          signal,
          resyncFailed,
          exitOnInitialEventsEnd: false,
          setLastSyncResourceVersion: (resourceVersion, eventReceivedBesidesAdded) => {
            if (!propagateRVFromStart && !eventReceivedBesidesAdded) return;
            this.versions.lastSyncResourceVersion = resourceVersion;
            (this.store as Partial<ResourceVersionUpdater>).updateResourceVersion?.(resourceVersion);
          },
          onData: this.onWatchData,
          log: this.log,
        }).finally(() => (this.currentWatcher = undefined));
        const { error } = outcome;
        if (this.restartRequested && !signal.aborted) {
          this.restartRequested = false;
          continue;
        }
        // A watch that outlived the very-short threshold was healthy: a later failure backs off again.
        if (this.clock.now() - start >= veryShortWatchMs) this.skipNextBackoff = false;
        this.resetBackoffAfter(outcome.eventCount);
        retry.after(error);
        if (error === undefined) {
          if (outcome.connectionLost !== undefined) this.logConnectionLost(outcome.connectionLost);
          continue;
        }
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
   * Kubetide's difference from client-go: a watch the server served (at least one event, bookmarks
   * included) starts the backoff over, so failures it has outlived (earlier 410s, a refused
   * connection) no longer stretch the wait before the next, unrelated one. client-go starts over only
   * once two minutes have passed since it last did (DelayWithReset), healthy watch or not; that rule
   * still holds beside this one (and alone for a DelayHandler without reset()).
   */
  private resetBackoffAfter(eventCount: number): void {
    if (eventCount > 0) this.delayHandler.reset?.();
  }

  /** One line, no stack: a lost connection is routine, and the watch resumes where it was. */
  private logConnectionLost(cause: unknown): void {
    this.log('Watch connection lost; re-watching from the last synced resourceVersion', {
      reflector: this.name,
      type: this.typeDescription,
      resourceVersion: this.versions.lastSyncResourceVersion,
      cause: cause instanceof Error ? cause.message : String(cause),
    });
  }

  /** Records and reports a phase change; itemsListed carries over unless a new list gives it. */
  private setState(
    phase: ReflectorState['phase'],
    error?: unknown,
    itemsListed = this.currentState.itemsListed,
    retryAt?: number,
  ): void {
    const previous = this.currentState;
    const unchanged =
      previous.phase === phase &&
      previous.error === error &&
      previous.itemsListed === itemsListed &&
      previous.retryAt === retryAt;
    if (unchanged && this.stateReported) return;
    this.stateReported = true;
    this.currentState = { phase, since: this.clock.now() };
    if (itemsListed !== undefined) this.currentState.itemsListed = itemsListed;
    if (error !== undefined) this.currentState.error = error;
    if (retryAt !== undefined) this.currentState.retryAt = retryAt;
    this.onStateChange?.({ ...this.currentState });
  }
}
