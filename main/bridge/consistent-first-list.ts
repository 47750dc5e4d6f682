// A ListerWatcher whose first LIST is a consistent read. The Reflector's first LIST asks for
// resourceVersion "0" (any data the API server's watch cache has, cheap for the server but possibly
// older than what the client has already seen: client-go #83520). Where going back in time is not
// acceptable (a manual refresh over rows already shown), the first LIST asks for resourceVersion ""
// instead: a quorum read from etcd, never older than anything observed before it.
import type { ListerWatcher } from '../cache/lister-watcher';
import type { KubeObject } from '../../shared/kube/object';

/** Turns the first LIST at RV "0" into one at RV ""; continue pages and later lists pass unchanged. */
export function consistentFirstList<T extends KubeObject>(inner: ListerWatcher<T>): ListerWatcher<T> {
  let first = true;
  return {
    supportsWatchList: inner.supportsWatchList,
    watch: (options, signal, hints) => inner.watch(options, signal, hints),
    list: (options, signal, transformItem, hints) => {
      if (first && !options.continue) {
        first = false;
        if (options.resourceVersion === '0') options = { ...options, resourceVersion: '' };
      }
      return inner.list(options, signal, transformItem, hints);
    },
  };
}
