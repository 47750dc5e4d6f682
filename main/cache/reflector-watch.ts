// client-go reflector.go's handleAnyWatch: drains one open watch into a Store. Shared by the ordinary
// watch loop and by watch-list, which stops at the bookmark that ends the initial events.
import type { KubeObject, WatchEvent } from '../../shared/kube/object';
import { initialEventsEndAnnotation } from '../../shared/kube/object';
import { StatusError, isStatus } from '../../shared/kube/status';
import type { Clock, Timer } from './clock';
import type { Watcher } from './lister-watcher';
import { TurnBudget } from './turn-budget';
import type { BookmarkAware, Store } from './store';

/** Where the Reflector reports what it skips or cannot store; details carry the context. */
export type ReflectorLogger = (message: string, details?: Record<string, unknown>) => void;

/**
 * The kind a Reflector expects. Watch events whose object names another apiVersion or kind (or is a
 * meta.k8s.io Table) are logged and skipped; objects that leave apiVersion or kind unset pass.
 */
export interface ExpectedType {
  apiVersion?: string;
  kind: string;
}

/** Returned when the watch was ended because the Reflector's signal aborted (errorStopRequested). */
export const errorStopRequested: Error = new Error('stop requested');

/**
 * A watch closed within a second without a single event. Treated as a failure (relist after backoff)
 * rather than a normal close, so a server that accepts watches and drops them at once cannot drive
 * the Reflector into a tight re-watch loop.
 */
export class VeryShortWatchError extends Error {
  constructor(readonly reflectorName: string) {
    super(
      `very short watch: ${reflectorName}: Unexpected watch close - watch lasted less than a second and no items received`,
    );
    this.name = 'VeryShortWatchError';
  }
}

/** The object of an ERROR event was not a Status (apimachinery's UnexpectedObjectError). */
export class UnexpectedObjectError extends Error {
  constructor(readonly object: unknown) {
    super(`unexpected object in an ERROR watch event: ${describe(object)}`);
    this.name = 'UnexpectedObjectError';
  }
}

/** How long watch-list waits between warnings that the initial-events-end bookmark has not come. */
export const initialEventsEndWarningIntervalMs = 10_000;

/** A watch closed sooner than this with no event is a VeryShortWatchError. */
export const veryShortWatchMs = 1000;

/**
 * Buffered events applied back to back before the loop yields to the event loop (a macrotask), so a
 * watch that delivers faster than it can be handled never holds the thread for more than one turn:
 * about 5 ms of full-pipeline work for 3.5 KB pods, while a turn costs a few microseconds. A turn
 * also ends at turnBudgetMs (see TurnBudget).
 */
export const watchEventsPerTurn = 128;

export interface WatchHandlerOptions {
  name: string;
  typeDescription: string;
  expectedType?: ExpectedType;
  clock: Clock;
  /** Aborting ends the handling with errorStopRequested. */
  signal: AbortSignal;
  /** Aborted, with the error as its reason, when Store.resync() fails; ends the handling with that error. */
  resyncFailed?: AbortSignal;
  /** Watch-list mode: return (leaving the watcher open) once the initial-events-end bookmark arrives. */
  exitOnInitialEventsEnd: boolean;
  /** Called after every event with its resourceVersion and whether a non-ADDED event has been seen. */
  setLastSyncResourceVersion(resourceVersion: string, eventReceivedBesidesAdded: boolean): void;
  /**
   * Told that events are arriving: once per event that ended a wait for data, and once per turn
   * while events flow without a wait, so its cost does not grow with the event rate.
   */
  onData?: () => void;
  log: ReflectorLogger;
}

export interface WatchOutcome {
  /** The initial-events-end bookmark was received (watch-list mode). */
  initialEventsEndReceived: boolean;
  /** Events applied (bookmarks included): more than 0 means the server served this watch. */
  eventCount: number;
  /** Why the watch ended; undefined for a normal close (or the watch-list bookmark). */
  error?: unknown;
  /**
   * Set when the stream failed without a Status (reset, closed, a failed health check): the watch
   * ended as if closed normally, and this says why, for the log.
   */
  connectionLost?: unknown;
}

type Interruption = { kind: 'stop' } | { kind: 'resync'; error: unknown };
type Next<T extends KubeObject> =
  | Interruption
  | { kind: 'event'; result: IteratorResult<WatchEvent<T>> }
  | { kind: 'failed'; error: unknown };

/**
 * Applies each event of `watcher` to `store` until the stream ends, fails, the signal aborts or a
 * resync fails. ERROR events and StatusError failures end it with their error. Any other failure of
 * the stream is a lost connection, which client-go's StreamWatcher turns into a normal close (EOF,
 * "connection reset", timeouts: apimachinery watch/streamwatcher.go, net.IsProbableEOF), so it ends
 * here as a close too, very-short-watch check included. Store failures are only logged. The watcher
 * is always stopped on return, except after the watch-list bookmark, when the caller keeps it.
 */
