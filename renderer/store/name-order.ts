// Every key of a mirror in the default order (by name, ties by key), kept from the mirror's change log.
// A row's name is part of its key, so the order changes only when keys come or go, never when a row
// is updated in place. Under churn keys come and go in every frame; finding them by comparing the
// previous order with the whole map (a Set of every key) and merging by name took 15-20% of the ui
// bench's typing profile at 50,000 pods. Here a read replays only the log's adds and deletes since
// the last read: the keys that left are dropped in one pass, and each key that arrived is placed by
// binary search, so a read costs one array copy and a few dozen name comparisons.
import type { Row } from '../../shared/protocol/row';
import type { LogCursor, RowChangeLog } from './row-change-log';
import { compareCells } from './compare-cells';
import type { SubscriptionMirror } from './subscription-mirror';

/** Name order of (name, key) pairs: by name with numeric-aware collation, then by key. */
function compareNamed(leftName: string, leftKey: string, rightName: string, rightKey: string): number {
  const order = compareCells(leftName, rightName);
  if (order !== 0) return order;
  return leftKey < rightKey ? -1 : leftKey > rightKey ? 1 : 0;
}

/** Name order of two keys of `rows` (see compareNamed). */
export function compareByName(rows: ReadonlyMap<string, Row>, left: string, right: string): number {
  return compareNamed(rows.get(left)!.name, left, rows.get(right)!.name, right);
}

/** `keys` (all in `rows`) sorted by name, ties by key. */
export function sortByName(rows: ReadonlyMap<string, Row>, keys: string[]): string[] {
  const decorated = keys.map((key) => ({ key, name: rows.get(key)!.name }));
  decorated.sort((left, right) => compareNamed(left.name, left.key, right.name, right.key));
  return decorated.map((entry) => entry.key);
}

export class NameOrder {
  /** The order; replaced (never mutated) when keys come or go, so readers may hold it. */
  private keys: readonly string[] = [];
  private built = false;
  /** Changes before it are reflected in `keys` (see RowChangeLog). */
  private readonly cursor: LogCursor;

  constructor(
    private readonly rows: ReadonlyMap<string, Row>,
    private readonly changes: RowChangeLog,
  ) {
    this.cursor = changes.follow(0);
  }

  /** Every key in name order as of now: the same array as the last read while no key came or went. */
  read(): readonly string[] {
    const end = this.changes.end;
    if (!this.built) {
      this.keys = sortByName(this.rows, [...this.rows.keys()]);
      this.built = true;
    } else if (this.cursor.position < end) {
      if (this.changes.covers(this.cursor)) this.replay();
      else this.rescan();
    }
    this.cursor.position = end;
    return this.keys;
  }

  /** Applies the log's adds and deletes since the cursor. */
  private replay(): void {
    const arrived = new Set<string>();
    /** Key -> name of the keys that left: their rows are gone, and a key's name never changes. */
    const left = new Map<string, string>();
    this.changes.forEachRunSince(this.cursor.position, ({ oldRows, newRows, keys }, from) => {
      for (let slot = from; slot < oldRows.length; slot++) {
        if (newRows === undefined) {
          const key = keys![slot];
          // Added and deleted since the last read: it was never in the order.
          if (!arrived.delete(key)) left.set(key, oldRows[slot]!.name);
        } else if (oldRows[slot] === undefined) {
          // A key deleted and added again is both left and arrived: dropped, then placed again.
          arrived.add(newRows[slot].key);
        }
      }
    });
    if (arrived.size === 0 && left.size === 0) return;
    const rows = this.rows;
    const kept =
      left.size === 0
        ? this.keys
        : (withoutNamed(this.keys, left, (key) => rows.get(key)?.name ?? left.get(key)!) ??
          this.keys.filter((key) => !left.has(key)));
    this.keys = merged(rows, kept, sortByName(rows, [...arrived]));
  }

  /** The order from the rows themselves, reusing the previous order for the keys it still holds. */
  private rescan(): void {
    const rows = this.rows;
    const kept = this.keys.filter((key) => rows.has(key));
    const known = new Set(kept);
    const arrived: string[] = [];
    for (const key of rows.keys()) if (!known.has(key)) arrived.push(key);
    this.keys = merged(rows, kept, sortByName(rows, arrived));
  }
}

