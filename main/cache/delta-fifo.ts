// client-go's DeltaFIFO (delta_fifo.go), the queue between a Reflector and an informer.
import type { Clock } from './clock';
import type { Delta, DeltaType, Deltas } from './delta';
import { deltaKeyOf, newestObject } from './delta';
import type { FailedReplacement, PreparedReplacement } from './delta-fifo-replacement';
import {
  ReplaceGate,
  dedupDeltas,
  isFailedReplacement,
  queueListed,
  replacement,
} from './delta-fifo-replacement';
import { DeletedFinalStateUnknown, metaNamespaceKeyFunc } from './keys';
import type { Queue } from './queue';
import { Condition, FIFOClosedError, KeyQueue } from './queue';
import { ShardedMap } from './sharded-map';
import type { KeyFunc, KeyListerGetter, TransformFunc, TransformerAware } from './store';
import type { Turns } from './turn-budget';
import type { DeltaFIFOOptions } from './delta-fifo-options';

export type { DeltaFIFOOptions } from './delta-fifo-options';

/**
 * DeltaFIFO solves this use case:
 * - you want to process every object change (delta) at most once;
 * - when you process an object, you want to see everything that happened to it since you last did;
 * - you want to process deletions, including ones missed while the watch was down;
 * - you might want to periodically reprocess objects.
 *
 * Each key accumulates Deltas while it waits in the queue; a key keeps its place in line however many
 * deltas it gathers. Only one merge happens: two trailing Deleted deltas collapse into one, keeping
 * the one that is not a DeletedFinalStateUnknown. A Reflector produces (add, update, delete, replace,
 * resync); one consumer calls pop.
 *
 * Store reads (list, get, getByKey) answer with each key's newest object, a tombstone giving the
 * object it carries; getDeltas and getDeltasByKey give the accumulated Deltas themselves.
 */
export class DeltaFIFO<T = unknown> implements Queue<T, Deltas<T>>, TransformerAware {
  /**
   * Every key in `queue` is in `items` and vice versa; every Deltas here is non-empty. Sharded (see
   * ShardedMap): pops that fall behind a watch at 150,000 pods grow it one key at a time, and one Map
   * rehashed every queued key in one add past 65,536. Its order is a Go map's: the queue's is pop's.
   */
  private items = new ShardedMap<Deltas<T>>();
  private readonly queue = new KeyQueue();
  private readonly itemQueued = new Condition();
  /** True once the first replace, or any add/update/delete, has happened. */
  private populated = false;
  /** How many keys of the first replace are still to be popped. */
  private initialPopulationCount = 0;
  private closed = false;
  /** Shut while a replaceInTurns is under way: pops wait, and mutators wait their turn. */
  private readonly gate = new ReplaceGate();
  private readonly keyFunction: KeyFunc<T>;
  private readonly knownObjects?: KeyListerGetter<T>;
  private readonly emitDeltaTypeReplaced: boolean;
  private readonly transform?: TransformFunc;
  private readonly arrivalClock?: Clock;

  constructor(options: DeltaFIFOOptions<T> = {}) {
    this.keyFunction = options.keyFunction ?? metaNamespaceKeyFunc;
    this.knownObjects = options.knownObjects;
    this.emitDeltaTypeReplaced = options.emitDeltaTypeReplaced ?? false;
    this.transform = options.transformer;
    this.arrivalClock = options.arrivalClock;
  }

  /**
   * The key of an object, of a DeletedFinalStateUnknown (its key) or of a Deltas (its newest object's).
   * Throws a KeyError, whose cause is a ZeroLengthDeltasObjectError for an empty Deltas.
   */
  keyOf(obj: T | DeletedFinalStateUnknown<T> | Deltas<T>): string {
    return deltaKeyOf(this.keyFunction, obj);
  }

  add(obj: T): void {
    if (this.gate.defer(() => this.add(obj))) return;
    this.populated = true;
    this.queueAction('Added', obj, true);
  }

