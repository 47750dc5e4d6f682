// How a session builds one informer's Feed: its ListerWatcher and projection, attached to the
// session's recording when it records (Secrets never are), and its list/watch failures logged
// (an expired resourceVersion is routine and not logged; a refusal only once per feed; a retry
// failing as the one before is not told by the feed, which says when it watches again instead: see
// FailureLog).
import type { Clock } from '../cache/clock';
import type { GroupVersionResource } from '../../shared/kube/object';
import { isForbidden, isResourceExpired } from '../../shared/kube/status';
import { crashLogFetcher } from '../history/crash-log-fetcher';
import type { ClusterSessionOptions } from './cluster-session-options';
import { Feed } from './feed';
import { isSecretResource } from './object-sanitizer';
import type { RowProjectors } from './row-projectors';

export class SessionFeeds {
  /** Feeds whose 403 was already logged. */
  private readonly forbiddenLogged = new Set<string>();

  constructor(
    private readonly options: ClusterSessionOptions,
    private readonly clock: Clock,
    private readonly projectors: RowProjectors,
  ) {}

  /** One informer of `gvr` in `namespace` ("" for all), recorded when the session records. */
  newFeed(gvr: GroupVersionResource, namespace: string): Feed {
    const options = this.options;
    const recorder = options.recording?.recorder;
    return new Feed({
      gvr,
      namespace,
      newListerWatcher: () => options.newListerWatcher(gvr, namespace, undefined),
      projector: this.projectors.projectorFor(gvr),
      clock: this.clock,
      staleAfterMs: options.staleAfterMs,
      reflector: options.reflector,
      // Secrets are never recorded: their data would sit on disk unmasked for as long as retention keeps it.
      ...(recorder && !isSecretResource(gvr)
        ? {
            onInformer: (informer) => {
              const fetchCrashLogs =
                options.openPodLog && options.recording!.crashLogs !== false
                  ? crashLogFetcher(options.openPodLog)
                  : undefined;
              const attachment = recorder.attach(
                informer,
                gvr,
                namespace,
                fetchCrashLogs ? { fetchCrashLogs } : {},
              );
              return () => attachment.detach();
            },
          }
        : {}),
      onWatchError: (feed, error) => this.watchFailed(feed, error),
      onWatchRecovered: (feed, failures) =>
        this.log(`${feed}: watching again after ${failures} failed attempts`),
    });
  }

  private log(message: string): void {
    (this.options.log ?? console.warn)(message);
  }

  private watchFailed(feed: string, error: unknown): void {
    if (isResourceExpired(error)) return;
    // A refusal repeats on every retry of a feed nobody can fix from here: said once per feed.
    if (causedByForbidden(error)) {
      if (this.forbiddenLogged.has(feed)) return;
      this.forbiddenLogged.add(feed);
    }
    this.log(`${feed}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A 403 anywhere in the error's cause chain (the Reflector wraps the server's error). */
function causedByForbidden(error: unknown): boolean {
  for (let current = error; current; current = (current as { cause?: unknown }).cause)
    if (isForbidden(current)) return true;
  return false;
}
