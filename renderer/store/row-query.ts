// Answers the filter bar from a mirror: the most selective index narrows the candidates, then every
// remaining condition is checked per candidate, and the result is sorted stably by one column. Pure
// and synchronous; a view memoizes it on (revision, filter, sort).
import { requirementMatches } from '../../shared/selectors/label-selector';
import type { LabelSelector, Requirement } from '../../shared/selectors/label-selector';
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
  if (filter.labelSelector?.matchesNothing()) return [];
  const { accepts, excluded, keyOnly } = labelPlan(mirror, filter);
  const candidates = narrowedKeys(mirror, filter);
  const keys: string[] = [];
  if ((sort?.column ?? 'name') === 'name' && candidates === undefined && keyOnly) {
    const ordered = nameOrderWithout(mirror, excluded);
    return sort?.descending ? ordered.reverse() : ordered;
  }
  if ((sort?.column ?? 'name') === 'name' && candidates === undefined) {
    // No index narrows the scan: walk the cached name order instead of sorting every match again.
    for (const key of nameOrder(mirror).keys) if (accepts(key)) keys.push(key);
    return sort?.descending ? keys.reverse() : keys;
  }
  for (const key of candidates ?? mirror.rows.keys()) if (accepts(key)) keys.push(key);
  if ((sort?.column ?? 'name') === 'name' && !sort?.descending) return byNameRank(mirror, keys);
  return sortKeys(mirror.rows, keys, sort);
}

/** The number of rows matching `filter` ("1,204 of 12,403"), without sorting. */
export function countRows(mirror: SubscriptionMirror, filter: RowFilter = {}): number {
  if (filter.labelSelector?.matchesNothing()) return 0;
  const { accepts } = labelPlan(mirror, filter);
  let count = 0;
  for (const key of narrowedKeys(mirror, filter) ?? mirror.rows.keys()) if (accepts(key)) count += 1;
  return count;
}

/**
 * matchesFilter for a key of `mirror`, answered from the indexes where they are exact: namespace,
 * node, status, owner and `=`/`in` require membership of index sets, `!=`/`notin`/`!` (the complement
 * of a lookup) require absence from them, so such a filter never reads a row. Free text, `>`/`<` and
 * `!` on a label with many values are checked on the row, exactly as matchesFilter does.
 */
interface LabelPlan {
  accepts: (key: string) => boolean;
  /** Keys that fail a negative requirement (a row that is in none of them passes those). */
  excluded: readonly ReadonlySet<string>[];
  /** True when `excluded` is the whole filter: no set to be in, nothing checked per row. */
  keyOnly: boolean;
}

function labelPlan(mirror: SubscriptionMirror, filter: RowFilter): LabelPlan {
  const required: ReadonlySet<string>[] = [];
  const excluded: ReadonlySet<string>[] = [];
  const perRow: Requirement[] = [];
  let impossible = false;
  // The namespace, node, status and owner indexes hold exactly the rows those conditions accept.
  const { indexes } = mirror;
  const namespaces = asSet(filter.namespaces);
  const exact: (Set<string> | string[] | undefined)[] = [
    namespaces && union(indexes.byNamespace, namespaces),
    filter.node === undefined ? undefined : (indexes.byNode.get(filter.node) ?? []),
    filter.status === undefined ? undefined : (indexes.byStatus.get(filter.status) ?? []),
    filter.ownerUid === undefined ? undefined : (indexes.byOwnerUid.get(filter.ownerUid) ?? []),
  ];
  for (const keys of exact) {
    if (keys instanceof Set) required.push(keys);
    else if (keys) impossible = true;
  }
  for (const requirement of filter.labelSelector?.requirements ?? []) {
    const values = mirror.indexes.labelValues(requirement.key);
    switch (requirement.operator) {
      case '=':
      case '==':
      case 'in': {
        const keys = values ? union(values, requirement.values) : [];
        if (keys instanceof Set) required.push(keys);
        else impossible = true;
        break;
      }
      case '!=':
      case 'notin':
        for (const value of requirement.values) {
          const keys = values?.get(value);
          if (keys) excluded.push(keys);
        }
        break;
      case '!':
        if (values && values.size > maxExcludedSets) perRow.push(requirement);
        else if (values) excluded.push(...values.values());
        break;
      default:
        perRow.push(requirement);
    }
  }
  if (impossible) return { accepts: () => false, excluded, keyOnly: false };
  const rest: RowFilter = { text: filter.text };
  const lowerText = filter.text?.trim().toLowerCase() || undefined;
  const readsRow = perRow.length > 0 || lowerText !== undefined;
  const accepts = (key: string): boolean => {
    for (const keys of required) if (!keys.has(key)) return false;
    for (const keys of excluded) if (keys.has(key)) return false;
    if (!readsRow) return true;
    const row = mirror.rows.get(key);
    if (!row || !matchesFilter(row, rest, lowerText)) return false;
    for (const requirement of perRow) if (!requirementMatches(requirement, row.labels)) return false;
    return true;
  };
  return { accepts, excluded, keyOnly: required.length === 0 && !readsRow };
}

