// What a DeltaFIFO is built with (delta-fifo.ts).
import type { Clock } from './clock';
import type { KeyFunc, KeyListerGetter, TransformFunc } from './store';

export interface DeltaFIFOOptions<T> {
  /** Names objects; the default is metaNamespaceKeyFunc. keyOf adds Deltas and tombstone handling. */
  keyFunction?: KeyFunc<T>;
  /**
   * What the consumer already knows (an informer passes its indexer). Without it, replace cannot
   * report deletions of objects the consumer has already processed, and resync does nothing.
   */
  knownObjects?: KeyListerGetter<T>;
  /** Emit Replaced (not Sync) for replace() items, so consumers can tell a relist from a resync. */
  emitDeltaTypeReplaced?: boolean;
  /**
   * Runs once on every object as it is enqueued by add, update, delete or replace, never on tombstones
   * or on resync's Sync deltas (those objects were transformed when they first came in). It may mutate
   * in place. It runs on the hot path of every event, so it must be cheap.
   */
  transformer?: TransformFunc;
  /**
   * Kubetide's addition: stamps each delta with when it was queued (Delta.arrivedAt), so that an
   * observer of the popped deltas can tell when each change arrived, however long it waited.
   */
  arrivalClock?: Clock;
}
