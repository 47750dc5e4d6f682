// The visible, ordered key list of the active kind: the mirror queried with the filter bar's
// expression, the namespace pick and the sort. The subscription's revision is followed outside React,
// never its rows; the query reruns when the revision, filter or sort changes, and under churn at most
// once per a few query-durations, so 150k rows changing every frame cost a bounded share of the main
// thread.
//
// The query runs in a task of its own, never inside a render. Run in a deferred render, as it was, a
// query of 150,000 rows was thrown away whenever a churn batch (every frame) or a key interrupted that
// render, and ran again from the start: in the ui bench's typing profile at 50,000 pods a keystroke
// waited through several queries, up to seconds. A task always finishes, reads the newest inputs when
// it starts (keys typed while one runs cost one query, not one each), and hands the render a finished
// answer.
//
// A query that has been cheap (typing on narrows the last answer: see NarrowingQuery) runs instead in
// a layout effect of the render that changed its inputs, so the key and its table paint in the same
// frame: a task waits behind the next animation frame (its churn batch, its render, its paint), and
// the render of the task's answer behind one more.
// A live re-query because rows churned waits while the user scrolls (RevisionSettler), and runs in a
// task of its own, never in the frame that applied the rows (followSettledRequeries), and the window
// renders once, for its answer.
//
// A task's answer renders in that task (flushSync), not in a task of React's scheduler after it: set
// from a timer, the answer's state update was scheduled as a MessageChannel message, and its passive
// effects as another, so a re-query under churn was two or three script tasks, each one the load can
// stretch into a long-task entry (issue 15, session 19). The typed key's task saves the same hop.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { leaseKeys, returnKeys } from '../store/key-leases';
import { NarrowingQuery } from '../store/narrowing-query';
import type { RowFilter, RowSort } from '../store/row-query';
import { SortedOrder } from './sorted-order';
import type { SubscriptionMirror } from '../store/subscription-mirror';
import type { FilterExpression } from '../ui-state/filter-expression';
import { queryKindRows, rowFilterOf } from './kind-rows-query';
import type { KindRowsSnapshot } from './kind-rows-query';
import { useMirrorState, useServices } from './app-context';
import { useWarmLabelIndexes } from './use-warm-label-indexes';
import { feedLists } from './settled-revision';
import { followSettledRequeries } from './settled-requery';
import { watchWindowInput } from '../ui-state/input-quiet';

export interface KindRows {
  readonly keys: readonly string[];
  /** The filter bar's text these keys answer (it trails the typed text while a query is pending). */
  readonly filterText: string;
  /** That text's expression. */
  readonly expression: FilterExpression;
  /** Rows in the mirror when `keys` were taken (the "of 12,403"), so "N of M" always agree. */
  readonly total: number;
  /** The mirror's subscription: the table follows its revision to re-read the visible rows. */
  readonly subscriptionId: string | undefined;
  readonly mirror: SubscriptionMirror | undefined;
  readonly hasSnapshot: boolean;
  /** The mirror's revision `keys` and `total` were taken at (undefined without a mirror). */
  readonly answeredRevision: number | undefined;
}

/** Busy-time share a query may take while rows churn: it waits this many durations before rerunning. */
const quietFactor = 4;

/**
 * The least time between two queries that live churn asks for. The visible rows re-read their
 * objects at every revision, so an update in place shows in its own frame whatever this is; only
 * keys coming and going (and "N of M") wait for the next query. Re-querying every frame at 150,000
 * pods replaced the whole name order 60 times a second (1.8 MB of garbage each, collected in the
 * page's own time under churn), and each re-query rendered the window twice more (the settled
 * revision, then the answer).
 */
export const liveRequeryGapMs = 100;

/**
 * Rows per millisecond of the least gap between live re-queries. A re-query that lists most rows
 * reads the kept name order, which after keys came or went is a copy of every key, name and rank:
 * about 20 bytes a row of large objects, which only a major collection (a long task of the page)
 * frees. At 150,000 rows every 100 ms that was 30 MB a second; one every 300 ms makes 10, as at
 * 50,000 rows every 100 ms.
 */
const rowsPerGapMs = 500;

/**
 * Rows per millisecond of the least gap between re-queries while a kind's first list streams in. Each
 * re-query then places the rows that arrived since the last one in the name order, a new copy of every
 * key, name and rank: at 150,000 pods the page's name order was 11% of its busy time to "synced", most
 * of it these copies, one every 4 query-durations (~200 ms). One every rows/150 ms (1 s at 150,000)
 * still left 9% in a loaded run, which a listing stretched to 45 s; one every 3 s at 150,000 rows (1 s
 * at 50,000) makes it a few dozen copies however long the list takes. The visible rows change little
 * while a list streams in, and its end is answered at once (see RevisionSettler).
 */
