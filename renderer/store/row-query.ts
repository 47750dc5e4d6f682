// Answers the filter bar from a mirror: the most selective index narrows the candidates, then every
// remaining condition is checked per candidate, and the result is sorted stably by one column. Pure
// and synchronous; a view memoizes it on (revision, filter, sort).
import type { LabelSelector } from '../../shared/selectors/label-selector';
import type { CellValue, Row } from '../../shared/protocol/row';
import type { SubscriptionMirror } from './subscription-mirror';
import type { ValueIndex } from './row-indexes';

export interface RowFilter {
  /** Rows in any of these namespaces; empty or absent means all. */
  namespaces?: ReadonlySet<string> | readonly string[];
  labelSelector?: LabelSelector;
  node?: string;
  /** Rows with an owner reference to this uid. */
  ownerUid?: string;
  status?: string;
  /** Case-insensitive substring of the name, namespace, or a label written key=value. */
  text?: string;
}

/** A column to sort by: an index into Row.cells, or one of the row's own fields. */
export type SortColumn = number | 'name' | 'namespace' | 'createdAt' | 'status' | 'node';

export interface RowSort {
  column: SortColumn;
  descending?: boolean;
}

/** Keys of the rows matching `filter`, sorted by `sort` (ties broken by key, so the order is stable). */
export function queryRows(mirror: SubscriptionMirror, filter: RowFilter = {}, sort?: RowSort): string[] {
  const keys: string[] = [];
  const text = filter.text?.trim().toLowerCase() || undefined;
  const candidates = narrowedKeys(mirror, filter);
  if ((sort?.column ?? 'name') === 'name' && candidates === undefined) {
    // No index narrows the scan: walk the cached name order instead of sorting every match again.
    for (const key of nameOrder(mirror)) {
      if (matchesFilter(mirror.rows.get(key)!, filter, text)) keys.push(key);
    }
    return sort?.descending ? keys.reverse() : keys;
  }
  for (const key of candidates ?? mirror.rows.keys()) {
    const row = mirror.rows.get(key);
    if (row && matchesFilter(row, filter, text)) keys.push(key);
  }
  return sortKeys(mirror.rows, keys, sort);
}

/** The number of rows matching `filter` ("1,204 of 12,403"), without sorting. */
export function countRows(mirror: SubscriptionMirror, filter: RowFilter = {}): number {
  let count = 0;
  const text = filter.text?.trim().toLowerCase() || undefined;
  for (const key of narrowedKeys(mirror, filter) ?? mirror.rows.keys()) {
    const row = mirror.rows.get(key);
    if (row && matchesFilter(row, filter, text)) count += 1;
  }
  return count;
}

/** Whether one row passes every condition of `filter`; the definition the indexes only accelerate. */
export function matchesFilter(
  row: Row,
  filter: RowFilter,
  lowerText = filter.text?.trim().toLowerCase(),
): boolean {
  const namespaces = asSet(filter.namespaces);
  if (namespaces && !namespaces.has(row.namespace)) return false;
  if (filter.node !== undefined && row.node !== filter.node) return false;
  if (filter.status !== undefined && row.status !== filter.status) return false;
  if (filter.ownerUid !== undefined && !row.owners.some((owner) => owner.uid === filter.ownerUid))
    return false;
  if (filter.labelSelector && !filter.labelSelector.matches(row.labels)) return false;
  if (lowerText && !matchesText(row, lowerText)) return false;
  return true;
}

function matchesText(row: Row, lowerText: string): boolean {
  if (row.name.toLowerCase().includes(lowerText)) return true;
  if (row.namespace.toLowerCase().includes(lowerText)) return true;
  for (const [key, value] of Object.entries(row.labels)) {
    if (`${key}=${value}`.toLowerCase().includes(lowerText)) return true;
  }
  return false;
}

function asSet(values: ReadonlySet<string> | readonly string[] | undefined): ReadonlySet<string> | undefined {
  if (values === undefined) return undefined;
  const set = values instanceof Set ? values : new Set(values as readonly string[]);
  return set.size === 0 ? undefined : set;
}

