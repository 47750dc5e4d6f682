// A feed's compactor (object-compactor.ts) is its informer's TransformFunc, and DeltaFIFO runs it as
// client-go does: for a LIST, inside the one Replace of every item, a single task of ~6 µs per pod
// (a second of frozen main process at 150,000 pods). This ListerWatcher has the inner one compact
// each item as it is decoded (the parsed original is then garbage while still young, which keeps
// collections short), and compacts in turns whatever came back uncompacted; the compactor remembers
// what it compacted ahead, so its later calls on those items, DeltaFIFO's included, are lookups.
// Watch events are left to DeltaFIFO, which compacts them one at a time (already a short task), except
// a DELETED event's object: it is compacted here as a final state (ObjectCompactor.compactFinal), which
// spares it the walk against its siblings (a fifth of the pod events of a churning cluster).
import type { Clock } from '../cache/clock';
import type { DecodeHints, ListerWatcher, Watcher } from '../cache/lister-watcher';
import type { BufferedWatcher } from '../cache/reflector-watch';
import { TurnBudget } from '../cache/turn-budget';
import type { KubeObject, WatchEvent } from '../../shared/kube/object';
import type { ObjectCompactor } from './object-compactor';

/** The compactor drops managedFields: the inner decoder need not parse them. */
const compactorDrops: DecodeHints = { omitManagedFields: true };

/** Items compacted back to back before yielding (the turn also ends at turnBudgetMs). */
const itemsPerTurn = 1000;

export function compactingListerWatcher<T extends KubeObject>(
  inner: ListerWatcher<T>,
  compactor: ObjectCompactor,
  clock: Clock,
): ListerWatcher<T> {
  return {
    supportsWatchList: inner.supportsWatchList,
    async list(options, signal) {
      // Items the inner ListerWatcher compacted as they were decoded pass the loop below as lookups.
      const compact = compactor.compactAhead as (item: T) => T;
      const list = await inner.list(options, signal, compact, compactorDrops);
      const items = list.items ?? [];
      const turn = new TurnBudget(clock, itemsPerTurn);
      for (let index = 0; index < items.length && !signal.aborted; index++) {
        items[index] = compact(items[index]);
        if (turn.spend()) await turn.nextTurn();
      }
      return list;
    },
    async watch(options, signal) {
      return withFinalStatesCompacted(await inner.watch(options, signal, compactorDrops), compactor);
    },
  };
}

/** `watcher`, whose DELETED events carry their object compacted as a final state. */
function withFinalStatesCompacted<T extends KubeObject>(
  watcher: Watcher<T>,
  compactor: ObjectCompactor,
): Watcher<T> {
  const compactFinal = compactor.compactFinal as (object: T) => T;
  const compacted = (event: WatchEvent<T>): WatchEvent<T> => {
    if (event.type === 'DELETED') event.object = compactFinal(event.object);
    return event;
  };
  const wrapped: Watcher<T> & Partial<BufferedWatcher<T>> = {
    stop: () => watcher.stop(),
    [Symbol.asyncIterator]() {
      const events = watcher[Symbol.asyncIterator]();
      return {
        next: async () => {
          const result = await events.next();
          if (!result.done) compacted(result.value);
          return result;
        },
        return: async (value?: unknown) => events.return?.(value) ?? { done: true, value: undefined },
      };
    },
  };
  // A burst a WatchStream has already decoded stays one await for the Reflector (BufferedWatcher).
  const buffered = watcher as Partial<BufferedWatcher<T>>;
  if (typeof buffered.takeBuffered === 'function') {
    const takeBuffered = buffered.takeBuffered.bind(watcher);
    wrapped.takeBuffered = () => {
      const event = takeBuffered();
      return event && compacted(event);
    };
  }
  return wrapped;
}
