// One query of a kind's rows for the table: the matching keys in order and the total they are counted
// against, read from the mirror at the same moment. The table re-queries at most once per few
// query-durations under churn, so a total read later (at render) would count rows the keys have not
// caught up with: "5,088 of 5,029" with no filter at all. Taken together, "N of M" always agree.
import type { NarrowingQuery } from '../store/narrowing-query';
import type { RowFilter, RowSort } from '../store/row-query';
import type { SubscriptionMirror } from '../store/subscription-mirror';
import type { FilterExpression } from '../ui-state/filter-expression';
import { ownerQuery } from './owner-names';
import type { SortedOrder } from './sorted-order';
import { orderedQuery } from './sorted-order';

export interface KindRowsSnapshot {
  /** The keys matching the filter, in sort order. */
  readonly keys: readonly string[];
  /** Rows in the mirror when the keys were taken (the "of 12,403"). */
  readonly total: number;
}

/**
 * The matching keys and the mirror's size, both as of now. `through` is the mirror of the kind between
 * these rows and the owners owner= names (ReplicaSets, for pods under a Deployment): see ownerQuery.
 * `narrowing` keeps the view's last answer in name order, so a filter that narrows it (typing on, or
 * the same filter after churn) filters that answer instead of every row.
 */
export function queryKindRows(
  mirror: SubscriptionMirror,
  expression: FilterExpression,
  filter: RowFilter,
  sort: RowSort,
  order: SortedOrder,
  through?: SubscriptionMirror,
  narrowing?: NarrowingQuery,
): KindRowsSnapshot {
  const byName = sort.column === 'name' && !sort.descending;
  const keys =
    expression.owner !== undefined
      ? ownerQuery(mirror, expression.owner, filter, sort, order, through)
      : narrowing !== undefined && byName
        ? narrowing.query(mirror, filter, sort)
        : orderedQuery(mirror, filter, sort, order);
  return { keys, total: mirror.rows.size };
}

/** The filter the view asks the store for: the namespaces picked beside the typed text's, and its terms. */
export function rowFilterOf(expression: FilterExpression, namespaces: Iterable<string> = []): RowFilter {
  const picked = new Set(namespaces);
  for (const namespace of expression.namespaces) picked.add(namespace);
  return {
    ...(picked.size > 0 ? { namespaces: picked } : {}),
    ...(expression.labelSelector ? { labelSelector: expression.labelSelector } : {}),
    ...(expression.node !== undefined ? { node: expression.node } : {}),
    ...(expression.status !== undefined ? { status: expression.status } : {}),
    ...(expression.without ? { without: expression.without } : {}),
    ...(expression.text !== undefined ? { text: expression.text } : {}),
  };
}
