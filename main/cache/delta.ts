// The unit a DeltaFIFO queues: what happened to one object (client-go delta_fifo.go's Delta/Deltas).
import { DeletedFinalStateUnknown, KeyError } from './keys';
import type { KeyFunc } from './store';

/**
 * Why a Delta was queued.
 * - Added / Updated / Deleted: a watch event (or a direct store call) said so.
 * - Replaced: a relist (Replace) contained the object; emitted only when the queue was built with
 *   emitDeltaTypeReplaced, so consumers can tell a relist from a periodic resync.
 * - Sync: a periodic resync re-sent a known object, or a relist did without emitDeltaTypeReplaced.
 */
export type DeltaType = 'Added' | 'Updated' | 'Deleted' | 'Replaced' | 'Sync';

/**
 * One change. `object` is the object's state after the change; for a Deleted it is the last state
 * seen, or a DeletedFinalStateUnknown when the deletion was inferred from a relist.
 */
export interface Delta<T = unknown> {
  readonly type: DeltaType;
  readonly object: T | DeletedFinalStateUnknown<T>;
  /**
   * Kubetide's addition: when the DeltaFIFO queued it (its clock's ms), set only by a queue given an
   * arrival clock. A delta waits in the queue until it is popped; what it records happened then.
   */
  readonly arrivedAt?: number;
}

/** The changes queued for one key, oldest first. Never empty once popped from a DeltaFIFO. */
export type Deltas<T = unknown> = Delta<T>[];

/** The most recent delta, or undefined for an empty list. */
export function newest<T>(deltas: Deltas<T>): Delta<T> | undefined {
  return deltas.length === 0 ? undefined : deltas[deltas.length - 1];
}

/** The least recent delta, or undefined for an empty list. */
export function oldest<T>(deltas: Deltas<T>): Delta<T> | undefined {
  return deltas.length === 0 ? undefined : deltas[0];
}

/** The newest delta's object, a tombstone's carried one (undefined if it carries none). */
export function newestObject<T>(deltas: Deltas<T>): T | undefined {
  const object = deltas[deltas.length - 1].object;
  return object instanceof DeletedFinalStateUnknown ? object.obj : object;
}

/** Raised when a key is asked of an empty Deltas: it has no newest object to name it by. */
export class ZeroLengthDeltasObjectError extends Error {
  constructor() {
    super("0 length Deltas object; can't get key");
    this.name = 'ZeroLengthDeltasObjectError';
  }
}

/** client-go's name for the same error (use with instanceof). */
export const ErrZeroLengthDeltasObject = ZeroLengthDeltasObjectError;

/**
 * A DeltaFIFO's KeyOf: the key of an object, of a DeletedFinalStateUnknown (its key) or of a Deltas
 * (its newest object's). Throws a KeyError, whose cause is a ZeroLengthDeltasObjectError for an empty
 * Deltas.
 */
export function deltaKeyOf<T>(
  keyFunction: KeyFunc<T>,
  obj: T | DeletedFinalStateUnknown<T> | Deltas<T>,
): string {
  let target: unknown = obj;
  if (Array.isArray(obj)) {
    if (obj.length === 0) throw new KeyError(obj, new ZeroLengthDeltasObjectError());
    target = (obj[obj.length - 1] as Delta<T>).object;
  }
  if (target instanceof DeletedFinalStateUnknown) return target.key;
  try {
    return keyFunction(target as T);
  } catch (error) {
    if (error instanceof KeyError) throw error;
    throw new KeyError(target, error);
  }
}