const listingRowsPerGapMs = 50;

/**
 * - live: the kind's rows are listed and churn: re-queries are spaced by their cost and the rows.
 * - listing: its first list is streaming in: spaced further by the rows (listingRowsPerGapMs).
 * - replay: a travel's snapshot or a playback, followed as closely as the cost allows, since what it
 *   brings is what the user waits for.
 */
export type RequeryMode = 'live' | 'listing' | 'replay';

/**
 * A replay's mode, else listing until the mirror's snapshot has ended and its feed no longer lists. A
 * page opened while main lists the kind gets a snapshot of the rows listed so far (often none) and the
 * rest as live batches: spaced as live churn (100 ms at 50,000 rows), its re-queries placed each
 * frame's arrivals in a new copy of the name order and re-rendered the window, the name order alone
 * 7% of the page's busy time to "synced" at 50,000 pods. The listing's end is followed at once
 * (followSettledRevision).
 */
export function requeryMode(replayed: boolean, hasSnapshot: boolean, listing: boolean): RequeryMode {
  if (replayed) return 'replay';
  return hasSnapshot && !listing ? 'live' : 'listing';
}

/** How long after a query the next one the rows' changes ask for may run, given the last one's cost. */
export function requeryGapMs(lastCostMs: number, mode: RequeryMode, rows = 0): number {
  const byCost = lastCostMs * quietFactor;
  if (mode === 'replay') return byCost;
  const perRow = mode === 'live' ? rowsPerGapMs : listingRowsPerGapMs;
  return Math.max(liveRequeryGapMs, rows / perRow, byCost);
}

/** A query whose last run took at most this long runs before the frame is painted, not in a task. */
const beforePaintBudgetMs = 8;

/** What the table shows: the keys of one query and the inputs it answered. */
interface Answer extends KindRowsSnapshot {
  readonly mirror: SubscriptionMirror | undefined;
  readonly filterText: string;
  readonly expression: FilterExpression;
  readonly asked: Asked;
}

/** A query's inputs, as of the last committed render. */
interface QueryInputs {
  readonly mirror: SubscriptionMirror | undefined;
  readonly through: SubscriptionMirror | undefined;
  readonly filterText: string;
  readonly expression: FilterExpression;
  readonly filter: RowFilter;
  readonly sort: RowSort;
}

function answer(inputs: QueryInputs, order: SortedOrder, narrowing: NarrowingQuery): Answer {
  const { mirror, filterText, expression } = inputs;
  const result = mirror
    ? queryKindRows(mirror, expression, inputs.filter, inputs.sort, order, inputs.through, narrowing)
    : { keys: [], total: 0 };
  return { ...result, mirror, filterText, expression, asked: askedOf(inputs) };
}

/** What an answer answered: its inputs, and the rows as of the mirrors' revisions then. */
interface Asked {
  readonly inputs: QueryInputs;
  readonly revision: number | undefined;
  readonly throughRevision: number | undefined;
}

function askedOf(inputs: QueryInputs): Asked {
  return { inputs, revision: inputs.mirror?.revision, throughRevision: inputs.through?.revision };
}

/** True when `answered` was asked the same question of the same rows as `asked` asks now. */
function sameQuestion(answered: Asked, asked: Asked): boolean {
  const before = answered.inputs;
  const now = asked.inputs;
  return (
    before.mirror === now.mirror &&
    before.through === now.through &&
    before.filterText === now.filterText &&
    before.expression === now.expression &&
    before.filter === now.filter &&
    before.sort === now.sort &&
    answered.revision === asked.revision &&
    answered.throughRevision === asked.throughRevision
  );
}

/**
 * Leases `keys` from the render that commits them until a render drops them (see key-leases.ts): the
 * name order never writes into an array the table may render again.
 */
function useLeasedKeys(keys: readonly string[] | undefined): void {
  useLayoutEffect(() => {
    if (keys === undefined) return;
    leaseKeys(keys);
    return () => returnKeys(keys);
  }, [keys]);
}

/**
 * `filterText` is the filter bar's text and `expression` its parse. `ownersThrough`: the subscription
 * of the kind between these rows and the owners owner= names (ReplicaSets, for pods under a
 * Deployment), while the filter has owner=; see ownerQuery.
 */
