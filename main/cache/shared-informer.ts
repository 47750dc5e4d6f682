// client-go shared_informer.go's sharedIndexInformer: one list+watch of a resource, one indexed cache,
// any number of event handlers, each with its own buffer, resync period and sync state.
import type { KubeObject } from '../../shared/kube/object';
import type { Clock } from './clock';
import type { ReflectorTuning } from './controller';
import { InformerController } from './controller';
import { CacheStore } from './cache-store';
import type { Deltas } from './delta';
import type { DeltaObserver, DeltaObserverRegistration } from './delta-observer';
import type { Indexer, Indexers } from './indexer';
import type { DeletedFinalStateUnknown } from './keys';
import { deletionHandlingMetaNamespaceKeyFunc } from './keys';
import type { ListerWatcher } from './lister-watcher';
import { forgetObjectText } from './object-text';
import type { HandlerErrorReporter, Notification } from './processor-listener';
import { ProcessorListener, reportToConsole } from './processor-listener';
import { realClock } from './real-clock';
import type { ReflectorState, WatchErrorHandler } from './reflector';
import type { ResourceEventHandler, ResourceEventHandlerRegistration } from './resource-event-handler';
import { SharedProcessor, determineResyncPeriod, minimumResyncPeriod } from './shared-processor';
import type { Store, TransformFunc } from './store';

export interface SharedIndexInformerOptions<T extends KubeObject> {
  listerWatcher: ListerWatcher<T>;
  /**
   * The resync period of handlers added without one, in ms (0: never). It is also the initial resync
   * check period, which handlers asking for a shorter period lower until the informer starts.
   */
  defaultResyncPeriod?: number;
  indexers?: Indexers<T>;
  clock?: Clock;
  /** Names the informer (e.g. its resource) in logs and errors. */
  name?: string;
  transform?: TransformFunc;
  /** Told about every handler that throws and every Deltas that cannot be processed. */
  reportError?: HandlerErrorReporter;
  reflector?: ReflectorTuning<T>;
}

/**
 * A cache of one resource kept current by list+watch, shared by every handler that wants its events.
 *
 * Guarantees: the indexer is written before any handler hears of the change, so a handler (or a lister
 * it calls) sees at least that state; each handler gets its notifications in order, from its own
 * unbounded buffer, so a slow or throwing handler delays only itself; an update whose resourceVersion
 * did not change (a resync, or an unchanged object on relist) reaches only the handlers whose own
 * resync period is due. A handler added while the informer runs first receives a synthetic add
 * (isInInitialList true) for every cached object, and nothing it could otherwise miss.
 */
export class SharedIndexInformer<T extends KubeObject = KubeObject> {
  readonly name: string;
  private readonly indexer: CacheStore<T>;
  private readonly processor: SharedProcessor<T>;
  private readonly listerWatcher: ListerWatcher<T>;
  /** The clock of its Reflector and DeltaFIFO: Delta.arrivedAt is told on it. */
  readonly clock: Clock;
  private readonly reportError: HandlerErrorReporter;
  private readonly reflectorTuning?: ReflectorTuning<T>;
  private readonly defaultEventHandlerResyncPeriod: number;
  private checkPeriod: number;
  private controller: InformerController<T> | undefined;
  private started = false;
  private stopped = false;
  private transform: TransformFunc | undefined;
  private watchErrorHandler: WatchErrorHandler | undefined;
  private readonly observers = new Set<DeltaObserver<T>>();
  /** The last phase observers were told (undefined before run). */
  private observedPhase: ReflectorState | undefined;

  constructor(options: SharedIndexInformerOptions<T>) {
    this.name = options.name ?? 'informer';
    this.listerWatcher = options.listerWatcher;
    this.clock = options.clock ?? realClock;
    this.reportError = options.reportError ?? reportToConsole;
    this.reflectorTuning = options.reflector;
    this.transform = options.transform;
    this.defaultEventHandlerResyncPeriod = options.defaultResyncPeriod ?? 0;
    this.checkPeriod = this.defaultEventHandlerResyncPeriod;
    this.indexer = new CacheStore<T>(deletionHandlingMetaNamespaceKeyFunc, options.indexers ?? {});
    this.processor = new SharedProcessor<T>(this.clock);
  }

