// Answers the filter bar from a mirror: the most selective index narrows the candidates, then every
// remaining condition is checked per candidate, and the result is sorted stably by one column. Pure
// and synchronous; a view memoizes it on (revision, filter, sort).
import { requirementMatches } from '../../shared/selectors/label-selector';
import type { LabelSelector, Requirement } from '../../shared/selectors/label-selector';
import type { CellValue, Row } from '../../shared/protocol/row';
import type { SubscriptionMirror } from './subscription-mirror';
import type { ValueIndex } from './row-indexes';
import { compareCells } from './compare-cells';
import { keysInNameOrder, nameOrderExcluding } from './few-by-name';
import { matchesText, textCandidates, textExclusions, textMatcher } from './text-match';

export { compareCells };

export interface RowFilter {
  /** Rows in any of these namespaces; empty or absent means all. */
  namespaces?: ReadonlySet<string> | readonly string[];
  labelSelector?: LabelSelector;
  node?: string;
  /** Rows with an owner reference to this uid. */
  ownerUid?: string;
  status?: string;
  /** Rows with none of these namespaces, nodes or statuses (`ns!=`, `node!=`, `status!=`). */
  without?: RowExclusions;
  /** Case-insensitive substring of the name, namespace, or a label written key=value. */
  text?: string;
}

/**
 * Index values a row must not have. A row without a node (not a pod) or a status is on no node and in
 * no status, so no exclusion of a node or a status leaves it out, as kubectl's `spec.nodeName!=x`
 * keeps an unscheduled pod.
 */
export interface RowExclusions {
  readonly namespaces?: readonly string[];
  readonly nodes?: readonly string[];
  readonly statuses?: readonly string[];
}

/** A column to sort by: an index into Row.cells, or one of the row's own fields. */
export type SortColumn = number | 'name' | 'namespace' | 'createdAt' | 'status' | 'node';

export interface RowSort {
  column: SortColumn;
  descending?: boolean;
}

/**
 * Keys of the rows matching `filter`, sorted by `sort` (ties broken by key, so the order is stable).
 * Never to be mutated: with no filter it is the mirror's kept name order itself.
 */
export function queryRows(
  mirror: SubscriptionMirror,
  filter: RowFilter = {},
  sort?: RowSort,
): readonly string[] {
  if (filter.labelSelector?.matchesNothing()) return [];
  const lowerText = filter.text?.trim().toLowerCase() || undefined;
  const byName = (sort?.column ?? 'name') === 'name';
  let found: string[] | undefined;
  if (lowerText !== undefined && isTextOnly(filter)) {
    // Free text alone, when its candidates are found without a look at each key, is answered by
    // them: they are exactly the keys it matches (textCandidates), so checking each again (with a
    // Set of every matching label pair's keys merged first) is skipped. Most rows by name are
    // answered as the rows they leave out, below.
    found = textCandidates(mirror, lowerText);
    if (found !== undefined && !(byName && isMost(mirror, found.length))) return ordered(mirror, found, sort);
  }
  const { accepts, excluded, keyOnly } = labelPlan(mirror, filter);
  // Free text that no index narrows lists its own candidates: the keys that hold it and the keys of
  // the few label pairs that do, found without a Set lookup per row (textCandidates).
  const candidates =
    narrowedKeys(mirror, filter) ??
    (lowerText === undefined || keyOnly ? undefined : (found ?? textCandidates(mirror, lowerText)));
  if (byName && candidates === undefined && keyOnly) {
    const kept = nameOrderExcluding(mirror, excluded);
    return sort?.descending ? kept.toReversed() : kept;
  }
  if (byName && (candidates === undefined || isMost(mirror, sizeOf(candidates)))) {
    // Most rows may match: every row is checked in the map's order, and the answer is the name
    // order without the rows that fail when they are fewer than the rows that pass. Sorting 150,000
    // matches by rank (a Map lookup each, a cache miss, then the sort) was 60-100 ms of CPU for a
    // key whose answer is every row (`a`, `api-`: text in every key but also in a label not every
    // row has); leaving out the few that fail costs a lookup for each of those and a copy.
    const passed: string[] = [];
    const failed: string[] = [];
    for (const key of mirror.rows.keys()) {
      if (accepts(key)) passed.push(key);
      else failed.push(key);
    }
    if (failed.length < passed.length) {
      const kept = nameOrderExcluding(mirror, [failed]);
      return sort?.descending ? kept.toReversed() : kept;
    }
    return ordered(mirror, passed, sort);
  }
  const keys: string[] = [];
  for (const key of candidates ?? mirror.rows.keys()) if (accepts(key)) keys.push(key);
  return ordered(mirror, keys, sort);
}

