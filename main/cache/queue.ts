// What an informer's controller consumes (client-go controller.go's Queue): a Store that a Reflector
// fills, drained one item at a time by pop. DeltaFIFO and FIFO implement it; a RealFIFO can too.
import type { Store } from './store';

/** Raised by pop once the queue is closed: the consumer should stop. */
export class FIFOClosedError extends Error {
  constructor() {
    super('DeltaFIFO: manipulating with closed queue');
    this.name = 'FIFOClosedError';
  }
}

/**
 * A producer/consumer queue with Store semantics for producers.
 * `T` is what producers add; `Item` is what pop hands out (Deltas<T> for a DeltaFIFO, T for a FIFO).
 */
export interface Queue<T, Item = T> extends Store<T> {
  /**
   * Waits until an item is queued, removes the head and calls `process` on it synchronously, before
   * the returned promise settles. The item is not requeued whatever `process` does; if `process`
   * throws, the promise rejects with that error.
   * `isInInitialList` is true while the queue has not yet synced, counting the popped item itself.
   * Rejects with FIFOClosedError when the queue is closed and empty; queued items still drain.
   */
  pop(process: (item: Item, isInInitialList: boolean) => void): Promise<Item>;
  /**
   * True once every key of the first replace has been popped, or at once if an add, update or delete
   * came before any replace. Stays true.
   */
  hasSynced(): boolean;
  /** Closes the queue: every pop waiting on it, and every later pop on an empty queue, rejects. */
  close(): void;
  isClosed(): boolean;
}

/**
 * Keys in arrival order with O(1) removal from the head (Array.shift is O(n), which makes draining
 * an initial list of 150,000 keys quadratic). The consumed prefix is dropped once it outweighs the rest.
 */
export class KeyQueue {
  private keys: string[] = [];
  private head = 0;

  get length(): number {
    return this.keys.length - this.head;
  }

  push(key: string): void {
    this.keys.push(key);
  }

  /** Removes and returns the oldest key, or undefined when empty. */
  shift(): string | undefined {
    if (this.head >= this.keys.length) return undefined;
    const key = this.keys[this.head++];
    if (this.head === this.keys.length) {
      this.keys = [];
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.keys.length) {
      this.keys = this.keys.slice(this.head);
      this.head = 0;
    }
    return key;
  }

  /** The queued keys, oldest first (a copy). */
  toArray(): string[] {
    return this.keys.slice(this.head);
  }

  /** Replaces the contents with `keys`, taking ownership of the array. */
  reset(keys: string[]): void {
    this.keys = keys;
    this.head = 0;
  }
}

/** sync.Cond's Broadcast for promises: wait() settles at the next broadcast(), waking every waiter. */
export class Condition {
  private waiters: Array<() => void> = [];

  wait(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  broadcast(): void {
    if (this.waiters.length === 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