  /**
   * Lists, watches and delivers until `signal` aborts; resolves once the controller has stopped and
   * every handler's in-flight notification has been handled. An informer runs once: a second call
   * returns at once.
   */
  async run(signal: AbortSignal): Promise<void> {
    if (this.started) return;
    this.controller = new InformerController<T>({
      name: this.name,
      listerWatcher: this.listerWatcher,
      indexer: this.indexer,
      transform: this.transform,
      fullResyncPeriod: this.checkPeriod,
      shouldResync: () => this.processor.shouldResync(),
      process: (deltas, isInInitialList) => this.handleDeltas(deltas, isInInitialList),
      onAppliedPhase: (state) => this.phaseApplied(state),
      watchErrorHandler: this.watchErrorHandler,
      clock: this.clock,
      reportError: this.reportError,
      reflector: this.reflectorTuning,
    });
    this.started = true;
    // The processor stops only after the controller, so every processed delta reaches the handlers'
    // buffers; what is still buffered at that point is dropped, as in client-go.
    const stopProcessor = new AbortController();
    const processorDone = this.processor.run(stopProcessor.signal);
    try {
      await this.controller.run(signal);
    } finally {
      this.stopped = true;
      stopProcessor.abort();
      await processorDone;
    }
  }

  hasStarted(): boolean {
    return this.started;
  }

  /** True once run has returned (or is returning): no handler can be added any more. */
  isStopped(): boolean {
    return this.stopped;
  }

  /** True once the first full list is in the cache. Handlers may lag: ask their registration instead. */
  hasSynced(): boolean {
    return this.controller?.hasSynced() ?? false;
  }

  /** The resourceVersion the cache is known to be current at ("" before the first list). */
  lastSyncResourceVersion(): string {
    return this.controller?.lastSyncResourceVersion() ?? '';
  }

  /**
   * Re-establishes the watch at once (after sleep/resume or a network change): see
   * Reflector.restartWatch. A no-op before run.
   */
  restartWatch(): void {
    this.controller?.restartWatch();
  }

  /**
   * Tells `observer` every change as the cache takes it and the Reflector's phase as the cache
   * reflects it (see DeltaObserver). Added to a running informer, it is told the current phase at
   * once and sees every later change; what the cache already holds it reads from getIndexer().
   */
  addDeltaObserver(observer: DeltaObserver<T>): DeltaObserverRegistration {
    this.observers.add(observer);
    if (this.observedPhase) this.notifyObserver(observer, this.observedPhase);
    return { remove: () => void this.observers.delete(observer) };
  }

  getStore(): Store<T> {
    return this.indexer;
  }

  getIndexer(): Indexer<T> {
    return this.indexer;
  }

  /** The period at which the Reflector asks whether any handler is due for a resync (ms; 0: never). */
  resyncCheckPeriod(): number {
    return this.checkPeriod;
  }

  /**
   * Adds indexes, at any time while the informer has not stopped: cached objects are indexed at once.
   * Throws on a name that is already registered ("indexer conflict: ...").
   */
  addIndexers(indexers: Indexers<T>): void {
    if (this.stopped) throw new Error('indexer was not added because it has stopped already');
    this.indexer.addIndexers(indexers);
  }

  /** Replaces the transform applied as objects enter the queue. Only before run. */
  setTransform(transform: TransformFunc): void {
    this.refuseAfterStart();
    this.transform = transform;
  }

  /** Replaces the handler told about every list/watch failure (default: log). Only before run. */
  setWatchErrorHandler(handler: WatchErrorHandler): void {
    this.refuseAfterStart();
    this.watchErrorHandler = handler;
  }

