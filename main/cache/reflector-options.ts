// The Reflector's options, its observable state and the contracts it offers stores and error
// handlers (client-go ReflectorOptions, ResourceVersionUpdater, WatchErrorHandler).
import type { KubeObject } from '../../shared/kube/object';
import { isResourceExpired } from '../../shared/kube/status';
import type { DelayHandler, RandomSource } from './backoff';
import type { Clock } from './clock';
import type { ListerWatcher } from './lister-watcher';
import type { ExpectedType, ReflectorLogger } from './reflector-watch';
import type { Store } from './store';

/** Implemented by stores that track the Reflector's resourceVersion as it advances on the watch. */
export interface ResourceVersionUpdater {
  updateResourceVersion(resourceVersion: string): void;
}

/** Called with every error that ends a listAndWatch; the Reflector then backs off and relists. */
export type WatchErrorHandler = (reflector: ReflectorIdentity, error: unknown) => void;

/** What a watch error handler learns about the Reflector that failed. */
export interface ReflectorIdentity {
  readonly name: string;
  readonly typeDescription: string;
  lastSyncResourceVersion(): string;
}

/** What the Reflector is doing, for display: listing (or streaming a watch-list), watching, or waiting. */
export interface ReflectorState {
  phase: 'listing' | 'watching' | 'backoff';
  /** Objects in the last completed list. */
  itemsListed?: number;
  /** The error that led to the current backoff. */
  error?: unknown;
  /** In backoff: when the next attempt is due, on the Reflector's clock (ms since the epoch). */
  retryAt?: number;
  /** When this phase began, on the Reflector's clock (ms since the epoch). */
  since: number;
}

export interface ReflectorOptions<T extends KubeObject = KubeObject> {
  /** Names this Reflector in logs and errors. */
  name: string;
  /** The kind listed and watched; mismatching watch objects are skipped. Also labels messages. */
  expectedType?: ExpectedType;
  /** Overrides the label used in messages (default: "apiVersion, Kind=kind", or "<unspecified>"). */
  typeDescription?: string;
  listerWatcher: ListerWatcher<T>;
  store: Store<T>;
  /** How often to call store.resync() while watching, in ms; 0 never. */
  resyncPeriod: number;
  /** Asked at each resync tick; undefined means always resync. */
  shouldResync?: () => boolean;
  clock: Clock;
  /**
   * The delay before each relist and each retried watch (default: 800 ms ×2 to 30 s, jittered, reset
   * after 2 m, and by its reset() after a watch that delivered events). A Retry-After replaces it.
   */
  backoff?: DelayHandler;
  /** LIST page size; by default 500, except 0 (unpaged) for lists at an exact RV the watch cache can serve. */
  watchListPageSize?: number;
  /** Try a streaming watch-list (sendInitialEvents) before LIST; off when the ListerWatcher says it is unsupported. */
  useWatchList?: boolean;
  /** Watch timeouts are random in [min, 2·min) seconds; min is 300 unless this is larger. */
  minWatchTimeoutSeconds?: number;
  /** How long to keep re-watching at once after InternalError watch failures, in ms; 0 (default) never. */
  maxInternalErrorRetryDuration?: number;
  /** Source of randomness for watch timeouts and the default backoff's jitter. */
  random?: RandomSource;
  watchErrorHandler?: WatchErrorHandler;
  onStateChange?: (state: ReflectorState) => void;
  /**
   * Told when a watch opens and while its events (bookmarks included) arrive: at most once per wait
   * for data or per turn of buffered events, never per event. A watch that stays silent after
   * opening calls it no more.
   */
  onWatchData?: () => void;
  /** Where skipped events and store failures are reported (default console.warn). */
  log?: ReflectorLogger;
}

/**
 * A message and its details on one line, as klog writes a structured line (`key="value"`, an error
 * as its message): console.warn of an object broke it over a line a member past 80 columns, five
 * lines a kind for every watch an API server restart closed.
 */
export const defaultReflectorLog: ReflectorLogger = (message, details) =>
  console.warn(details ? `${message} ${oneLine(details)}` : message);

function oneLine(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(
      ([key, value]) =>
        `${key}=${JSON.stringify(value instanceof Error ? value.message : value) ?? 'undefined'}`,
    )
    .join(' ');
}

/** Logs with context; an expired resourceVersion is routine (the relist handles it) and stays quiet. */
export const defaultWatchErrorHandler: WatchErrorHandler = (reflector, error) => {
  if (isResourceExpired(error)) return;
  console.warn(`reflector ${reflector.name}: failed to watch ${reflector.typeDescription}:`, error);
};

/** The label messages use for the listed kind: "apiVersion, Kind=kind", or "<unspecified>". */
export function typeDescriptionOf(expectedType: ExpectedType | undefined): string {
  if (!expectedType) return '<unspecified>';
  return expectedType.apiVersion
    ? `${expectedType.apiVersion}, Kind=${expectedType.kind}`
    : expectedType.kind;
}