  update(obj: T): void {
    if (this.gate.defer(() => this.update(obj))) return;
    this.populated = true;
    this.queueAction('Updated', obj, true);
  }

  /**
   * Queues a Deleted delta, unless the key is neither queued nor known to the consumer: then the
   * deletion was already reported (by a replace, say) and a second report would be noise.
   */
  delete(obj: T | DeletedFinalStateUnknown<T>): void {
    if (this.gate.defer(() => this.delete(obj))) return;
    const key = this.keyOf(obj);
    this.populated = true;
    if (!this.items.has(key) && (!this.knownObjects || this.knownObjects.getByKey(key) === undefined)) return;
    this.queueAction('Deleted', obj, true);
  }

  /**
   * A relist: queues Replaced (or Sync) for every object in `list`, then a Deleted tombstone for every
   * key that is queued, or known with nothing queued, but absent from `list`. The tombstone carries the
   * newest state this queue or the consumer has. The first replace sets how many pops make the queue
   * synced. `resourceVersion` is not kept. If an object cannot be keyed or transformed, the objects
   * before it stay queued and the error is thrown, as client-go's Replace returns it.
   */
  replace(list: T[], _resourceVersion: string): void {
    if (this.gate.defer(() => this.replace(list, _resourceVersion))) return;
    const steps = this.replacementOf(list);
    for (let step = steps.next(); ; step = steps.next()) if (step.done) return this.commit(step.value);
  }

  /**
   * replace in steps (Kubetide's addition, see delta-fifo-replacement.ts), a turn's worth at a time.
   * Until its one-step commit, pops wait, reads see the old queue and mutators are held for after it.
   * Undefined if it committed at once, else a promise: true once committed, false if `signal` aborted
   * first (nothing replaced). Throws (or rejects) as replace does.
   */
  replaceInTurns(
    list: T[],
    _resourceVersion: string,
    turn: Turns,
    signal: AbortSignal,
  ): Promise<boolean> | undefined {
    if (this.gate.shut) throw new Error('DeltaFIFO: a replace is already under way');
    const wake = () => this.itemQueued.broadcast();
    return this.gate.run(this.replacementOf(list), turn, signal, (done) => this.commit(done), wake);
  }

  private replacementOf(list: T[]) {
    return replacement<T>(
      {
        items: this.items,
        queuedKeys: () => this.queue.toArray(),
        keyOf: (obj) => this.keyOf(obj),
        transform: this.transform,
        knownObjects: this.knownObjects,
        action: this.emitDeltaTypeReplaced ? 'Replaced' : 'Sync',
        // The whole list arrived at once.
        arrivedAt: this.arrivalClock?.now(),
      },
      list,
    );
  }

  /** Swaps the prepared queue in; a failed one queues what was listed before the failure, and throws. */
  private commit(result: PreparedReplacement<T> | FailedReplacement<T>): void {
    if (isFailedReplacement(result)) {
      if (queueListed(result, this.items, this.queue)) this.itemQueued.broadcast();
      throw result.error;
    }
    this.items = result.items;
    this.queue.reset(result.keys);
    if (!this.populated) {
      this.populated = true;
      this.initialPopulationCount = result.listedCount + result.queuedDeletions;
    }
    if (result.keys.length > 0) this.itemQueued.broadcast();
  }

  /**
   * Queues a Sync for every known object with nothing queued. A queued delta already carries a newer
   * state than the consumer's copy, and a Sync behind it would send the consumer back in time.
   */
  resync(): void {
    if (!this.knownObjects || this.gate.defer(() => this.resync())) return;
    for (const key of this.knownObjects.listKeys()) {
      const obj = this.knownObjects.getByKey(key);
      if (obj === undefined) continue;
      if (this.items.has(this.keyOf(obj))) continue;
      this.queueAction('Sync', obj, false);
    }
  }