  /**
   * Registers a handler (the same handler twice gives two registrations). `resyncPeriod` (ms, default
   * the informer's) is raised to 1 s if shorter; before start a period shorter than the check period
   * lowers the check period, after start it is raised to the check period. Throws once stopped.
   */
  addEventHandler(
    handler: ResourceEventHandler<T>,
    resyncPeriod = this.defaultEventHandlerResyncPeriod,
  ): ResourceEventHandlerRegistration {
    if (this.stopped) {
      throw new Error(
        `handler ${describeHandler(handler)} was not added to shared informer because it has stopped already`,
      );
    }
    let period = resyncPeriod;
    if (period > 0) {
      period = Math.max(period, minimumResyncPeriod);
      if (period < this.checkPeriod) {
        if (this.started) {
          period = this.checkPeriod;
        } else {
          this.checkPeriod = period;
          this.processor.resyncCheckPeriodChanged(period);
        }
      }
    }
    const listener = new ProcessorListener<T>(
      handler,
      period,
      determineResyncPeriod(period, this.checkPeriod),
      this.clock.now(),
      {
        clock: this.clock,
        upstreamHasSynced: () => this.hasSynced(),
        reportError: this.reportError,
        description: this.name,
      },
    );
    const registration = this.processor.addListener(listener);
    if (this.started) {
      // Synchronous with handleDeltas, so the handler sees the cache as of now and every later change.
      for (const obj of this.indexer.list()) listener.add({ type: 'add', obj, isInInitialList: true });
    }
    return registration;
  }

  /**
   * Unregisters a handler and drops what it had not yet received. Idempotent; a registration from
   * another informer, or one already removed, is ignored. Resolves once the handler's in-flight
   * notification, if any, has been handled.
   */
  removeEventHandler(registration: ResourceEventHandlerRegistration): Promise<void> {
    return this.processor.removeListener(registration);
  }

  /** True while `registration` is one of this informer's live handlers. */
  isRegistered(registration: ResourceEventHandlerRegistration): boolean {
    return this.processor.getListener(registration) !== undefined;
  }

  /** Live handlers; a stopped informer has none. */
  eventHandlerCount(): number {
    return this.processor.listenerCount();
  }

  /**
   * Applies one key's Deltas, oldest first, to the indexer and then to the handlers (the controller's
   * process function). Added/Updated/Replaced/Sync become an update if the key is cached, else an add;
   * Deleted removes the key and forwards the object or DeletedFinalStateUnknown.
   */
  handleDeltas(deltas: Deltas<T>, isInInitialList: boolean): void {
    for (const delta of deltas) {
      switch (delta.type) {
        case 'Sync':
        case 'Replaced':
        case 'Added':
        case 'Updated': {
          const obj = delta.object as T;
          // Get, then Update or Add, as client-go does, in one lookup (add and update store alike).
          const old = this.indexer.upsert(obj);
          if (old !== undefined) this.distribute({ type: 'update', oldObj: old, newObj: obj });
          else this.distribute({ type: 'add', obj, isInInitialList });
          break;
        }
        case 'Deleted':
          this.indexer.delete(delta.object as T);
          this.distribute({ type: 'delete', obj: delta.object as T | DeletedFinalStateUnknown<T> });
          break;
      }
    }
    for (const observer of this.observers) {
      try {
        observer.observeDeltas(deltas, isInInitialList);
      } catch (error) {
        this.reportError(error, `${this.name}: a delta observer failed`);
      }
    }
    // Observers have read what they would: no cached object keeps the text it was parsed from.
    for (const delta of deltas) forgetObjectText(delta.object);
  }

  private phaseApplied(state: ReflectorState): void {
    this.observedPhase = state;
    for (const observer of this.observers) this.notifyObserver(observer, state);
  }

  private notifyObserver(observer: DeltaObserver<T>, state: ReflectorState): void {
    try {
      observer.observePhase({ ...state });
    } catch (error) {
      this.reportError(error, `${this.name}: a delta observer failed`);
    }
  }

  private distribute(notification: Notification<T>): void {
    const sync =
      notification.type === 'update' &&
      notification.oldObj.metadata?.resourceVersion === notification.newObj.metadata?.resourceVersion;
    this.processor.distribute(notification, sync);
  }

  private refuseAfterStart(): void {
    if (this.started) throw new Error('informer has already started');
  }
}

function describeHandler(handler: object): string {
  const name = handler.constructor?.name;
  return name && name !== 'Object' ? name : 'ResourceEventHandler';
}
