// client-go tools/cache/testing's FakeControllerSource: an in-memory API server for one resource that
// is a ListerWatcher. Every change bumps one global resourceVersion and is kept in a history, so a
// watch can start from any resourceVersion the history still covers.
import type { KubeList, KubeObject, WatchEvent } from '../../shared/kube/object';
import { initialEventsEndAnnotation } from '../../shared/kube/object';
import { StatusError, newStatus } from '../../shared/kube/status';
import type { ListOptions, ListerWatcher, Watcher } from '../../main/cache/lister-watcher';

interface HistoryEntry {
  readonly resourceVersion: number;
  readonly event: WatchEvent;
}

/** The key the source stores objects under: "namespace/name", or "name" when cluster-scoped. */
export function sourceKey(obj: KubeObject): string {
  const { namespace, name } = obj.metadata;
  return namespace ? `${namespace}/${name}` : `${name}`;
}

/**
 * Semantics, as a real API server (with its watch cache) has them:
 * - list returns the current state at the current resourceVersion, in one page (limit is ignored,
 *   as the watch cache does). A resourceVersion newer than the current one fails with a 504
 *   "Too large resource version" (cause ResourceVersionTooLarge).
 * - watch from resourceVersion N replays every change after N and then streams; from "" or "0" it
 *   first sends the current state as ADDED events; with sendInitialEvents it sends the current state,
 *   then a BOOKMARK annotated k8s.io/initial-events-end, then streams. A watch from a resourceVersion
 *   older than the retained history gets an ERROR event with a 410 Expired Status, then closes.
 * - the *DropWatch variants change the state and the history but tell no open watch.
 * - breakWatches ends every open watch as a watch timeout does; a re-watch resumes from history.
 * - resetWatch ends every open watch, drops the history and moves the resourceVersion on by one (as an
 *   etcd compaction plus an API server restart would), so every re-watch gets the 410 and relists.
 * - BOOKMARK events go only to watches opened with allowWatchBookmarks.
 * Objects are copied on the way in and on the way out: the caller's objects and the source's state
 * never alias what an informer holds.
 */
export class FakeControllerSource implements ListerWatcher<KubeObject> {
  /** When set, every list fails with it (client-go's ListError). */
  listError: Error | undefined;
  readonly supportsWatchList: boolean;
  /** The options of every list and watch call, in order. */
  readonly listCalls: ListOptions[] = [];
  readonly watchCalls: ListOptions[] = [];

  /**
   * Starts at 1: an API server is never at resourceVersion 0, which clients send to mean "any"; a list
   * answering "0" would leave a Reflector watching from "any" for ever, never able to detect a gap.
   */
  private resourceVersion = 1;
  private readonly items = new Map<string, KubeObject>();
  private history: HistoryEntry[] = [];
  /** Watches from a resourceVersion below this one cannot be served from history. */
  private historyStart = 0;
  private readonly watchers = new Set<SourceWatcher>();

  constructor(options: { supportsWatchList?: boolean } = {}) {
    this.supportsWatchList = options.supportsWatchList ?? true;
  }

  add(obj: KubeObject): KubeObject {
    return this.change('ADDED', obj, true);
  }
  modify(obj: KubeObject): KubeObject {
    return this.change('MODIFIED', obj, true);
  }
  delete(obj: KubeObject): KubeObject {
    return this.change('DELETED', obj, true);
  }
  addDropWatch(obj: KubeObject): KubeObject {
    return this.change('ADDED', obj, false);
  }
  modifyDropWatch(obj: KubeObject): KubeObject {
    return this.change('MODIFIED', obj, false);
  }
  deleteDropWatch(obj: KubeObject): KubeObject {
    return this.change('DELETED', obj, false);
  }

  /**
   * Breaks every open watch and forgets the history. The resourceVersion moves on by one (as a
   * compaction's revision does), so a re-watch from any resourceVersion seen before gets a 410 and
   * only a relist, at the new resourceVersion, resumes watching.
   */
  resetWatch(): void {
    this.resourceVersion++;
    this.history = [];
    this.historyStart = this.resourceVersion;
    for (const watcher of [...this.watchers]) watcher.close();
  }

  /** Ends every open watch as a server timeout would, keeping the history: a re-watch resumes. */
  breakWatches(): void {
    for (const watcher of [...this.watchers]) watcher.close();
  }

  /** Sends a BOOKMARK at the current resourceVersion to every watch that allows bookmarks. */
  bookmark(): void {
    const event: WatchEvent = { type: 'BOOKMARK', object: bookmarkObject(this.resourceVersion) };
    for (const watcher of this.watchers) {
      if (watcher.options.allowWatchBookmarks) watcher.push(structuredClone(event));
    }
  }