/**
 * The smallest key collection any indexed condition allows; undefined when no index narrows the
 * rows (the caller scans them all). Each collection is a superset of the answer: matchesFilter makes
 * the final decision.
 */
function narrowedKeys(mirror: SubscriptionMirror, filter: RowFilter): Iterable<string> | undefined {
  const { indexes } = mirror;
  const options: Iterable<string>[] = [];
  const namespaces = asSet(filter.namespaces);
  if (namespaces) options.push(union(indexes.byNamespace, namespaces));
  if (filter.node !== undefined) options.push(indexes.byNode.get(filter.node) ?? []);
  if (filter.ownerUid !== undefined) options.push(indexes.byOwnerUid.get(filter.ownerUid) ?? []);
  if (filter.status !== undefined) options.push(indexes.byStatus.get(filter.status) ?? []);
  for (const requirement of filter.labelSelector?.requirements ?? []) {
    const values = indexes.byLabel.get(requirement.key);
    switch (requirement.operator) {
      case '=':
      case '==':
      case 'in':
        options.push(values ? union(values, requirement.values) : []);
        break;
      case 'exists':
        options.push(values ? union(values, values.keys()) : []);
        break;
    }
  }
  let best: Iterable<string> | undefined;
  let bestSize = mirror.rows.size;
  for (const option of options) {
    const size = option instanceof Set ? option.size : (option as string[]).length;
    if (size < bestSize) {
      best = option;
      bestSize = size;
    }
  }
  return best;
}

/**
 * Every key of `mirror` in the default order (by name, ties by key), sorted once per membership:
 * names belong to keys, so updates in place never change it, and churn re-sorts nothing.
 */
const nameOrders = new WeakMap<SubscriptionMirror, { membership: number; keys: readonly string[] }>();
function nameOrder(mirror: SubscriptionMirror): readonly string[] {
  const cached = nameOrders.get(mirror);
  if (cached && cached.membership === mirror.membership) return cached.keys;
  const keys = sortKeys(mirror.rows, [...mirror.rows.keys()], { column: 'name' });
  nameOrders.set(mirror, { membership: mirror.membership, keys });
  return keys;
}

function union(index: ValueIndex, values: Iterable<string>): Set<string> | string[] {
  const sets: Set<string>[] = [];
  for (const value of values) {
    const keys = index.get(value);
    if (keys) sets.push(keys);
  }
  if (sets.length === 0) return [];
  if (sets.length === 1) return sets[0];
  const merged = new Set<string>();
  for (const keys of sets) for (const key of keys) merged.add(key);
  return merged;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function sortValue(row: Row, column: SortColumn): CellValue | undefined {
  return typeof column === 'number' ? row.cells[column] : row[column];
}

/** Numbers numerically, everything else as text with numeric-aware collation; null/undefined after values. */
export function compareCells(left: CellValue | undefined, right: CellValue | undefined): number {
  const leftMissing = left === null || left === undefined;
  const rightMissing = right === null || right === undefined;
  if (leftMissing || rightMissing) return leftMissing === rightMissing ? 0 : leftMissing ? 1 : -1;
  if (typeof left === 'number' && typeof right === 'number') return left - right;
  return collator.compare(String(left), String(right));
}

function isMissing(value: CellValue | undefined): boolean {
  return value === null || value === undefined;
}

/** Empty cells stay last in either direction, as kubectl users expect "<none>" at the bottom. */
function sortKeys(rows: ReadonlyMap<string, Row>, keys: string[], sort: RowSort | undefined): string[] {
  const column = sort?.column ?? 'name';
  const direction = sort?.descending ? -1 : 1;
  const decorated = keys.map((key) => ({ key, value: sortValue(rows.get(key)!, column) }));
  decorated.sort((left, right) => {
    const leftMissing = isMissing(left.value);
    if (leftMissing !== isMissing(right.value)) return leftMissing ? 1 : -1;
    const order = compareCells(left.value, right.value) * direction;
    if (order !== 0) return order;
    return left.key < right.key ? -1 : left.key > right.key ? 1 : 0;
  });
  return decorated.map((entry) => entry.key);
}