/**
 * True when `count` candidates are enough of the rows that checking every row and leaving out those
 * that fail costs less than sorting the candidates that pass.
 */
function isMost(mirror: SubscriptionMirror, count: number): boolean {
  return count > mirror.rows.size * mostShare;
}

/** See isMost. */
const mostShare = 1 / 2;

/**
 * `keys` (distinct keys of `mirror`) in `sort` order. By name, they are found in the candidates' own
 * order (for all rows, the map's: the order rows and their key strings arrived in, a sequential read)
 * and put in name order by rank, or by name when they are few (keysInNameOrder). Walking 150,000 keys
 * in name order instead was a cache miss a key: 40-70 ms of CPU at that size.
 */
function ordered(mirror: SubscriptionMirror, keys: string[], sort: RowSort | undefined): string[] {
  if ((sort?.column ?? 'name') !== 'name') return sortKeys(mirror.rows, keys, sort);
  const byName = keysInNameOrder(mirror, keys);
  return sort?.descending ? byName.reverse() : byName;
}

/** True when free text is the filter's only condition. */
function isTextOnly(filter: RowFilter): boolean {
  return (
    asSet(filter.namespaces) === undefined &&
    filter.node === undefined &&
    filter.ownerUid === undefined &&
    filter.status === undefined &&
    !hasExclusions(filter.without) &&
    (filter.labelSelector === undefined || filter.labelSelector.requirements.length === 0)
  );
}

/** True when `without` leaves out some value. */
export function hasExclusions(without: RowExclusions | undefined): boolean {
  return (
    (without?.namespaces?.length ?? 0) + (without?.nodes?.length ?? 0) + (without?.statuses?.length ?? 0) > 0
  );
}

/** True when `row` has a namespace, node or status `without` leaves out. */
function isExcluded(row: Row, without: RowExclusions): boolean {
  return (
    (without.namespaces?.includes(row.namespace) ?? false) ||
    (row.node !== undefined && (without.nodes?.includes(row.node) ?? false)) ||
    (row.status !== undefined && (without.statuses?.includes(row.status) ?? false))
  );
}

/** The number of rows matching `filter` ("1,204 of 12,403"), without sorting. */
export function countRows(mirror: SubscriptionMirror, filter: RowFilter = {}): number {
  if (filter.labelSelector?.matchesNothing()) return 0;
  const { accepts } = labelPlan(mirror, filter);
  let count = 0;
  for (const key of narrowedKeys(mirror, filter) ?? mirror.rows.keys()) if (accepts(key)) count += 1;
  return count;
}

/** How many keys queryRows would check for `filter`: its most selective index's, else every row. */
export function candidateCount(mirror: SubscriptionMirror, filter: RowFilter): number {
  const candidates = narrowedKeys(mirror, filter);
  return candidates === undefined ? mirror.rows.size : sizeOf(candidates);
}

/**
 * True when queryRows answers `filter` in name order without a look at each key: only keys to leave
 * out (negative requirements, free text that nearly every row has), cut from the kept name order.
 */
export function answersByExclusion(mirror: SubscriptionMirror, filter: RowFilter): boolean {
  if (filter.labelSelector?.matchesNothing()) return true;
  return narrowedKeys(mirror, filter) === undefined && labelPlan(mirror, filter).keyOnly;
}

/** matchesFilter by key for the rows of `mirror` as of now, from the indexes (see labelPlan). */
export function filterAccepter(mirror: SubscriptionMirror, filter: RowFilter): (key: string) => boolean {
  if (filter.labelSelector?.matchesNothing()) return () => false;
  return labelPlan(mirror, filter).accepts;
}

