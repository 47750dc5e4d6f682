// One query of a kind's rows for the table: the matching keys in order and the total they are counted
// against, read from the mirror at the same moment. The table re-queries at most once per few
// query-durations under churn, so a total read later (at render) would count rows the keys have not
// caught up with: "5,088 of 5,029" with no filter at all. Taken together, "N of M" always agree.
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
 */
export function queryKindRows(
  mirror: SubscriptionMirror,
  expression: FilterExpression,
  filter: RowFilter,
  sort: RowSort,
  order: SortedOrder,
  through?: SubscriptionMirror,
): KindRowsSnapshot {
  const keys =
    expression.owner === undefined
      ? orderedQuery(mirror, filter, sort, order)
      : ownerQuery(mirror, expression.owner, filter, sort, order, through);
  return { keys, total: mirror.rows.size };
}