  /** The current resourceVersion: that of the latest change. */
  currentResourceVersion(): string {
    return String(this.resourceVersion);
  }

  /** The keys of the objects the source holds now. */
  keys(): string[] {
    return [...this.items.keys()];
  }

  /** A copy of the object stored under `key`, if any. */
  get(key: string): KubeObject | undefined {
    const obj = this.items.get(key);
    return obj && structuredClone(obj);
  }

  /** The source of truth: a copy of every object, by key. */
  state(): Map<string, KubeObject> {
    return new Map([...this.items].map(([key, obj]) => [key, structuredClone(obj)]));
  }

  openWatchCount(): number {
    return this.watchers.size;
  }

  async list(options: ListOptions, _signal: AbortSignal): Promise<KubeList<KubeObject>> {
    this.listCalls.push({ ...options });
    if (this.listError) throw this.listError;
    const requested = Number(options.resourceVersion || '0');
    if (requested > this.resourceVersion) throw tooLargeResourceVersion(requested, this.resourceVersion);
    return {
      apiVersion: 'v1',
      kind: 'List',
      metadata: { resourceVersion: this.currentResourceVersion() },
      items: [...this.items.values()].map((obj) => structuredClone(obj)),
    };
  }

  async watch(options: ListOptions, signal: AbortSignal): Promise<Watcher<KubeObject>> {
    this.watchCalls.push({ ...options });
    const watcher = new SourceWatcher(options, () => this.watchers.delete(watcher));
    const requested = options.resourceVersion ?? '';
    if (options.sendInitialEvents || requested === '' || requested === '0') {
      for (const obj of this.items.values()) watcher.push({ type: 'ADDED', object: structuredClone(obj) });
      if (options.sendInitialEvents) {
        const end = bookmarkObject(this.resourceVersion);
        end.metadata.annotations = { [initialEventsEndAnnotation]: 'true' };
        watcher.push({ type: 'BOOKMARK', object: end });
      }
    } else {
      const from = Number(requested);
      if (from > this.resourceVersion) throw tooLargeResourceVersion(from, this.resourceVersion);
      if (from < this.historyStart) {
        const message = `too old resource version: ${from} (${this.historyStart})`;
        watcher.push({ type: 'ERROR', object: newStatus(410, 'Expired', message) as unknown as KubeObject });
        watcher.close();
        return watcher;
      }
      for (const entry of this.history) {
        if (entry.resourceVersion > from) watcher.push(structuredClone(entry.event));
      }
    }
    this.watchers.add(watcher);
    signal.addEventListener('abort', () => watcher.stop(), { once: true });
    return watcher;
  }

  private change(type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: KubeObject, broadcast: boolean): KubeObject {
    const stored = structuredClone(obj);
    this.resourceVersion++;
    stored.metadata.resourceVersion = String(this.resourceVersion);
    const key = sourceKey(stored);
    if (type === 'DELETED') this.items.delete(key);
    else this.items.set(key, stored);
    const event: WatchEvent = { type, object: stored };
    this.history.push({ resourceVersion: this.resourceVersion, event });
    if (broadcast) {
      for (const watcher of this.watchers) watcher.push(structuredClone(event));
    }
    return structuredClone(stored);
  }
}

function bookmarkObject(resourceVersion: number): KubeObject {
  return { metadata: { resourceVersion: String(resourceVersion) } };
}

function tooLargeResourceVersion(requested: number, current: number): StatusError {
  return new StatusError(
    newStatus(504, 'Timeout', `Too large resource version: ${requested}, current: ${current}`, {
      causes: [{ type: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
    }),
  );
}

/**
 * One open watch: events queue until read. close() ends the stream after what is already queued
 * (a server-side close); stop() ends it at once (the client hung up).
 */
class SourceWatcher implements Watcher<KubeObject> {
  private readonly queue: WatchEvent[] = [];
  private ended = false;
  private wake: (() => void) | undefined;

  constructor(
    readonly options: ListOptions,
    private readonly onEnd: () => void,
  ) {}

  push(event: WatchEvent): void {
    if (this.ended) return;
    this.queue.push(event);
    this.notify();
  }

  close(): void {
    this.ended = true;
    this.onEnd();
    this.notify();
  }

  stop(): void {
    this.queue.length = 0;
    this.close();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<WatchEvent<KubeObject>> {
    for (;;) {
      const event = this.queue.shift();
      if (event) {
        yield event;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
