// WATCH: events after a resourceVersion from the bounded event window (410 ERROR event once it has
// been compacted away), the initial state as synthetic ADDED events for resourceVersion ""/"0" and
// for the streaming watch-list (then a BOOKMARK annotated k8s.io/initial-events-end), bookmarks at
// the watch cache's cadence (bookmark-schedule.ts), and a clean end at timeoutSeconds. Plain watches share each event's line across all
// watchers; selector transitions are rewritten per watcher as the watch cache does (an object
// leaving the selector is DELETED, entering it is ADDED).
import type { ServerResponse } from 'node:http';
import { initialEventsEndAnnotation } from '../../shared/kube/object';
import { newStatus } from '../../shared/kube/status';
import { badRequest, tooLargeResourceVersion } from './api-errors';
import { nextBookmarkTime } from './bookmark-schedule';
import type { SimClock, SimTimer } from './clock';
import type { ObjectFilter } from './filter';
import type { ListOptions } from './list-options';
import { parseResourceVersion } from './list-options';
import type { ObjectStore, StoredEvent, StoredObject } from './object-store';
import { watchLine } from './object-store';
import type { Presenter } from './presenter';
import { snapshotEntries } from './snapshot';
import type { SnapshotEntry } from './snapshot';
import type { WatchHub } from './watch-session';
import { WatchSession } from './watch-session';

const definitions = 'customresourcedefinitions.apiextensions.k8s.io';

export interface WatchSettings {
  /** The periodic bookmarks' interval; kube-apiserver's is a minute (see bookmark-schedule.ts). */
  bookmarkIntervalMs: number;
  /** Used when the client sends no timeoutSeconds. */
  defaultTimeoutSeconds: number;
  maximumBufferedBytes: number;
}

export interface WatchRequest {
  resource: string;
  namespace?: string;
  options: ListOptions;
  filter: ObjectFilter;
  presenter: Presenter;
  /** The plain object rendering, whose lines can be shared between watchers. */
  shared: boolean;
}

interface WatchStart {
  /** Replay the state at this resourceVersion as ADDED first (undefined: no initial state). */
  initialState: boolean;
  /** Events after this resourceVersion follow. */
  from: number;
  endBookmark: boolean;
}

function planWatch(
  store: ObjectStore,
  resource: string,
  options: ListOptions,
): WatchStart | { expired: number } {
  const current = store.resourceVersion;
  if (options.sendInitialEvents !== undefined) {
    if (options.resourceVersionMatch !== 'NotOlderThan')
      throw badRequest(
        'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
      );
    if (options.sendInitialEvents && !options.allowWatchBookmarks)
      throw badRequest(
        'allowWatchBookmarks: Forbidden: sendInitialEvents requires setting allowWatchBookmarks to true',
      );
  } else if (options.resourceVersionMatch) {
    throw badRequest(
      'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
    );
  }
  const requested =
    options.resourceVersion === undefined ? undefined : parseResourceVersion(options.resourceVersion);
  if (requested !== undefined && requested > current) throw tooLargeResourceVersion(requested, current);
  if (options.sendInitialEvents) return { initialState: true, from: current, endBookmark: true };
  if (requested === undefined || requested === 0)
    return { initialState: options.sendInitialEvents !== false, from: current, endBookmark: false };
  if (requested < store.oldestWatchableResourceVersion(resource)) return { expired: requested };
  return { initialState: false, from: requested, endBookmark: false };
}

export class WatchServer {
  constructor(
    private readonly store: ObjectStore,
    private readonly clock: SimClock,
    private readonly hub: WatchHub,
    private readonly settings: () => WatchSettings,
  ) {}

