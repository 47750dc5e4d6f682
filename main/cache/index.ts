// The public API of main/cache, the TypeScript port of client-go's tools/cache, under client-go's names
// in camelCase. Import from here; the files behind it are free to move. Helpers that only the port's
// own parts share (the key queue, abort plumbing, one watch's handling, the watch-list stream) stay out.

// Time.
export type { Clock, Timer } from './clock';
export { RealClock, realClock, sleepOn } from './real-clock';
export { FakeClock, flushMicrotasks } from './fake-clock';

// Objects, keys and stores.
export type {
  BookmarkAware,
  KeyFunc,
  KeyListerGetter,
  ReflectorStore,
  Store,
  TransformFunc,
  TransformerAware,
} from './store';
export type { ExplicitKey } from './keys';
export {
  DeletedFinalStateUnknown,
  KeyError,
  deletionHandlingMetaNamespaceKeyFunc,
  metaNamespaceKeyFunc,
  splitMetaNamespaceKey,
} from './keys';
export type { IndexFunc, Indexer, Indexers, Indices } from './indexer';
export { metaNamespaceIndexFunc, namespaceIndex } from './indexer';
export { ThreadSafeStore } from './thread-safe-store';
export { CacheStore, newIndexer, newStore, newStoreWithTransformer } from './cache-store';

// Queues.
export type { Delta, DeltaType, Deltas } from './delta';
export { ErrZeroLengthDeltasObject, ZeroLengthDeltasObjectError, newest, oldest } from './delta';
export type { Queue } from './queue';
export { FIFOClosedError } from './queue';
export type { DeltaFIFOOptions } from './delta-fifo';
export { DeltaFIFO } from './delta-fifo';
export { FIFO } from './fifo';

// Listing and watching.
export type { ListOptions, ListerWatcher, Watcher } from './lister-watcher';
export type { ListPageFunc, ListPagerOptions, PagedListResult } from './pager';
export { ListPager, defaultPageSize } from './pager';
export type { Backoff, DelayHandler, RandomSource } from './backoff';
export {
  defaultBackoffResetMs,
  defaultReflectorBackoff,
  delayWithReset,
  newReflectorDelayHandler,
} from './backoff';
export { RetryWithDeadline } from './retry-with-deadline';
export type { ExpectedType, ReflectorLogger } from './reflector-watch';
export { UnexpectedObjectError, VeryShortWatchError, errorStopRequested } from './reflector-watch';
export type {
  ReflectorIdentity,
  ReflectorOptions,
  ReflectorState,
  ResourceVersionUpdater,
  WatchErrorHandler,
} from './reflector';
export { Reflector, defaultWatchErrorHandler } from './reflector';
export { isWatchErrorRetriable } from './watch-list';

// Shared informers.
export type { ResourceEventHandler, ResourceEventHandlerRegistration } from './resource-event-handler';
export { FilteringResourceEventHandler } from './resource-event-handler';
export type { HandlerErrorReporter, Notification } from './processor-listener';
export { handlerFailurePause, initialBufferSize, reportToConsole } from './processor-listener';
export { determineResyncPeriod, minimumResyncPeriod } from './shared-processor';
export type { InformerControllerOptions, ReflectorTuning } from './controller';
export { InformerController } from './controller';
export type { DeltaObserver, DeltaObserverRegistration } from './delta-observer';
export type { SharedIndexInformerOptions } from './shared-informer';
export { SharedIndexInformer } from './shared-informer';
export type { InformerSynced } from './wait';
export { syncedPollPeriod, waitForCacheSync } from './wait';
export type {
  GenericInformer,
  ListerWatcherFactory,
  SharedInformerFactoryOptions,
  TweakListOptions,
} from './informer-factory';
export { SharedInformerFactory } from './informer-factory';

// Listers.
export type { GenericNamespaceLister, GroupResource, ListSelector } from './lister';
export { GenericLister, listAll, listAllByNamespace, newNotFound } from './lister';