export async function handleAnyWatch<T extends KubeObject>(
  start: number,
  watcher: Watcher<T>,
  store: Store<T>,
  options: WatchHandlerOptions,
): Promise<WatchOutcome> {
  const { clock, log, name } = options;
  let initialEventsEndReceived = false;
  let eventReceivedBesidesAdded = false;
  let eventCount = 0;
  let connectionLost: unknown;
  const turn = new TurnBudget(clock, watchEventsPerTurn);
  let stopWatcher = true;
  const iterator = watcher[Symbol.asyncIterator]();
  const buffered = isBufferedWatcher<T>(watcher) ? watcher : undefined;
  const { signal, resyncFailed } = options;
  const interruption = (): Interruption | undefined => {
    if (signal.aborted) return { kind: 'stop' };
    if (resyncFailed?.aborted) return { kind: 'resync', error: resyncFailed.reason };
    return undefined;
  };
  // One waker, replaced per read, rather than a Promise.race per event: a race would leave a reaction
  // on a never-settling promise for every event of a long watch.
  let wake: ((next: Next<T>) => void) | undefined;
  const onInterrupt = () => {
    const found = interruption();
    if (found) wake?.(found);
  };
  signal.addEventListener('abort', onInterrupt);
  resyncFailed?.addEventListener('abort', onInterrupt);
  const warning = options.exitOnInitialEventsEnd
    ? new InitialEventsEndWarning(name, clock, start, log)
    : undefined;

  try {
    for (;;) {
      const pending = interruption();
      if (pending)
        return {
          initialEventsEndReceived,
          eventCount,
          error: pending.kind === 'stop' ? errorStopRequested : pending.error,
        };
      // Events the watcher has already decoded are taken without a promise each; only an empty
      // buffer costs an await (and a race with the interruptions).
      if (turn.spend()) {
        options.onData?.();
        await turn.nextTurn();
        continue;
      }
      let event = buffered?.takeBuffered();
      if (event === undefined) {
        turn.reset();
        const next = await new Promise<Next<T>>((resolve) => {
          wake = resolve;
          try {
            iterator.next().then(
              (result) => resolve({ kind: 'event', result }),
              (error: unknown) => resolve({ kind: 'failed', error }),
            );
          } catch (error) {
            resolve({ kind: 'failed', error });
          }
        });
        wake = undefined;
        if (next.kind === 'stop') return { initialEventsEndReceived, eventCount, error: errorStopRequested };
        if (next.kind === 'resync' || (next.kind === 'failed' && next.error instanceof StatusError))
          return { initialEventsEndReceived, eventCount, error: next.error };
        if (next.kind === 'failed') {
          connectionLost = next.error;
          break;
        }
        if (next.result.done) break;
        event = next.result.value;
        options.onData?.();
      }
      if (event.type === 'ERROR')
        return { initialEventsEndReceived, eventCount, error: errorFromObject(event.object) };
      const object = event.object as unknown;
      const mismatch = unexpectedType(object, options.expectedType);
      if (mismatch) {
        log(`Unexpected watch event object ${mismatch}`, { reflector: name, event: event.type });
        continue;
      }
      const metadata = metadataOf(object);
      if (!metadata) {
        log('Unable to understand watch event', { reflector: name, event });
        continue;
      }
      const resourceVersion = typeof metadata.resourceVersion === 'string' ? metadata.resourceVersion : '';
      switch (event.type) {
        case 'ADDED':
          apply('add', event.object, resourceVersion);
          break;
        case 'MODIFIED':
          eventReceivedBesidesAdded = true;
          apply('update', event.object, resourceVersion);
          break;
        case 'DELETED':
          eventReceivedBesidesAdded = true;
          apply('delete', event.object, resourceVersion);
          break;
        case 'BOOKMARK':
          eventReceivedBesidesAdded = true;
          if (metadata.annotations?.[initialEventsEndAnnotation] === 'true') initialEventsEndReceived = true;
          if (isBookmarkAware(store)) apply('bookmark', event.object, resourceVersion);
          break;
        default:
          log('Unknown watch event', { reflector: name, event });
      }
      options.setLastSyncResourceVersion(resourceVersion, eventReceivedBesidesAdded);
      eventCount++;
      if (options.exitOnInitialEventsEnd && initialEventsEndReceived) {
        stopWatcher = false;
        return { initialEventsEndReceived, eventCount };
      }
      warning?.observeEvent(clock.now());
    }

    if (clock.now() - start < veryShortWatchMs && eventCount === 0) {
      return { initialEventsEndReceived, eventCount, error: new VeryShortWatchError(name), connectionLost };
    }
    return { initialEventsEndReceived, eventCount, connectionLost };
  } finally {
    warning?.stop();
    signal.removeEventListener('abort', onInterrupt);
    resyncFailed?.removeEventListener('abort', onInterrupt);
    if (stopWatcher) watcher.stop();
  }

  /** Applies one event to the store; a failure is logged, not fatal. No closure per event. */
  function apply(verb: 'add' | 'update' | 'delete' | 'bookmark', object: T, resourceVersion: string): void {
    try {
      if (verb === 'add') store.add(object);
      else if (verb === 'update') store.update(object);
      else if (verb === 'delete') store.delete(object);
      else (store as Store<T> & BookmarkAware).bookmark(resourceVersion);
    } catch (error) {
      log(`Unable to ${verb} watch event object ${verb === 'add' ? 'to' : 'in'} store`, {
        reflector: name,
        object,
        error,
      });
    }
  }
}

