// One query of a kind's rows for the table: the matching keys in order and the total they are counted
// against, read from the mirror at the same moment. The table re-queries at most once per few
// query-durations under churn, so a total read later (at render) would count rows the keys have not
// caught up with: "5,088 of 5,029" with no filter at all. Taken together, "N of M" always agree.
import type { Row } from '../../shared/protocol';
import type { RowFilter, RowSort } from '../store/row-query';
import { compareCells } from '../store/row-query';
import type { SubscriptionMirror } from '../store/subscription-mirror';
import type { FilterExpression } from '../ui-state/filter-expression';
import { ownerUidsNamed } from './owner-names';
import type { SortedOrder } from './sorted-order';
import { orderedQuery } from './sorted-order';

export interface KindRowsSnapshot {
  /** The keys matching the filter, in sort order. */
  readonly keys: readonly string[];
  /** Rows in the mirror when the keys were taken (the "of 12,403"). */
  readonly total: number;
}

/** The matching keys and the mirror's size, both as of now. */
export function queryKindRows(
  mirror: SubscriptionMirror,
  expression: FilterExpression,
  filter: RowFilter,
  sort: RowSort,
  order: SortedOrder,
): KindRowsSnapshot {
  return { keys: queryWithOwners(mirror, expression, filter, sort, order), total: mirror.rows.size };
}

/** `owner=` names a workload: rows owned by any object of that name, merged in sort order. */
function queryWithOwners(
  mirror: SubscriptionMirror,
  expression: FilterExpression,
  filter: RowFilter,
  sort: RowSort,
  order: SortedOrder,
): string[] {
  if (expression.owner === undefined) return orderedQuery(mirror, filter, sort, order);
  const uids = ownerUidsNamed(mirror, expression.owner);
  if (uids.length <= 1)
    return orderedQuery(mirror, { ...filter, ownerUid: uids[0] ?? '\u0000none' }, sort, order);
  const merged = new Set(
    uids.flatMap((ownerUid) => orderedQuery(mirror, { ...filter, ownerUid }, sort, order)),
  );
  const value = (row: Row | undefined) =>
    typeof sort.column === 'number' ? row?.cells[sort.column] : row?.[sort.column as 'name'];
  return [...merged].sort(
    (left, right) =>
      compareCells(value(mirror.rows.get(left)), value(mirror.rows.get(right))) * (sort.descending ? -1 : 1),
  );
}
