// An in-memory Watcher (apimachinery's watch.FakeWatcher): a test pushes events, ends or breaks the
// stream, and checks how the consumer used it. Pushes are buffered, so a test never blocks on them.
import type { Watcher } from '../../main/cache/lister-watcher';
import type { KubeObject, WatchEvent, WatchEventType } from '../../shared/kube/object';
import type { Status } from '../../shared/kube/status';

type Entry<T extends KubeObject> = { event: WatchEvent<T> } | { end: true } | { failure: unknown };

export class FakeWatcher<T extends KubeObject = KubeObject> implements Watcher<T> {
  /** "iterate" per [Symbol.asyncIterator]() call and "stop" per stop() call, in order. */
  readonly calls: string[] = [];
  private readonly buffered: Entry<T>[] = [];
  private readonly waiting: ((entry: Entry<T>) => void)[] = [];
  private stopped = false;
  private ended = false;

  /** Times stop() was called. */
  get stopCount(): number {
    return this.calls.filter((call) => call === 'stop').length;
  }

  /** Entries pushed but not yet read: 0 once the consumer has taken everything (Go's unbuffered send). */
  get pendingCount(): number {
    return this.buffered.length;
  }

  isStopped(): boolean {
    return this.stopped;
  }

  add(object: T): void {
    this.action('ADDED', object);
  }

  modify(object: T): void {
    this.action('MODIFIED', object);
  }

  delete(object: T): void {
    this.action('DELETED', object);
  }

  bookmark(object: T): void {
    this.action('BOOKMARK', object);
  }

  /** Sends an ERROR event carrying `object` (normally a Status). */
  error(object: Status | T): void {
    this.action('ERROR', object as unknown as T);
  }

  action(type: WatchEventType, object: T): void {
    this.push({ event: { type, object } });
  }

  /** Ends the stream as a server would on timeout: the consumer's iteration completes. */
  close(): void {
    this.push({ end: true });
  }

  /** Breaks the stream: the consumer's pending or next read rejects with `error`. */
  throw(error: unknown): void {
    this.push({ failure: error });
  }

  stop(): void {
    this.calls.push('stop');
    if (this.stopped) return;
    this.stopped = true;
    this.buffered.length = 0;
    for (const resolve of this.waiting.splice(0)) resolve({ end: true });
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchEvent<T>> {
    this.calls.push('iterate');
    return { next: () => this.next() };
  }

  private push(entry: Entry<T>): void {
    if (this.stopped || this.ended) return;
    if ('end' in entry || 'failure' in entry) this.ended = true;
    const resolve = this.waiting.shift();
    if (resolve) resolve(entry);
    else this.buffered.push(entry);
  }

  private async next(): Promise<IteratorResult<WatchEvent<T>>> {
    const entry: Entry<T> = this.stopped
      ? { end: true }
      : (this.buffered.shift() ?? (await new Promise<Entry<T>>((resolve) => this.waiting.push(resolve))));
    if ('failure' in entry) throw entry.failure;
    if ('end' in entry) return { done: true, value: undefined };
    return { done: false, value: entry.event };
  }
}
