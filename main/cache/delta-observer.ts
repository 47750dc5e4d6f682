// Kubetide's addition to the shared informer (client-go has none): a first-class way to see every
// change exactly as the informer's cache takes it, and what the Reflector is doing as the cache
// reflects it. The history recorder is its user: it must know each change once, in order, when it
// arrived, and which spans of time no live watch covered.
import type { KubeObject } from '../../shared/kube/object';
import type { Deltas } from './delta';
import type { ReflectorState } from './reflector-options';

export interface DeltaObserver<T extends KubeObject = KubeObject> {
  /**
   * One key's Deltas, oldest first, right after the indexer applied them and before any handler
   * hears of them (handlers are buffered; observers are not). Runs on the informer's hot path: an
   * observer only stamps and appends, and must not throw (a throw is reported and the informer goes on).
   */
  observeDeltas(deltas: Deltas<T>, isInInitialList: boolean): void;
  /**
   * The Reflector's phase, as the cache reflects it: "listing" and "backoff" as soon as the
   * Reflector enters them, but "watching" after a list only once every delta that list queued has
   * been observed. So between a "listing" or "backoff" and the next "watching" the cache is not known
   * to follow the server, and from that "watching" on every change reaches observeDeltas.
   */
  observePhase(state: ReflectorState): void;
}

/** What addDeltaObserver returns: remove() stops the observer (idempotent). */
export interface DeltaObserverRegistration {
  remove(): void;
}
