// client-go's ListerWatcher: how a Reflector reaches the API server. main/kube implements it over
// HTTP; tests implement it in memory. Errors from the server are StatusError (shared/kube/status).
import type { KubeList, KubeObject, WatchEvent } from '../../shared/kube/object';

/** metav1.ListOptions, as far as LIST and WATCH use it. Unset fields are not sent. */
export interface ListOptions {
  resourceVersion?: string;
  resourceVersionMatch?: 'NotOlderThan' | 'Exact';
  limit?: number;
  continue?: string;
  labelSelector?: string;
  fieldSelector?: string;
  timeoutSeconds?: number;
  allowWatchBookmarks?: boolean;
  sendInitialEvents?: boolean;
}

/**
 * An open WATCH. Iterating yields events until the server closes the stream (the iterator ends),
 * or fails (the iterator throws). A StatusError means the server (or the decoder, as an InternalError)
 * said what went wrong; any other error means the connection was lost (reset, closed, a failed health
 * check, no data), which the Reflector handles as client-go's StreamWatcher handles a probable EOF: a
 * normal end, re-watched from the last resourceVersion. stop() ends the request at once; after it, no
 * further event or error is delivered.
 */
export interface Watcher<T extends KubeObject = KubeObject> extends AsyncIterable<WatchEvent<T>> {
  stop(): void;
}

/**
 * What the caller does with what it is given, so a decoder may skip work (Kubetide's addition; a
 * ListerWatcher may ignore them, so the caller must still do what it said).
 */
export interface DecodeHints {
  /**
   * The caller drops metadata.managedFields (controller-runtime's TransformStripManagedFields; a
   * feed's ObjectCompactor): the decoder may leave them out unparsed.
   */
  omitManagedFields?: boolean;
}

export interface ListerWatcher<T extends KubeObject = KubeObject> {
  /**
   * One LIST (or page). `transformItem`, when given, may be applied to each item as soon as it is
   * decoded, so what the caller keeps of an item replaces the parsed original while it is still young
   * garbage; a ListerWatcher may also ignore it, so the caller must transform what comes back anyway.
   */
  list(
    options: ListOptions,
    signal: AbortSignal,
    transformItem?: (item: T) => T,
    hints?: DecodeHints,
  ): Promise<KubeList<T>>;
  /** Resolves once the server has accepted the watch (response headers received). */
  watch(options: ListOptions, signal: AbortSignal, hints?: DecodeHints): Promise<Watcher<T>>;
  /** False when the server is known not to support the streaming watch-list (sendInitialEvents). */
  readonly supportsWatchList?: boolean;
}