/** Past this many values, `!key` is checked on each row rather than against every value's key set. */
const maxExcludedSets = 8;

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
    const values = indexes.labelValues(requirement.key);
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
 * names belong to keys, so updates in place never change it, and churn re-sorts nothing. `ranks`
 * (key -> position) lets a narrowed result be put in that order by comparing integers.
 */
interface NameOrder {
  membership: number;
  keys: readonly string[];
  ranks?: Map<string, number>;
}
const nameOrders = new WeakMap<SubscriptionMirror, NameOrder>();
function nameOrder(mirror: SubscriptionMirror): NameOrder {
  const cached = nameOrders.get(mirror);
  if (cached && cached.membership === mirror.membership) return cached;
  const keys = cached
    ? mergedNameOrder(mirror.rows, cached.keys)
    : sortKeys(mirror.rows, [...mirror.rows.keys()], { column: 'name' });
  const order: NameOrder = { membership: mirror.membership, keys };
  nameOrders.set(mirror, order);
  return order;
}

/**
 * The name order after rows came and went, from the previous order: keys that left are dropped, and
 * only the keys that arrived are sorted, then merged in. Under churn at 150,000 rows this is a linear
 * pass instead of a collator sort of every name (which took seconds).
 */
function mergedNameOrder(rows: ReadonlyMap<string, Row>, previous: readonly string[]): string[] {
  const kept: string[] = [];
  const known = new Set<string>();
  for (const key of previous) {
    if (!rows.has(key)) continue;
    kept.push(key);
    known.add(key);
  }
  const arrived: string[] = [];
  for (const key of rows.keys()) if (!known.has(key)) arrived.push(key);
  if (arrived.length === 0) return kept;
  const added = sortKeys(rows, arrived, { column: 'name' });
  const merged = new Array<string>(kept.length + added.length);
  let left = 0;
  let right = 0;
  for (let index = 0; index < merged.length; index++) {
    const takeLeft =
      right >= added.length || (left < kept.length && compareByName(rows, kept[left]!, added[right]!) <= 0);
    merged[index] = takeLeft ? kept[left++]! : added[right++]!;
  }
  return merged;
}

/** The order sortKeys gives by name, for two keys. */
function compareByName(rows: ReadonlyMap<string, Row>, left: string, right: string): number {
  const leftValue = sortValue(rows.get(left)!, 'name');
  const rightValue = sortValue(rows.get(right)!, 'name');
  const leftMissing = isMissing(leftValue);
  if (leftMissing !== isMissing(rightValue)) return leftMissing ? 1 : -1;
  const order = compareCells(leftValue, rightValue);
  if (order !== 0) return order;
  return left < right ? -1 : left > right ? 1 : 0;
}

function nameRanks(order: NameOrder): Map<string, number> {
  if (!order.ranks) {
    const ranks = new Map<string, number>();
    order.keys.forEach((key, rank) => ranks.set(key, rank));
    order.ranks = ranks;
  }
  return order.ranks;
}

/** `keys` (all in `mirror`) in the default name order, without comparing a single name. */
function byNameRank(mirror: SubscriptionMirror, keys: string[]): string[] {
  if (keys.length < 2) return keys;
  const order = nameOrder(mirror);
  const rankOf = nameRanks(order);
  const ranks = new Int32Array(keys.length);
  for (let index = 0; index < keys.length; index++) ranks[index] = rankOf.get(keys[index])!;
  ranks.sort();
  const sorted = new Array<string>(ranks.length);
  for (let index = 0; index < ranks.length; index++) sorted[index] = order.keys[ranks[index]];
  return sorted;
}

/**
 * Every key in the default name order except those in `excluded`: the complement of index lookups,
 * found by marking the excluded keys' ranks, so the keys that pass are never hashed.
 */
function nameOrderWithout(mirror: SubscriptionMirror, excluded: readonly ReadonlySet<string>[]): string[] {
  const order = nameOrder(mirror);
  if (excluded.length === 0) return order.keys.slice();
  const rankOf = nameRanks(order);
  const marked = new Uint8Array(order.keys.length);
  let markedCount = 0;
  for (const keys of excluded) {
    for (const key of keys) {
      const rank = rankOf.get(key)!;
      markedCount += 1 - marked[rank];
      marked[rank] = 1;
    }
  }
  const kept = new Array<string>(order.keys.length - markedCount);
  let next = 0;
  for (let rank = 0; rank < marked.length; rank++) if (marked[rank] === 0) kept[next++] = order.keys[rank];
  return kept;
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