/**
 * matchesFilter for a key of `mirror`, answered from the indexes where they are exact: namespace,
 * node, status, owner and `=`/`in` require membership of index sets, `!=`/`notin`/`!` and the
 * namespaces, nodes and statuses left out (the complement of a lookup) require absence from them, and
 * free text is answered from keys and label indexes (textMatcher), so such a filter never reads a row.
 * `>`/`<` and `!` on a label with many values are checked on the row, exactly as matchesFilter does.
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
  // `ns!=`, `node!=`, `status!=`: the rows an index holds for each value left out (the complement of a
  // lookup, as a label's `!=`). An index is read only when a value of it is left out: reading one
  // brings it up to date with every change since (DeferredValueIndex), which a query without it
  // must not pay for.
  const { without } = filter;
  const exclude = (index: () => ValueIndex, values: readonly string[] | undefined): void => {
    if (!values?.length) return;
    const read = index();
    for (const value of values) {
      const keys = read.get(value);
      if (keys) excluded.push(keys);
    }
  };
  exclude(() => indexes.byNamespace, without?.namespaces);
  exclude(() => indexes.byNode, without?.nodes);
  exclude(() => indexes.byStatus, without?.statuses);
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
  const lowerText = filter.text?.trim().toLowerCase() || undefined;
  // Free text is answered from keys and label indexes (textMatcher), or as the few keys it does not
  // match (textExclusions); only `>`, `<` and `!` on a label with many values read the row.
  const unmatched = lowerText === undefined ? undefined : textExclusions(mirror, lowerText);
  if (unmatched !== undefined) excluded.push(unmatched);
  const textMatches =
    lowerText === undefined || unmatched !== undefined ? undefined : textMatcher(mirror, lowerText);
  const accepts = (key: string): boolean => {
    for (const keys of required) if (!keys.has(key)) return false;
    for (const keys of excluded) if (keys.has(key)) return false;
    if (textMatches !== undefined && !textMatches(key)) return false;
    if (perRow.length === 0) return true;
    const row = mirror.rows.get(key);
    if (!row) return false;
    for (const requirement of perRow) if (!requirementMatches(requirement, row.labels)) return false;
    return true;
  };
  return { accepts, excluded, keyOnly: required.length === 0 && perRow.length === 0 && !textMatches };
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
  if (filter.without && isExcluded(row, filter.without)) return false;
  if (filter.ownerUid !== undefined && !row.owners.some((owner) => owner.uid === filter.ownerUid))
    return false;
  if (filter.labelSelector && !filter.labelSelector.matches(row.labels)) return false;
  if (lowerText && !matchesText(row, lowerText)) return false;
  return true;
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
  /** Label indexes of `exists` requirements: their rows are the union of every value's keys. */
  const existing: ValueIndex[] = [];
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
        // Every value's keys: merged only if it is the smallest option (typing `app in (x),hash`
        // merged every pod-template-hash set at each keystroke, though app=x was far smaller).
        if (values) existing.push(values);
        else options.push([]);
        break;
    }
  }
  let best: Iterable<string> | ValueIndex | undefined;
  let bestSize = mirror.rows.size;
  for (const option of [...options, ...existing]) {
    const size = option instanceof Map ? rowsWithAny(option) : sizeOf(option);
    if (size < bestSize) {
      best = option;
      bestSize = size;
    }
  }
  return best instanceof Map ? union(best, best.keys()) : best;
}

/** The rows that have some value in `index`: each row has at most one value per label. */
function rowsWithAny(index: ValueIndex): number {
  let rows = 0;
  for (const keys of index.values()) rows += keys.size;
  return rows;
}

function sizeOf(keys: Iterable<string>): number {
  return keys instanceof Set ? keys.size : (keys as readonly string[]).length;
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

function isMissing(value: CellValue | undefined): boolean {
  return value === null || value === undefined;
}

function sortValue(row: Row, column: SortColumn): CellValue | undefined {
  return typeof column === 'number' ? row.cells[column] : row[column];
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