export function useKindRows(
  subscriptionId: string | undefined,
  filterText: string,
  expression: FilterExpression,
  namespaces: readonly string[],
  sort: RowSort,
  ownersThrough?: string,
): KindRows {
  const { bridge } = useServices();
  const throughRevision = useMirrorState((state) =>
    ownersThrough ? (state.revisions[ownersThrough] ?? 0) : 0,
  );
  // Unknown until a query task has run: until then queries run in tasks.
  const cost = useRef<number | undefined>(undefined);
  const order = useRef(new SortedOrder());
  const narrowing = useRef(new NarrowingQuery());
  useEffect(() => () => narrowing.current.release(), []);
  const mirror = subscriptionId ? bridge.store.mirror(subscriptionId) : undefined;
  const through = ownersThrough ? bridge.store.mirror(ownersThrough) : undefined;
  // A replay's rows (a travel, a playback at 10x) change too fast to be worth keeping indexed ahead.
  const replayed = useMirrorState((state) =>
    subscriptionId ? state.replays[subscriptionId] !== undefined : false,
  );
  const listing = useMirrorState((state) => feedLists(state, subscriptionId));
  const live = !replayed && (mirror?.hasSnapshot ?? false);
  const mode = requeryMode(replayed, live, listing);
  // Nor while the first list streams in: the change log outruns a read a second, and each read built
  // the indexes again from every row (8% of the page's CPU to "synced" at 50,000 pods).
  useWarmLabelIndexes(replayed || listing ? undefined : mirror, mirror?.hasSnapshot ?? false);

  const filter = useMemo<RowFilter>(() => rowFilterOf(expression, namespaces), [expression, namespaces]);

  const inputs: QueryInputs = { mirror, through, filterText, expression, filter, sort };
  // A new mirror (another kind, a travel's replay) is answered in the render that shows it, so the
  // table never lists one kind's keys under another's title.
  const [latest, setLatest] = useState<Answer | undefined>(undefined);
  // Keyed on the mirror alone: within one mirror, the query task below answers every change.
  const firstAnswer = useMemo(() => answer(inputs, order.current, narrowing.current), [mirror]);
  const shown = latest !== undefined && latest.mirror === mirror ? latest : firstAnswer;
  // Both may be shown at a later render (the first answer until a query answers the mirror, the last
  // again when the view comes back to its mirror): their keys are leased while this hook keeps them.
  useLeasedKeys(latest?.keys);
  useLeasedKeys(firstAnswer.keys);

  // What the settled revision's task reads: the committed render's inputs and answer, and how the
  // gap between re-queries is set now.
  const committed = useRef({ inputs, shown, mode, live, rows: mirror?.rows.size ?? 0 });
  useLayoutEffect(() => {
    committed.current = { inputs, shown, mode, live, rows: mirror?.rows.size ?? 0 };
  });
  const timedAnswer = (current: QueryInputs): Answer => {
    const started = performance.now();
    const next = answer(current, order.current, narrowing.current);
    cost.current = performance.now() - started;
    return next;
  };

  // The rows changed: re-query in a task once the revision settles (see followSettledRequeries).
  useEffect(() => {
    const input = watchWindowInput();
    return followSettledRequeries(bridge.store.state, subscriptionId, {
      requery: () => {
        const { inputs: current, shown: answered } = committed.current;
        if (sameQuestion(answered.asked, askedOf(current))) return;
        // Rendered even when the keys are the same: the window reads the selected row (the detail
        // pane) at its render. In this task (see the head of this file).
        const next = timedAnswer(current);
        flushSync(() => setLatest(next));
      },
      gapMs: () => requeryGapMs(cost.current ?? 0, committed.current.mode, committed.current.rows),
      // Live rows wait while the user scrolls (InputQuiet); a replay's do not.
      holdFor: (dueAt) => (committed.current.live ? input.delayFor(dueAt) : 0),
      hasSnapshot: () => committed.current.inputs.mirror?.hasSnapshot ?? false,
      now: () => performance.now(),
      setTimer: (callback, delayMs) => setTimeout(callback, delayMs),
      clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
    });
  }, [bridge, subscriptionId]);

  // The inputs changed (a key typed, the sort, the namespaces, the owners' rows).
  useLayoutEffect(() => {
    // The render that switched mirrors answered it already (firstAnswer): no second query of a new kind.
    if (sameQuestion(shown.asked, askedOf(inputs))) return;
    if (cost.current !== undefined && cost.current <= beforePaintBudgetMs) {
      setLatest(timedAnswer(inputs));
      return;
    }
    // Inputs that change again before the task runs cancel it: the task always answers the newest.
    const timer = setTimeout(() => {
      const next = timedAnswer(inputs);
      flushSync(() => setLatest(next));
    }, 0);
    return () => clearTimeout(timer);
    // throughRevision: the owners' mirror's change signal (only while the filter has owner=).
  }, [mirror, through, throughRevision, filterText, expression, filter, sort]);

  return {
    keys: shown.keys,
    total: shown.total,
    filterText: shown.filterText,
    expression: shown.expression,
    subscriptionId,
    mirror,
    hasSnapshot: mirror?.hasSnapshot ?? false,
    answeredRevision: shown.asked.revision,
  };
}
