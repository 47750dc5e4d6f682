// A DeltaFIFO's Replace prepared off the queue, a step at a time (Kubetide's addition). client-go's
// Replace is one call under the queue's lock: at 150,000 pods it held the main thread for 0.3 s of
// CPU (0.7-2.3 s of wall time on a loaded machine), and a blocked main process freezes every window.
// Here the same result is built beside the queue, one object (or one known key) per step, so a caller
// can spread the steps over turns of the event loop, and the queue takes it in one short commit:
// the prepared table and key order are swapped in whole.
//
// The invariant that makes it client-go's Replace: every step reads only what cannot change until the
// commit. The listed objects' keys, transforms and deltas depend on nothing queued; what is queued and
// what the consumer knows (knownObjects, an informer's indexer) change only by the queue's own
// mutators and pops, which the queue holds back while a replacement is under way (Pop waits as it
// waits for client-go's lock, a mutator runs after the commit), so the queue's state and the known
// keys read at any step are those at the commit, when client-go's Replace would have read them.
import type { Delta, DeltaType, Deltas } from './delta';
import { newestObject } from './delta';
import { DeletedFinalStateUnknown } from './keys';
import type { KeyListerGetter, TransformFunc } from './store';
import type { KeyQueue } from './queue';
import { ShardedMap } from './sharded-map';
import type { Turns } from './turn-budget';

/** What a replacement reads of its queue; `items` and `queuedKeys` must not change until commit. */
export interface ReplacedQueue<T> {
  items: ShardedMap<Deltas<T>>;
  /** The queued keys in pop order (a copy the replacement may keep). */
  queuedKeys(): string[];
  keyOf(obj: T | DeletedFinalStateUnknown<T>): string;
  transform?: TransformFunc;
  knownObjects?: KeyListerGetter<T>;
  action: DeltaType;
  arrivedAt: number | undefined;
}

/** The queue after the replace, ready to be swapped in. */
export interface PreparedReplacement<T> {
  items: ShardedMap<Deltas<T>>;
  /** Every key of `items`, in pop order. */
  keys: string[];
  /** Distinct keys in the list. */
  listedCount: number;
  /** Tombstones queued for keys queued or known but not listed. */
  queuedDeletions: number;
}

/**
 * Listing failed at an object (its key or transform threw): client-go's Replace returns that error
 * with the objects before it already queued, and nothing else done. `listed` and `order` hold those.
 */
export interface FailedReplacement<T> {
  error: unknown;
  listed: ShardedMap<Deltas<T>>;
  /** The listed keys in first-listed order. */
  order: string[];
}

/**
 * The steps of a Replace of `queue` by `list`: yields after each object or key read, returns the prepared
 * queue (or, when an object could not be keyed or transformed, what was listed before it). Abandoning
 * it (return()) leaves the queue untouched.
 */
export function* replacement<T>(
  queue: ReplacedQueue<T>,
  list: readonly T[],
): Generator<void, PreparedReplacement<T> | FailedReplacement<T>, void> {
  const { action, arrivedAt, transform } = queue;
  const delta = (type: DeltaType, object: T | DeletedFinalStateUnknown<T>): Delta<T> =>
    arrivedAt === undefined ? { type, object } : { type, object, arrivedAt };

  // The listed objects, as client-go's Replace queues them first: each key's deltas in list order,
  // the keys in first-listed order (a key listed twice keeps both deltas; Replaced never dedups).
  const listed = new ShardedMap<Deltas<T>>();
  const order: string[] = [];
  for (const obj of list) {
    try {
      const key = queue.keyOf(obj);
      // A tombstone was transformed when it was first queued (client-go skips it likewise).
      const object = transform && !(obj instanceof DeletedFinalStateUnknown) ? (transform(obj) as T) : obj;
      const deltas = listed.get(key);
      if (deltas) deltas.push(delta(action, object));
      else {
        listed.set(key, [delta(action, object)]);
        order.push(key);
      }
    } catch (error) {
      return { error, listed, order };
    }
    yield;
  }
  const listedCount = listed.size;

  // Keys already queued keep their place, their deltas followed by the listed ones, or by a tombstone
  // carrying their newest state when not listed. New deltas go on copies: until the commit, the
  // queue's own Deltas are what its readers see.
  let keys = order;
  let queuedDeletions = 0;
  if (queue.items.size > 0) {
    keys = queue.queuedKeys();
    for (const key of keys) {
      const queued = queue.items.get(key)!;
      const fromList = listed.get(key);
      if (fromList) listed.set(key, queued.concat(fromList));
      else {
        const deltas = queued.slice();
        deltas.push(delta('Deleted', new DeletedFinalStateUnknown<T>(key, newestObject(queued))));
        dedupDeltas(deltas);
        listed.set(key, deltas);
        queuedDeletions++;
      }
      yield;
    }
    for (const key of order) {
      if (!queue.items.has(key)) keys.push(key);
      yield;
    }
  }

  // Known keys neither listed nor queued: deleted while the watch was down.
  const known = queue.knownObjects;
  if (known) {
    // A relist of 150,000 known keys reads every one: a step each, listed or not.
    for (const key of known.listKeys()) {
      if (!listed.has(key)) {
        listed.set(key, [delta('Deleted', new DeletedFinalStateUnknown<T>(key, known.getByKey(key)))]);
        keys.push(key);
        queuedDeletions++;
      }
      yield;
    }
  }
  return { items: listed, keys, listedCount, queuedDeletions };
}