/**
 * Two name-ordered key lists merged into one. Few arrivals (churn) are placed by binary search, so
 * the kept keys are copied, not compared; many (a snapshot) are merged in one linear pass.
 */
export function merged(
  rows: ReadonlyMap<string, Row>,
  kept: readonly string[],
  added: readonly string[],
): string[] {
  const total = kept.length + added.length;
  const result = new Array<string>(total);
  if (added.length * Math.log2(kept.length + 2) < total) {
    let copied = 0;
    let next = 0;
    for (const key of added) {
      const position = insertionPoint(rows, kept, key, copied);
      while (copied < position) result[next++] = kept[copied++];
      result[next++] = key;
    }
    while (copied < kept.length) result[next++] = kept[copied++];
    return result;
  }
  let left = 0;
  let right = 0;
  for (let index = 0; index < total; index++) {
    const takeLeft =
      right >= added.length || (left < kept.length && compareByName(rows, kept[left], added[right]) <= 0);
    result[index] = takeLeft ? kept[left++] : added[right++];
  }
  return result;
}

/** The first index at or after `from` whose key orders after `key`. */
function insertionPoint(
  rows: ReadonlyMap<string, Row>,
  keys: readonly string[],
  key: string,
  from: number,
): number {
  let low = from;
  let high = keys.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (compareByName(rows, keys[middle], key) <= 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * `order` (name-ordered) without `removed` (key -> name), each found by binary search and the spans
 * between them copied: a few removals cost a few dozen comparisons and one copy, where filtering
 * looked every key up in a Set (a third of an idle page's JavaScript at 150,000 pods under churn).
 * `nameOf` names every key of `order`. Undefined when a removed key is not where its name places it
 * (not in `order`), or when removals are too many for searching to pay: the caller then filters.
 */
export function withoutNamed(
  order: readonly string[],
  removed: ReadonlyMap<string, string>,
  nameOf: (key: string) => string,
): string[] | undefined {
  if (removed.size * Math.log2(order.length + 2) * 4 > order.length) return undefined;
  const positions: number[] = [];
  for (const [key, name] of removed) {
    let low = 0;
    let high = order.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      const probe = order[middle];
      if (compareNamed(nameOf(probe), probe, name, key) < 0) low = middle + 1;
      else high = middle;
    }
    if (order[low] !== key) return undefined;
    positions.push(low);
  }
  positions.sort((left, right) => left - right);
  // Spans are copied by slice, which moves the elements in bulk rather than one push at a time.
  const spans: string[][] = [];
  let from = 0;
  for (const position of positions) {
    if (position > from) spans.push(order.slice(from, position));
    from = position + 1;
  }
  spans.push(order.slice(from));
  return spans.length === 1 ? spans[0] : ([] as string[]).concat(...spans);
}

/** Every key of `mirror` in name order, kept from its change log (see NameOrder). */
const nameOrders = new WeakMap<SubscriptionMirror, NameOrder>();
export function nameOrder(mirror: SubscriptionMirror): readonly string[] {
  let order = nameOrders.get(mirror);
  if (!order) nameOrders.set(mirror, (order = new NameOrder(mirror.rows, mirror.changes)));
  return order.read();
}

/**
 * Keys of the name order that none of the `excluded` sets holds: a few are found by name and cut out
 * (withoutNamed), many cost one lookup a key.
 */
export function nameOrderWithout(
  mirror: SubscriptionMirror,
  excluded: readonly ReadonlySet<string>[],
): string[] {
  const order = nameOrder(mirror);
  if (excluded.length === 0) return order.slice();
  let skip: ReadonlySet<string> = excluded[0];
  if (excluded.length > 1) {
    const union = new Set<string>();
    for (const keys of excluded) for (const key of keys) union.add(key);
    skip = union;
  }
  const rows = mirror.rows;
  if (skip.size * Math.log2(order.length + 2) * 4 <= order.length) {
    const named = new Map<string, string>();
    for (const key of skip) {
      const row = rows.get(key);
      if (row !== undefined) named.set(key, row.name);
    }
    const cut = withoutNamed(order, named, (key) => rows.get(key)!.name);
    if (cut !== undefined) return cut;
  }
  const kept: string[] = [];
  for (const key of order) if (!skip.has(key)) kept.push(key);
  return kept;
}
