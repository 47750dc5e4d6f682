// The fan-out half of a shared informer (client-go shared_informer.go's sharedProcessor): one
// ProcessorListener per registration, and the bookkeeping that decides who gets resync notifications.
import type { Clock } from './clock';
import type { Notification, ProcessorListener } from './processor-listener';
import type { ResourceEventHandlerRegistration } from './resource-event-handler';

/** The shortest resync period a handler may ask for; shorter requests are raised to it. */
export const minimumResyncPeriod = 1000;

/**
 * The period a listener actually resyncs at, given what it asked for (`desired`) and how often the
 * informer checks (`check`): 0 stays 0 (never); an informer that never checks (0) cannot resync, so 0;
 * a period shorter than the check period cannot be honoured, so the check period; otherwise `desired`.
 */
export function determineResyncPeriod(desired: number, check: number): number {
  if (desired === 0) return 0;
  if (check === 0) return 0;
  return desired < check ? check : desired;
}

/**
 * Distributes notifications to every listener. Non-sync notifications go to all of them; sync ones
 * (an update whose resourceVersion did not change: a resync, or an unchanged object on relist) go only
 * to the listeners that the last shouldResync call found due. A new listener starts out due, as in
 * client-go, so it is not left out of a relist that happens before the first resync check.
 */
export class SharedProcessor<T> {
  /** Listener -> whether it takes sync notifications right now. */
  private readonly listeners = new Map<ProcessorListener<T>, boolean>();
  private listenersStarted = false;

  constructor(private readonly clock: Clock) {}

  /** Registers a listener; it starts delivering at once if the processor is running. */
  addListener(listener: ProcessorListener<T>): ResourceEventHandlerRegistration {
    this.listeners.set(listener, true);
    if (this.listenersStarted) listener.start();
    return listener;
  }

  /** The listener behind `registration` if it is one of this processor's, else undefined. */
  getListener(registration: ResourceEventHandlerRegistration): ProcessorListener<T> | undefined {
    const listener = registration as ProcessorListener<T>;
    return this.listeners.has(listener) ? listener : undefined;
  }

  /**
   * Unregisters and stops a listener, dropping what it had not yet delivered. Unknown or foreign
   * registrations, and ones already removed, are ignored. Resolves once the listener's in-flight
   * notification, if any, has been handled.
   */
  removeListener(registration: ResourceEventHandlerRegistration): Promise<void> {
    const listener = this.getListener(registration);
    if (!listener) return Promise.resolve();
    this.listeners.delete(listener);
    return listener.stop();
  }

  listenerCount(): number {
    return this.listeners.size;
  }

  distribute(notification: Notification<T>, sync: boolean): void {
    for (const [listener, isSyncing] of this.listeners) {
      if (!sync || isSyncing) listener.add(notification);
    }
  }

  /**
   * Starts every listener and keeps delivering until `signal` aborts; then stops them all, forgets
   * them (a listener cannot be restarted) and resolves once their in-flight notifications are handled.
   */
  async run(signal: AbortSignal): Promise<void> {
    for (const listener of this.listeners.keys()) listener.start();
    this.listenersStarted = true;
    if (!signal.aborted) {
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    }
    const stopping = [...this.listeners.keys()].map((listener) => listener.stop());
    this.listeners.clear();
    this.listenersStarted = false;
    await Promise.all(stopping);
  }

  /**
   * Marks which listeners are due for a resync now (moving each due one's next resync forward) and
   * answers whether any is: the Reflector asks this before each periodic Resync.
   */
  shouldResync(): boolean {
    const now = this.clock.now();
    let resyncNeeded = false;
    for (const listener of this.listeners.keys()) {
      const due = listener.shouldResync(now);
      this.listeners.set(listener, due);
      if (due) {
        resyncNeeded = true;
        listener.determineNextResync(now);
      }
    }
    return resyncNeeded;
  }

  /** Recomputes every listener's effective period after the informer lowered its check period. */
  resyncCheckPeriodChanged(resyncCheckPeriod: number): void {
    for (const listener of this.listeners.keys()) {
      listener.setResyncPeriod(determineResyncPeriod(listener.requestedResyncPeriod, resyncCheckPeriod));
    }
  }
}