  /** Validates, then streams until timeoutSeconds, a fault, or the client hanging up. */
  async serve(response: ServerResponse, request: WatchRequest): Promise<void> {
    const plan = planWatch(this.store, request.resource, request.options);
    const settings = this.settings();
    response.writeHead(200, {
      'Content-Type': 'application/json',
      'Cache-Control': 'no-cache, private',
    });
    response.flushHeaders();
    const session = new WatchSession(response, this.clock, settings.maximumBufferedBytes);
    this.hub.add(session);
    if ('expired' in plan) {
      const status = newStatus(
        410,
        'Expired',
        `too old resource version: ${plan.expired} (${this.store.oldestWatchableResourceVersion(request.resource)})`,
      );
      session.send(watchLine('ERROR', JSON.stringify(status)));
      session.end();
      return;
    }
    // 0 or absent: the server default, as the apiserver picks its own timeout.
    const timeoutSeconds = request.options.timeoutSeconds || settings.defaultTimeoutSeconds;
    const deadline = this.clock.now() + timeoutSeconds * 1000;
    const timers: SimTimer[] = [this.clock.setTimeout(() => session.end(), timeoutSeconds * 1000)];
    session.onClose(() => timers.forEach((timer) => timer.stop()));

    let from = plan.from;
    if (plan.initialState) {
      const snapshot = [
        ...snapshotEntries(this.store, request.resource, undefined, { namespace: request.namespace }),
      ];
      from = this.store.resourceVersion;
      // Events meanwhile wait in the store's window and follow as the backlog.
      await session.writeInitialEvents(this.snapshotLines(request, snapshot));
    }
    if (session.isClosed) return;
    const backlog = this.store.eventsSince(request.resource, from);
    if (!backlog) {
      session.send(
        watchLine(
          'ERROR',
          JSON.stringify(
            newStatus(
              410,
              'Expired',
              `too old resource version: ${from} (${this.store.oldestWatchableResourceVersion(request.resource)})`,
            ),
          ),
        ),
      );
      session.end();
      return;
    }
    // Live from here: what comes while the backlog is written is held behind it (writeInitialEvents).
    const unsubscribe = this.store.subscribe((event) => this.deliver(session, request, event));
    session.onClose(unsubscribe);
    const initialEventsEnd = plan.endBookmark ? this.store.resourceVersion : undefined;
    await session.writeInitialEvents(this.backlogLines(request, backlog, initialEventsEnd));
    if (session.isClosed) return;
    if (request.options.allowWatchBookmarks) {
      // One timer at a time, re-armed from each bookmark sent, as the cacher re-queues its watchers.
      let bookmarkTimer: SimTimer | undefined;
      const schedule = () => {
        const now = this.clock.now();
        const next = nextBookmarkTime(now, settings.bookmarkIntervalMs, deadline);
        bookmarkTimer =
          next === undefined
            ? undefined
            : this.clock.setTimeout(() => {
                session.send(
                  watchLine('BOOKMARK', request.presenter.bookmarkObject(this.store.resourceVersion)),
                );
                schedule();
              }, next - now);
      };
      schedule();
      timers.push({ stop: () => bookmarkTimer?.stop() ?? false });
    }
  }

  private deliver(session: WatchSession, request: WatchRequest, event: StoredEvent): void {
    if (event.resource !== request.resource) {
      // A CRD is named <plural>.<group>, its objects' storage key: deleting it ends their watches.
      if (event.type === 'DELETED' && event.resource === definitions && event.key === request.resource)
        session.end();
      return;
    }
    const line = this.eventLine(request, event);
    if (line !== undefined) session.send(line);
  }

  /** `event` as this watcher sees it: the shared line, one rewritten for its selector, or none. */
  private eventLine(request: WatchRequest, event: StoredEvent): string | undefined {
    const object = event.stored.object;
    if (request.namespace && object.metadata.namespace !== request.namespace) return undefined;
    const { filter } = request;
    let type: string = event.type;
    if (!filter.isEverything) {
      const now = filter.matches(object);
      if (event.type === 'DELETED') {
        if (!now) return undefined;
      } else {
        const before = event.previous !== undefined && filter.matches(event.previous.object);
        if (now && !before) type = 'ADDED';
        else if (!now && before) type = 'DELETED';
        else if (!now) return undefined;
      }
    }
    return request.shared && type === event.type
      ? event.line
      : watchLine(type, this.render(request, event.stored));
  }

  /** The initial state as ADDED events, rendered as they are written. */
  private *snapshotLines(request: WatchRequest, snapshot: readonly SnapshotEntry[]): Generator<string> {
    for (const entry of snapshot)
      if (request.filter.matches(entry.stored.object))
        yield watchLine('ADDED', request.presenter.eventObject(entry.stored));
  }

  /** The events since the watch's resourceVersion, then, for watch-list, the initial-events-end bookmark. */
  private *backlogLines(
    request: WatchRequest,
    backlog: readonly StoredEvent[],
    initialEventsEnd: number | undefined,
  ): Generator<string> {
    for (const event of backlog) {
      const line = this.eventLine(request, event);
      if (line !== undefined) yield line;
    }
    if (initialEventsEnd !== undefined)
      yield watchLine(
        'BOOKMARK',
        request.presenter.bookmarkObject(initialEventsEnd, { [initialEventsEndAnnotation]: 'true' }),
      );
  }

  private render(request: WatchRequest, stored: StoredObject): string {
    return request.presenter.eventObject(stored);
  }
}
