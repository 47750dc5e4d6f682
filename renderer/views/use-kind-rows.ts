// The visible, ordered key list of the active kind: the mirror queried with the filter bar's
// expression, the namespace pick and the sort. React subscribes to the subscription's revision, never
// to rows; the query reruns when the revision, filter or sort changes, and under churn at most once per
// a few query-durations, so 150k rows changing every frame cost a bounded share of the main thread.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { RowFilter, RowSort } from '../store/row-query';
import { SortedOrder } from './sorted-order';
import type { SubscriptionMirror } from '../store/subscription-mirror';
import type { FilterExpression } from '../ui-state/filter-expression';
import { queryKindRows } from './kind-rows-query';
import type { KindRowsSnapshot } from './kind-rows-query';
import { useMirrorState, useServices } from './app-context';

export interface KindRows {
  readonly keys: readonly string[];
  /** Rows in the mirror when `keys` were taken (the "of 12,403"), so "N of M" always agree. */
  readonly total: number;
  /** The revision the rows were read at; visible rows re-read when it moves. */
  readonly revision: number;
  readonly mirror: SubscriptionMirror | undefined;
  readonly hasSnapshot: boolean;
}

/** Busy-time share a query may take while rows churn: it waits this many durations before rerunning. */
const quietFactor = 4;

/** The revision to query at: follows `revision`, but no sooner than `minimumGapMs` after the last query. */
function useThrottledRevision(revision: number, minimumGapMs: number): number {
  const [settled, setSettled] = useState(revision);
  const lastRun = useRef(0);
  useEffect(() => {
    if (revision === settled) return;
    const wait = lastRun.current + minimumGapMs - performance.now();
    if (wait <= 0) {
      lastRun.current = performance.now();
      setSettled(revision);
      return;
    }
    const timer = setTimeout(() => {
      lastRun.current = performance.now();
      setSettled(revision);
    }, wait);
    return () => clearTimeout(timer);
  }, [revision, settled, minimumGapMs]);
  return settled;
}

/**
 * `ownersThrough`: the subscription of the kind between these rows and the owners owner= names
 * (ReplicaSets, for pods under a Deployment), while the filter has owner=; see ownerQuery.
 */
export function useKindRows(
  subscriptionId: string | undefined,
  expression: FilterExpression,
  namespaces: readonly string[],
  sort: RowSort,
  ownersThrough?: string,
): KindRows {
  const { bridge } = useServices();
  const liveRevision = useMirrorState((state) =>
    subscriptionId ? (state.revisions[subscriptionId] ?? 0) : 0,
  );
  const throughRevision = useMirrorState((state) =>
    ownersThrough ? (state.revisions[ownersThrough] ?? 0) : 0,
  );
  const cost = useRef(0);
  const order = useRef(new SortedOrder());
  const revision = useThrottledRevision(liveRevision, cost.current * quietFactor);
  const mirror = subscriptionId ? bridge.store.mirror(subscriptionId) : undefined;

  const filter = useMemo<RowFilter>(() => {
    const picked = new Set(namespaces);
    for (const namespace of expression.namespaces) picked.add(namespace);
    return {
      ...(picked.size > 0 ? { namespaces: picked } : {}),
      ...(expression.labelSelector ? { labelSelector: expression.labelSelector } : {}),
      ...(expression.node !== undefined ? { node: expression.node } : {}),
      ...(expression.status !== undefined ? { status: expression.status } : {}),
      ...(expression.text !== undefined ? { text: expression.text } : {}),
    };
  }, [expression, namespaces]);

  const { keys, total } = useMemo<KindRowsSnapshot>(() => {
    if (!mirror) return { keys: [], total: 0 };
    const started = performance.now();
    const through = ownersThrough ? bridge.store.mirror(ownersThrough) : undefined;
    const result = queryKindRows(mirror, expression, filter, sort, order.current, through);
    cost.current = performance.now() - started;
    return result;
    // The revisions are the mirrors' change signals: the rows behind them changed when they moved.
  }, [bridge, mirror, revision, ownersThrough, throughRevision, filter, expression, sort]);

  return {
    keys,
    total,
    revision: liveRevision,
    mirror,
    hasSnapshot: mirror?.hasSnapshot ?? false,
  };
}
