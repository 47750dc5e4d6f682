// A feed's compactor (object-compactor.ts) is its informer's TransformFunc, and DeltaFIFO runs it as
// client-go does: for a LIST, inside the one Replace of every item, a single task of ~6 µs per pod
// (a second of frozen main process at 150,000 pods). This ListerWatcher has the inner one compact
// each item as it is decoded (the parsed original is then garbage while still young, which keeps
// collections short), and compacts in turns whatever came back uncompacted; the compactor remembers
// what it compacted ahead, so its later calls on those items, DeltaFIFO's included, are lookups.
// Watch events are untouched: DeltaFIFO compacts them one at a time, which is already a short task.
import type { Clock } from '../cache/clock';
import type { ListerWatcher } from '../cache/lister-watcher';
import { TurnBudget, nextTurn } from '../cache/turn-budget';
import type { KubeObject } from '../../shared/kube/object';
import type { ObjectCompactor } from './object-compactor';

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
      const list = await inner.list(options, signal, compact);
      const items = list.items ?? [];
      const turn = new TurnBudget(clock, itemsPerTurn);
      for (let index = 0; index < items.length && !signal.aborted; index++) {
        items[index] = compact(items[index]);
        if (turn.spend()) await nextTurn();
      }
      return list;
    },
    watch: (options, signal) => inner.watch(options, signal),
  };
}
