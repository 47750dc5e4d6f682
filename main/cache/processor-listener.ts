// One registration's delivery line (client-go shared_informer.go's processorListener): an unbounded
// buffer between the informer, which must never wait for a handler, and the handler, which is called
// one notification at a time, asynchronously, in order.
import type { Clock } from './clock';
import { TurnBudget } from './turn-budget';
import type { DeletedFinalStateUnknown } from './keys';
import { deletionHandlingMetaNamespaceKeyFunc } from './keys';
import type { ResourceEventHandler, ResourceEventHandlerRegistration } from './resource-event-handler';

export type Notification<T> =
  | { readonly type: 'add'; readonly obj: T; readonly isInInitialList: boolean }
  | { readonly type: 'update'; readonly oldObj: T; readonly newObj: T }
  | { readonly type: 'delete'; readonly obj: T | DeletedFinalStateUnknown<T> };

/** Told about every handler failure; `context` names the handler and the notification. */
export type HandlerErrorReporter = (error: unknown, context: string) => void;

export const reportToConsole: HandlerErrorReporter = (error, context) => {
  console.error(`${context}:`, error);
};

/** client-go's processorListener initial ring size. */
export const initialBufferSize = 1024;

/** After a handler throws, its stream resumes this long later (client-go's 1 s wait.Until after a panic). */
export const handlerFailurePause = 1000;

/**
 * Notifications delivered back to back before the loop yields to I/O (a turn also ends at turnBudgetMs), so a
 * large list cannot starve it.
 */
const deliveriesPerTurn = 1000;

/**
 * A FIFO of notifications in a power-of-two ring that doubles when full (client-go's
 * buffer.RingGrowing): no bound, no per-item allocation, no O(n) shift.
 */
export class RingGrowing<Item> {
  private items: (Item | undefined)[];
  private head = 0;
  private count = 0;
  private readonly initialSize: number;

  constructor(initialSize: number) {
    this.initialSize = Math.max(1, initialSize);
    this.items = new Array<Item | undefined>(this.initialSize);
  }

  get length(): number {
    return this.count;
  }

  writeOne(item: Item): void {
    if (this.count === this.items.length) {
      const grown = new Array<Item | undefined>(this.items.length * 2);
      for (let index = 0; index < this.count; index++) {
        grown[index] = this.items[(this.head + index) % this.items.length];
      }
      this.items = grown;
      this.head = 0;
    }
    this.items[(this.head + this.count) % this.items.length] = item;
    this.count++;
  }

  readOne(): Item | undefined {
    if (this.count === 0) return undefined;
    const item = this.items[this.head];
    this.items[this.head] = undefined;
    this.head = (this.head + 1) % this.items.length;
    this.count--;
    return item;
  }

  /** Empties the ring and gives back the memory it grew into. */
  clear(): void {
    this.items = new Array<Item | undefined>(this.initialSize);
    this.head = 0;
    this.count = 0;
  }
}

export interface ProcessorListenerOptions {
  clock: Clock;
  /** The informer's own hasSynced: a registration cannot be synced before its informer is. */
  upstreamHasSynced: () => boolean;
  reportError?: HandlerErrorReporter;
  bufferSize?: number;
  /** Names the informer in error reports. */
  description?: string;
}

/**
 * Buffers notifications for one handler and delivers them once started. `add` never blocks and never
 * calls the handler itself: delivery runs on later turns of the event loop, so a slow or throwing
 * handler delays only its own stream. Once stopped, the buffer is dropped and nothing more is delivered.
 *
 * It also tracks the handler's resync schedule: `resyncPeriod` is `requestedResyncPeriod` adjusted to the
 * informer's resync check period (0 when the informer does not resync).
 */
export class ProcessorListener<T> implements ResourceEventHandlerRegistration {
  private readonly buffer: RingGrowing<Notification<T>>;
  private readonly clock: Clock;
  private readonly upstreamHasSynced: () => boolean;
  private readonly reportError: HandlerErrorReporter;
  private readonly description: string;
  /** Initial-list adds queued but not yet returned from (client-go's synctrack.SingleFileTracker). */
  private initialAddsPending = 0;
  private started = false;
  private stopped = false;
  private delivering: Promise<void> | undefined;
  private readonly stopSignal = new AbortController();
  private nextResync = 0;