/** apimachinery's FromObject: a Status becomes a StatusError, anything else an UnexpectedObjectError. */
export function errorFromObject(object: unknown): Error {
  return isStatus(object) ? new StatusError(object) : new UnexpectedObjectError(object);
}

/**
 * A Watcher that can hand out an event it has already decoded synchronously (WatchStream can), so a
 * burst of events costs one await rather than one per event. undefined means "await next()".
 */
export interface BufferedWatcher<T extends KubeObject> {
  takeBuffered(): WatchEvent<T> | undefined;
}

function isBufferedWatcher<T extends KubeObject>(watcher: object): watcher is BufferedWatcher<T> {
  return typeof (watcher as Partial<BufferedWatcher<T>>).takeBuffered === 'function';
}

function isBookmarkAware(store: object): store is BookmarkAware {
  return typeof (store as Partial<BookmarkAware>).bookmark === 'function';
}

function metadataOf(object: unknown): KubeObject['metadata'] | undefined {
  if (typeof object !== 'object' || object === null) return undefined;
  const metadata = (object as { metadata?: unknown }).metadata;
  return typeof metadata === 'object' && metadata !== null ? (metadata as KubeObject['metadata']) : undefined;
}

const tableApiVersions = new Set(['meta.k8s.io/v1', 'meta.k8s.io/v1beta1']);

/** Describes why `object` is not of the expected type, or undefined when it is acceptable. */
function unexpectedType(object: unknown, expected: ExpectedType | undefined): string | undefined {
  if (typeof object !== 'object' || object === null) return undefined;
  const { apiVersion, kind } = object as { apiVersion?: unknown; kind?: unknown };
  if (kind === 'Table' && typeof apiVersion === 'string' && tableApiVersions.has(apiVersion)) {
    return `kind ${apiVersion}, Kind=Table is not supported`;
  }
  if (!expected) return undefined;
  if (typeof kind === 'string' && kind !== '' && kind !== expected.kind) {
    return `kind: expected ${expected.kind}, got ${kind}`;
  }
  if (
    expected.apiVersion &&
    typeof apiVersion === 'string' &&
    apiVersion !== '' &&
    apiVersion !== expected.apiVersion
  ) {
    return `apiVersion: expected ${expected.apiVersion}, got ${apiVersion}`;
  }
  return undefined;
}

function describe(object: unknown): string {
  try {
    return JSON.stringify(object) ?? String(object);
  } catch {
    return String(object);
  }
}

/**
 * Watch-list has no deadline for its initial-events-end bookmark (a proxy that drops it leaves the
 * Reflector unsynced for ever), so it says so every 10 s instead.
 */
class InitialEventsEndWarning {
  private timer: Timer | undefined;
  private lastEventTime: number | undefined;

  constructor(
    private readonly name: string,
    private readonly clock: Clock,
    private readonly watchStart: number,
    private readonly log: ReflectorLogger,
  ) {
    this.arm();
  }

  observeEvent(time: number): void {
    this.lastEventTime = time;
  }

  stop(): void {
    this.timer?.stop();
    this.timer = undefined;
  }

  private arm(): void {
    this.timer = this.clock.setTimeout(() => {
      this.warnIfExpired();
      this.arm();
    }, initialEventsEndWarningIntervalMs);
  }

  private warnIfExpired(): void {
    const now = this.clock.now();
    if (this.lastEventTime === undefined) {
      this.log(
        `${this.name}: awaiting required bookmark event for initial events stream, no events received for ${now - this.watchStart} ms`,
      );
    } else if (now - this.lastEventTime >= initialEventsEndWarningIntervalMs) {
      this.log(
        `${this.name}: hasn't received required bookmark event marking the end of initial events stream, received last event ${now - this.lastEventTime} ms ago`,
      );
    }
  }
}