/**
 * Runs `steps` to their end, synchronously while `turn.spend()` allows, then a turn at a time: their
 * value at once when no turn ended, else a promise of it, or of undefined once `signal` aborted
 * between turns (the steps abandoned).
 */
export function runInTurns<R>(
  steps: Generator<void, R, void>,
  turn: Turns,
  signal: AbortSignal,
): { value: R } | Promise<{ value: R } | undefined> {
  let step = steps.next();
  while (!step.done && !turn.spend()) step = steps.next();
  if (step.done) return { value: step.value };
  return (async () => {
    while (!step.done) {
      await turn.nextTurn();
      if (signal.aborted) {
        steps.return(undefined as never);
        return undefined;
      }
      step = steps.next();
      while (!step.done && !turn.spend()) step = steps.next();
    }
    return { value: step.value };
  })();
}

/**
 * What client-go's Replace leaves when it fails: the objects listed before the failure queued, in
 * place, nothing else done. True if anything was queued.
 */
export function queueListed<T>(
  failed: FailedReplacement<T>,
  items: ShardedMap<Deltas<T>>,
  queue: KeyQueue,
): boolean {
  for (const key of failed.order) {
    const listed = failed.listed.get(key)!;
    const deltas = items.get(key);
    if (deltas) deltas.push(...listed);
    else {
      items.set(key, listed);
      queue.push(key);
    }
  }
  return failed.order.length > 0;
}

/**
 * A DeltaFIFO's lock for a replace in turns, as client-go's Replace holds the queue's lock: shut from
 * its first step to its commit, while pops wait and mutators are deferred, to run after it in order.
 */
export class ReplaceGate {
  private deferred: (() => void)[] | undefined;

  get shut(): boolean {
    return this.deferred !== undefined;
  }

  /** While shut, keeps `call` for after the commit (true); else false. */
  defer(call: () => void): boolean {
    this.deferred?.push(call);
    return this.deferred !== undefined;
  }

  /**
   * Runs `steps` (runInTurns) with the gate shut, hands their value to `commit` once it opens, then
   * calls `wake` and the deferred calls, whatever `commit` did. Undefined when the steps ended without
   * a turn; else a promise of true once committed, false if `signal` aborted first (no commit).
   */
  run<R>(
    steps: Generator<void, R, void>,
    turn: Turns,
    signal: AbortSignal,
    commit: (value: R) => void,
    wake: () => void,
  ): Promise<boolean> | undefined {
    // Shut from the first step: a turn's end may run other work before the promise is returned.
    const deferred: (() => void)[] = (this.deferred = []);
    const open = (done: { value: R } | undefined) => {
      this.deferred = undefined;
      try {
        if (done) commit(done.value);
      } finally {
        wake();
        for (const call of deferred) call();
      }
      return done !== undefined;
    };
    let run;
    try {
      run = runInTurns(steps, turn, signal);
    } catch (error) {
      open(undefined);
      throw error;
    }
    if (!(run instanceof Promise)) return void open(run);
    return run.then(open, (error: unknown) => {
      open(undefined);
      throw error;
    });
  }
}

export function isFailedReplacement<T>(
  result: PreparedReplacement<T> | FailedReplacement<T>,
): result is FailedReplacement<T> {
  return 'error' in result;
}

/**
 * Re-listing and watching can report one deletion twice. If the last two deltas are both Deleted,
 * keep one: the newer if the older is a tombstone (the newer knows more), else the older.
 */
export function dedupDeltas<T>(deltas: Deltas<T>): void {
  const count = deltas.length;
  if (count < 2) return;
  const newer = deltas[count - 1];
  const older = deltas[count - 2];
  if (newer.type !== 'Deleted' || older.type !== 'Deleted') return;
  if (older.object instanceof DeletedFinalStateUnknown) deltas[count - 2] = newer;
  deltas.length = count - 1;
}