  constructor(
    readonly handler: ResourceEventHandler<T>,
    readonly requestedResyncPeriod: number,
    public resyncPeriod: number,
    now: number,
    options: ProcessorListenerOptions,
  ) {
    this.buffer = new RingGrowing(options.bufferSize ?? initialBufferSize);
    this.clock = options.clock;
    this.upstreamHasSynced = options.upstreamHasSynced;
    this.reportError = options.reportError ?? reportToConsole;
    this.description = options.description ?? 'informer';
    this.determineNextResync(now);
  }

  /** Queues a notification; ignored once stopped. */
  add(notification: Notification<T>): void {
    if (this.stopped) return;
    if (notification.type === 'add' && notification.isInInitialList) this.initialAddsPending++;
    this.buffer.writeOne(notification);
    this.scheduleDelivery();
  }

  /** Starts delivering what was and will be added. */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.scheduleDelivery();
  }

  /**
   * Drops the buffered notifications and ends delivery. Resolves once the notification in flight, if
   * any, has been handled (for a handler returning a promise, once that promise settles).
   */
  stop(): Promise<void> {
    if (!this.stopped) {
      this.stopped = true;
      this.buffer.clear();
      this.stopSignal.abort();
    }
    return this.delivering ?? Promise.resolve();
  }

  isStopped(): boolean {
    return this.stopped;
  }

  hasSynced(): boolean {
    return this.initialAddsPending === 0 && this.upstreamHasSynced();
  }

  /** Notifications buffered and not yet handed to the handler. */
  pendingCount(): number {
    return this.buffer.length;
  }

  /** True when the handler resyncs and `now` has reached its next resync time. */
  shouldResync(now: number): boolean {
    return this.resyncPeriod !== 0 && now >= this.nextResync;
  }

  determineNextResync(now: number): void {
    this.nextResync = now + this.resyncPeriod;
  }

  setResyncPeriod(resyncPeriod: number): void {
    this.resyncPeriod = resyncPeriod;
  }

  private scheduleDelivery(): void {
    if (!this.started || this.stopped || this.delivering) return;
    this.delivering = this.deliverAll().finally(() => {
      this.delivering = undefined;
      if (this.buffer.length > 0) this.scheduleDelivery();
    });
  }

  private async deliverAll(): Promise<void> {
    // Never call the handler from inside add(): the informer is in the middle of handleDeltas.
    await Promise.resolve();
    const turn = new TurnBudget(this.clock, deliveriesPerTurn);
    while (!this.stopped && this.buffer.length > 0) {
      const notification = this.buffer.readOne() as Notification<T>;
      // A handler that returns nothing is not awaited: one promise per notification would be the
      // main cost of a busy watch. One that returns a promise is awaited before the next notification.
      const outcome = this.deliver(notification);
      const failed = outcome === true || (outcome !== false && (await outcome));
      if (failed && !this.stopped) {
        await this.clock.sleep(handlerFailurePause, this.stopSignal.signal).catch(() => undefined);
      }
      if (turn.spend()) await turn.nextTurn();
    }
  }

  /** Calls the handler; true when it threw, a promise of that when the handler returned a promise. */
  private deliver(notification: Notification<T>): boolean | Promise<boolean> {
    let result: unknown;
    try {
      switch (notification.type) {
        case 'add':
          result = this.handler.onAdd?.(notification.obj, notification.isInInitialList);
          break;
        case 'update':
          result = this.handler.onUpdate?.(notification.oldObj, notification.newObj);
          break;
        case 'delete':
          result = this.handler.onDelete?.(notification.obj);
          break;
      }
    } catch (error) {
      this.delivered(notification);
      this.report(error, notification);
      return true;
    }
    if (!isPromiseLike(result)) {
      this.delivered(notification);
      return false;
    }
    return Promise.resolve(result).then(
      () => {
        this.delivered(notification);
        return false;
      },
      (error: unknown) => {
        this.delivered(notification);
        this.report(error, notification);
        return true;
      },
    );
  }

  /**
   * A throwing initial add still counts as handled: otherwise the registration could never sync
   * (kubernetes#129024), and the failure has been reported.
   */
  private delivered(notification: Notification<T>): void {
    if (notification.type === 'add' && notification.isInInitialList) this.initialAddsPending--;
  }

  private report(error: unknown, notification: Notification<T>): void {
    const subject = notification.type === 'update' ? notification.newObj : notification.obj;
    try {
      this.reportError(
        error,
        `${this.description}: event handler failed on ${notification.type} of ${keyOf(subject)}`,
      );
    } catch {
      // A failing reporter must not end this handler's stream.
    }
  }
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'
  );
}

function keyOf(obj: unknown): string {
  try {
    return deletionHandlingMetaNamespaceKeyFunc(obj);
  } catch {
    return 'an object without a key';
  }
}
