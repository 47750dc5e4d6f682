// client-go's FIFO (fifo.go): a queue that keeps only the latest version of each object.
import { KeyError } from './keys';
import type { Queue } from './queue';
import { Condition, FIFOClosedError, KeyQueue } from './queue';
import type { KeyFunc } from './store';

/**
 * FIFO solves this use case:
 * - you want to process every object (exactly) once;
 * - you want to process its most recent version when you process it;
 * - you do not want to process deleted objects: they leave the queue;
 * - you do not want to periodically reprocess objects.
 *
 * Adding a queued key replaces its object and keeps its place in line. Delete removes the object; its
 * stale key is skipped by pop. Compare DeltaFIFO, which keeps every change and reports deletions.
 */
export class FIFO<T> implements Queue<T> {
  /** Every key in `items` is also in `queue`; `queue` may hold keys deleted since they were queued. */
  private items = new Map<string, T>();
  private readonly queue = new KeyQueue();
  private readonly itemQueued = new Condition();
  /** True once the first replace, or any add/update/delete, has happened. */
  private populated = false;
  /** How many keys of the first replace are still to be popped (skipped stale keys count too). */
  private initialPopulationCount = 0;
  private closed = false;

  constructor(private readonly keyFunction: KeyFunc<T>) {}

  add(obj: T): void {
    const key = this.keyOf(obj);
    this.populated = true;
    if (!this.items.has(key)) this.queue.push(key);
    this.items.set(key, obj);
    this.itemQueued.broadcast();
  }

  update(obj: T): void {
    this.add(obj);
  }

  /** Forgets the object; its key stays queued and is skipped when it reaches the head. */
  delete(obj: T): void {
    const key = this.keyOf(obj);
    this.populated = true;
    this.items.delete(key);
  }

  list(): T[] {
    return Array.from(this.items.values());
  }

  listKeys(): string[] {
    return Array.from(this.items.keys());
  }

  get(obj: T): T | undefined {
    return this.items.get(this.keyOf(obj));
  }

  getByKey(key: string): T | undefined {
    return this.items.get(key);
  }

  /** Swaps in `list` as the whole contents and queues exactly its keys. */
  replace(list: T[], _resourceVersion: string): void {
    const items = new Map<string, T>();
    for (const obj of list) items.set(this.keyOf(obj), obj);
    if (!this.populated) {
      this.populated = true;
      this.initialPopulationCount = items.size;
    }
    this.items = items;
    this.queue.reset(Array.from(items.keys()));
    if (items.size > 0) this.itemQueued.broadcast();
  }

  /** Queues any stored key that is not queued. Every operation keeps that true already. */
  resync(): void {
    const queued = new Set(this.queue.toArray());
    for (const key of this.items.keys()) if (!queued.has(key)) this.queue.push(key);
    if (this.queue.length > 0) this.itemQueued.broadcast();
  }

  async pop(process: (item: T, isInInitialList: boolean) => void): Promise<T> {
    for (;;) {
      while (this.queue.length === 0) {
        if (this.closed) throw new FIFOClosedError();
        await this.itemQueued.wait();
      }
      const isInInitialList = !this.hasSynced();
      const key = this.queue.shift() as string;
      if (this.initialPopulationCount > 0) this.initialPopulationCount--;
      if (!this.items.has(key)) continue;
      const item = this.items.get(key) as T;
      this.items.delete(key);
      process(item, isInInitialList);
      return item;
    }
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

  private keyOf(obj: T): string {
    try {
      return this.keyFunction(obj);
    } catch (error) {
      if (error instanceof KeyError) throw error;
      throw new KeyError(obj, error);
    }
  }
}
