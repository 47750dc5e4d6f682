// client-go's closure-based ListWatch for tests: each call goes to the function the test supplied, and
// every call's options are recorded in order so tests can assert on the requests a Reflector made.
import type { ListOptions, ListerWatcher, Watcher } from '../../main/cache/lister-watcher';
import type { KubeList, KubeObject } from '../../shared/kube/object';

export interface ListWatchFunctions<T extends KubeObject = KubeObject> {
  list?: (options: ListOptions, signal: AbortSignal) => KubeList<T> | Promise<KubeList<T>>;
  watch?: (options: ListOptions, signal: AbortSignal) => Watcher<T> | Promise<Watcher<T>>;
  /** Declares watch-list (sendInitialEvents) support; undefined leaves it to the Reflector's option. */
  supportsWatchList?: boolean;
}

export type RecordedRequest = { verb: 'list' | 'watch'; options: ListOptions };

export class ListWatch<T extends KubeObject = KubeObject> implements ListerWatcher<T> {
  readonly requests: RecordedRequest[] = [];
  readonly supportsWatchList?: boolean;

  constructor(private readonly functions: ListWatchFunctions<T>) {
    this.supportsWatchList = functions.supportsWatchList;
  }

  get listOptions(): ListOptions[] {
    return this.requests.filter((request) => request.verb === 'list').map((request) => request.options);
  }

  get watchOptions(): ListOptions[] {
    return this.requests.filter((request) => request.verb === 'watch').map((request) => request.options);
  }

  async list(options: ListOptions, signal: AbortSignal): Promise<KubeList<T>> {
    this.requests.push({ verb: 'list', options: { ...options } });
    if (!this.functions.list) throw new Error('ListWatch: list was not expected');
    return this.functions.list(options, signal);
  }

  async watch(options: ListOptions, signal: AbortSignal): Promise<Watcher<T>> {
    this.requests.push({ verb: 'watch', options: { ...options } });
    if (!this.functions.watch) throw new Error('ListWatch: watch was not expected');
    return this.functions.watch(options, signal);
  }
}

/** A list of `items` at `resourceVersion`, with an optional continue token. */
export function listOf<T extends KubeObject>(
  resourceVersion: string,
  items: T[],
  continueToken?: string,
): KubeList<T> {
  return {
    metadata: { resourceVersion, ...(continueToken ? { continue: continueToken } : {}) },
    items,
  };
}