  async pop(process: (item: Deltas<T>, isInInitialList: boolean) => void): Promise<Deltas<T>> {
    for (;;) {
      // A replace under way holds pops as client-go's lock does, closed or not: its commit or
      // abandonment broadcasts.
      while (this.gate.shut || this.queue.length === 0) {
        if (this.closed && !this.gate.shut) throw new FIFOClosedError();
        await this.itemQueued.wait();
      }
      const deltas = this.popQueued(process);
      if (deltas !== undefined) return deltas;
    }
  }

  /**
   * pop without the wait: processes and returns the head if a key is queued, else returns undefined
   * at once (closed or not). A consumer draining a burst pays one await per burst, not one per item.
   * If `process` throws, the error propagates and the item is not requeued, as with pop.
   */
  popQueued(process: (item: Deltas<T>, isInInitialList: boolean) => void): Deltas<T> | undefined {
    while (this.queue.length > 0 && !this.gate.shut) {
      const isInInitialList = !this.hasSynced();
      const key = this.queue.shift() as string;
      if (this.initialPopulationCount > 0) this.initialPopulationCount--;
      const deltas = this.items.get(key);
      if (deltas === undefined) continue;
      this.items.delete(key);
      process(deltas, isInInitialList);
      return deltas;
    }
    return undefined;
  }

  hasSynced(): boolean {
    return this.populated && this.initialPopulationCount === 0;
  }

  close(): void {
    this.closed = true;
    this.itemQueued.broadcast();
  }

  isClosed(): boolean {
    return this.closed;
  }

  /** Each queued key's newest object (a tombstone's carried object; none if it carries nothing). */
  list(): T[] {
    const result: T[] = [];
    for (const deltas of this.items.values()) {
      const obj = newestObject(deltas);
      if (obj !== undefined) result.push(obj);
    }
    return result;
  }

  /** How many keys are queued (listKeys().length without the copy: 150,000 keys were 18 ms). */
  queuedCount(): number {
    return this.queue.length;
  }

  /** The queued keys, in the order pop will take them. */
  listKeys(): string[] {
    return this.queue.toArray();
  }

  get(obj: T): T | undefined {
    return this.getByKey(this.keyOf(obj));
  }

  getByKey(key: string): T | undefined {
    const deltas = this.items.get(key);
    return deltas ? newestObject(deltas) : undefined;
  }

  /** A copy of the Deltas queued for `obj`'s key (client-go's DeltaFIFO.Get). */
  getDeltas(obj: T | DeletedFinalStateUnknown<T> | Deltas<T>): Deltas<T> | undefined {
    return this.getDeltasByKey(this.keyOf(obj));
  }

  getDeltasByKey(key: string): Deltas<T> | undefined {
    const deltas = this.items.get(key);
    return deltas ? deltas.slice() : undefined;
  }

  transformer(): TransformFunc | undefined {
    return this.transform;
  }

  /**
   * Appends a delta to the key's Deltas (queuing a new key at the tail) and returns the key.
   * `transform` is false for objects that already went through the transformer; `arrivedAt` is
   * undefined without an arrival clock.
   */
  private queueAction(
    type: DeltaType,
    obj: T | DeletedFinalStateUnknown<T>,
    transform: boolean,
    arrivedAt = this.arrivalClock?.now(),
  ): string {
    const key = this.keyOf(obj);
    const transformer = transform && !(obj instanceof DeletedFinalStateUnknown) ? this.transform : undefined;
    const object = transformer ? (transformer(obj) as T) : obj;
    const delta: Delta<T> = arrivedAt === undefined ? { type, object } : { type, object, arrivedAt };
    const deltas = this.items.get(key);
    if (deltas === undefined) {
      this.items.set(key, [delta]);
      this.queue.push(key);
    } else {
      deltas.push(delta);
      dedupDeltas(deltas);
    }
    this.itemQueued.broadcast();
    return key;
  }
}
