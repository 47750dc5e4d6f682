// The whole mirror in sort order, kept from one revision to the next. Re-sorting 150k rows from
// scratch costs n log n collator comparisons per change; re-sorting the previous order (with new keys
// appended) costs about n, because V8's sort (TimSort) runs in linear time on nearly sorted input and
// a revision moves only the rows that changed. Filters that no index narrows (free text, negative
// selectors, no filter at all) then walk this order instead of sorting their result.
import type { CellValue, Row } from '../../shared/protocol';
import type { RowFilter, RowSort } from '../store/row-query';
import { compareCells, hasExclusions, matchesFilter, queryRows } from '../store/row-query';
import type { SubscriptionMirror } from '../store/subscription-mirror';

export class SortedOrder {
  private keys: string[] = [];
  private mirror: SubscriptionMirror | undefined;
  private sortId = '';
  private revision = -1;

  /** Every key of `mirror` in `sort` order (ties by key), reusing the previous order when it can. */
  all(mirror: SubscriptionMirror, sort: RowSort): readonly string[] {
    const sortId = `${String(sort.column)}:${sort.descending ? 'desc' : 'asc'}`;
    if (mirror === this.mirror && sortId === this.sortId && mirror.revision === this.revision)
      return this.keys;
    const reuse = mirror === this.mirror && sortId === this.sortId;
    const rows = mirror.rows;
    let candidates: string[];
    if (reuse) {
      const seen = new Set<string>();
      candidates = [];
      for (const key of this.keys) {
        if (rows.has(key)) {
          candidates.push(key);
          seen.add(key);
        }
      }
      for (const key of rows.keys()) if (!seen.has(key)) candidates.push(key);
    } else {
      candidates = [...rows.keys()];
    }
    const direction = sort.descending ? -1 : 1;
    const value = (row: Row | undefined): CellValue | undefined =>
      row === undefined
        ? undefined
        : typeof sort.column === 'number'
          ? row.cells[sort.column]
          : row[sort.column];
    const decorated = candidates.map((key) => ({ key, value: value(rows.get(key)) }));
    decorated.sort((left, right) => {
      const order = compareCells(left.value, right.value);
      if (order !== 0) return order * direction;
      return left.key < right.key ? -1 : left.key > right.key ? 1 : 0;
    });
    this.keys = decorated.map((entry) => entry.key);
    this.mirror = mirror;
    this.sortId = sortId;
    this.revision = mirror.revision;
    return this.keys;
  }
}

/** True when an index narrows `filter`'s candidates, so sorting just the matches is the cheaper way. */
export function isIndexed(filter: RowFilter): boolean {
  const namespaces = filter.namespaces;
  const hasNamespaces =
    namespaces !== undefined &&
    (namespaces instanceof Set ? namespaces.size > 0 : (namespaces as readonly string[]).length > 0);
  if (
    hasNamespaces ||
    filter.node !== undefined ||
    filter.ownerUid !== undefined ||
    filter.status !== undefined
  )
    return true;
  return (filter.labelSelector?.requirements ?? []).some((requirement) =>
    ['=', '==', 'in', 'exists'].includes(requirement.operator),
  );
}

/**
 * The keys matching `filter` in `sort` order: through the store when an index narrows the filter or the
 * order is by name ascending (the default), else from `order`. A row's name never changes, so the
 * store's name order moves only when rows come or go, while `order` re-sorts at every revision (a
 * third of the query time while typing at 50,000 pods under 2,000 changes a second).
 */
export function orderedQuery(
  mirror: SubscriptionMirror,
  filter: RowFilter,
  sort: RowSort,
  order: SortedOrder,
): readonly string[] {
  if (isIndexed(filter) || (sort.column === 'name' && !sort.descending))
    return queryRows(mirror, filter, sort);
  const all = order.all(mirror, sort);
  const text = filter.text?.trim().toLowerCase() || undefined;
  if (!text && !filter.labelSelector && !hasExclusions(filter.without)) return all;
  const result: string[] = [];
  for (const key of all) {
    const row = mirror.rows.get(key);
    if (row && matchesFilter(row, filter, text)) result.push(key);
  }
  return result;
}
