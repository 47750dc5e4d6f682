// Tells, per kind, how long its open watch has gone without an event (bookmarks included), by tapping
// the watchers a ListerWatcherFactory makes. What the user cannot see: a "synced" badge over a watch
// that has been silent for longer than the server's bookmark cadence allows.
import type { ListerWatcherFactory } from '../../main/cache/informer-factory';
import type { Watcher } from '../../main/cache/lister-watcher';
import type { KubeObject, WatchEvent } from '../../shared/kube/object';
import { gvrKey } from '../../shared/kube/object';

interface Buffered {
  takeBuffered?(): WatchEvent<KubeObject> | undefined;
}

export class WatchSilence {
  /** Per kind: when its open watch last delivered an event (or opened); absent while none is open. */
  private readonly lastEventAt = new Map<string, number>();

  tap(inner: ListerWatcherFactory): ListerWatcherFactory {
    return (gvr, namespace, tweak) => {
      const listerWatcher = inner(gvr, namespace, tweak);
      const key = gvrKey(gvr);
      return {
        supportsWatchList: listerWatcher.supportsWatchList,
        list: (options, signal, transform) => listerWatcher.list(options, signal, transform),
        watch: async (options, signal) => this.observe(key, await listerWatcher.watch(options, signal)),
      };
    };
  }

  /** How long the kind's open watch has been silent, or undefined when none is open. */
  silentMs(key: string): number | undefined {
    const last = this.lastEventAt.get(key);
    return last === undefined ? undefined : Date.now() - last;
  }

  private observe(key: string, watcher: Watcher<KubeObject>): Watcher<KubeObject> {
    this.lastEventAt.set(key, Date.now());
    const seen = (event: WatchEvent<KubeObject> | undefined) => {
      if (event) this.lastEventAt.set(key, Date.now());
      return event;
    };
    const closed = () => this.lastEventAt.delete(key);
    const buffered = watcher as Watcher<KubeObject> & Buffered;
    return {
      stop: () => {
        closed();
        watcher.stop();
      },
      ...(buffered.takeBuffered ? { takeBuffered: () => seen(buffered.takeBuffered?.()) } : {}),
      [Symbol.asyncIterator]() {
        const iterator = watcher[Symbol.asyncIterator]();
        return {
          next: async () => {
            try {
              const result = await iterator.next();
              if (result.done) closed();
              else seen(result.value);
              return result;
            } catch (error) {
              closed();
              throw error;
            }
          },
          return: () => {
            closed();
            return iterator.return?.() ?? Promise.resolve({ done: true, value: undefined });
          },
        };
      },
    } as Watcher<KubeObject>;
  }
}
