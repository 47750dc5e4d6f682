// What an informer's consumers implement (client-go controller.go's ResourceEventHandler and
// FilteringResourceEventHandler): callbacks for the changes a shared informer fans out.
import type { DeletedFinalStateUnknown } from './keys';

/**
 * Receives notifications from a SharedIndexInformer, one at a time and in order, for one registration.
 * Every method is optional; a missing one drops that kind of notification.
 *
 * - onAdd: an object appeared. `isInInitialList` is true for the objects of the first full list
 *   (and for the synthetic adds a handler receives when it joins a running informer); the
 *   registration's hasSynced turns true only after every such onAdd has returned.
 * - onUpdate: an object changed, or a resync re-sent it (then `oldObj` and `newObj` carry the same
 *   resourceVersion). A relist delivers an onUpdate per surviving object, so handlers must be idempotent.
 * - onDelete: an object went away. When the deletion was inferred from a relist (the watch missed it),
 *   the argument is a DeletedFinalStateUnknown whose `obj` is the last state the cache knew.
 *
 * The objects are the cache's own: read them, never mutate them. A method may return a promise; the
 * next notification waits for it, so one registration sees its notifications strictly in order.
 * A throw (or a rejection) is reported and that notification is skipped; delivery resumes after a pause.
 */
export interface ResourceEventHandler<T = unknown> {
  onAdd?(obj: T, isInInitialList: boolean): void | Promise<void>;
  onUpdate?(oldObj: T, newObj: T): void | Promise<void>;
  onDelete?(obj: T | DeletedFinalStateUnknown<T>): void | Promise<void>;
}

/**
 * Passes only the objects `filter` accepts to `handler`, turning updates that cross the filter's line
 * into adds or deletes, so the inner handler sees a consistent view of the filtered subset:
 * - add: delivered if filter(obj);
 * - update: both pass -> update; only the new one passes -> add (isInInitialList false); only the old
 *   one passes -> delete(old); neither -> nothing;
 * - delete: delivered if filter(obj) (for a tombstone, the filter sees the DeletedFinalStateUnknown).
 */
export class FilteringResourceEventHandler<T = unknown> implements ResourceEventHandler<T> {
  constructor(
    readonly filter: (obj: T | DeletedFinalStateUnknown<T>) => boolean,
    readonly handler: ResourceEventHandler<T>,
  ) {}

  onAdd(obj: T, isInInitialList: boolean): void | Promise<void> {
    if (!this.filter(obj)) return;
    return this.handler.onAdd?.(obj, isInInitialList);
  }

  onUpdate(oldObj: T, newObj: T): void | Promise<void> {
    const newer = this.filter(newObj);
    const older = this.filter(oldObj);
    if (newer && older) return this.handler.onUpdate?.(oldObj, newObj);
    if (newer) return this.handler.onAdd?.(newObj, false);
    if (older) return this.handler.onDelete?.(oldObj);
  }

  onDelete(obj: T | DeletedFinalStateUnknown<T>): void | Promise<void> {
    if (!this.filter(obj)) return;
    return this.handler.onDelete?.(obj);
  }
}

/** What addEventHandler returns: the handle to remove the handler with, and its own sync state. */
export interface ResourceEventHandlerRegistration {
  /**
   * True once the informer has synced and this handler has returned from every initial-list onAdd
   * it was given (client-go's per-registration HasSynced).
   */
  hasSynced(): boolean;
}
