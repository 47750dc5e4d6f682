// Every key of a mirror in the default order (by name, ties by key), kept from the mirror's change log.
// A row's name is part of its key, so the order changes only when keys come or go, never when a row
// is updated in place. Under churn keys come and go in every frame; finding them by comparing the
// previous order with the whole map (a Set of every key) and merging by name took 15-20% of the ui
// bench's typing profile at 50,000 pods. Here a read replays only the log's adds and deletes since
// the last read: the keys that left are cut out, and each key that arrived is placed by binary search,
// so a read costs one array copy and a few dozen name comparisons.
//
// Every key in the order also has a rank, an integer that orders keys as their names do. Since a
// key's name never changes, neither does its place relative to any other key: an arrival takes a rank
// between its neighbours' and no other rank moves. A subset of the keys (a query's matches, keys to
// leave out) is then put in name order or found in the order by rank alone, without reading a name
// or walking 150,000 keys in name order (a cache miss a key: 40-70 ms of CPU at that size).
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

/**
 * Ranks are integers V8 keeps unboxed (Smis, below 2^30), spread over this range with room between
 * neighbours, so a Map of 150,000 of them holds no number objects.
 */
const maxRank = 2 ** 30 - 1;

export class NameOrder {
  /** The order; replaced (never mutated) when keys come or go, so readers may hold it. */
  private keys: readonly string[] = [];
  /** keys[i]'s rank is ranks[i]: strictly increasing, so ranks compare as the keys' names do. */
  private ranks: Int32Array = new Int32Array(0);
  /**
   * The rank of every key in the order. A key's name never changes, so its rank stays right for as
   * long as the key is in the order; an arrival takes a rank between its neighbours'.
   */
  private readonly rankOf = new Map<string, number>();
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
      this.renumber();
      this.built = true;
    } else if (this.cursor.position < end) {
      if (this.changes.covers(this.cursor)) this.replay();
      else this.rescan();
    }
    this.cursor.position = end;
    return this.keys;
  }

  /**
   * `keys` (distinct, each in the order as of the last read) in name order, sorted by rank: no name
   * is read or compared, which keeps sorting thousands of matches cheaper than walking all 150,000
   * keys in name order (a cache miss a key).
   */
  sorted(keys: readonly string[]): string[] {
    const count = keys.length;
    // Rank and index packed in one double (rank * scale + index < 2^53): sorting the doubles sorts
    // by rank, natively, and each index comes back out.
    const scale = 2 ** Math.ceil(Math.log2(count + 1));
    const packed = new Float64Array(count);
    for (let index = 0; index < count; index++) packed[index] = this.rankOf.get(keys[index])! * scale + index;
    packed.sort();
    const result = new Array<string>(count);
    for (let index = 0; index < count; index++) result[index] = keys[packed[index] % scale];
    return result;
  }

  /**
   * `ordered` (a name-ordered subset of the order as of the last read) with `added` (keys of the
   * order it lacks) placed by rank.
   */
  withAdded(ordered: readonly string[], added: readonly string[]): string[] {
    if (added.length === 0) return ordered.slice();
    const result: string[] = [];
    let copied = 0;
    for (const key of this.sorted(added)) {
      const rank = this.rankOf.get(key)!;
      let low = copied;
      let high = ordered.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (this.rankOf.get(ordered[middle])! < rank) low = middle + 1;
        else high = middle;
      }
      while (copied < low) result.push(ordered[copied++]);
      result.push(key);
    }
    while (copied < ordered.length) result.push(ordered[copied++]);
    return result;
  }

  /**
   * The order as of the last read without the keys of `removed` (those not in it are ignored): each
   * is found by its rank and the spans between them are copied, so no key of the order is read. With
   * nothing to leave out it is the order itself, never mutated (a query under churn with no filter
   * copies no 150,000-key array).
   */
  without(removed: readonly Iterable<string>[]): readonly string[] {
    const positions: number[] = [];
    for (const keys of removed)
      for (const key of keys) {
        const rank = this.rankOf.get(key);
        if (rank !== undefined) positions.push(this.positionOf(rank));
      }
    return positions.length === 0 ? this.keys : cut(this.keys, positions);
  }

  /** The index of `rank` in `ranks` (which holds it). */
  private positionOf(rank: number): number {
    const ranks = this.ranks;
    let low = 0;
    let high = ranks.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (ranks[middle] < rank) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /**
   * Applies the log's adds and deletes since the cursor in one pass that writes the new order and its
   * ranks once: under churn keys come and go in every frame, and at 150,000 keys each extra copy of
   * the order is 1.2 MB that goes straight to the old generation (large objects) and brings V8's next
   * major collection, a long task in the page, that much closer.
   */
  private replay(): void {
    const arrived = new Set<string>();
    /** Keys that left the order, with their names: arrivals are placed among them before they are cut. */
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
    const positions: number[] = [];
    for (const key of left.keys()) {
      positions.push(this.positionOf(this.rankOf.get(key)!));
      this.rankOf.delete(key);
    }
    positions.sort((first, second) => first - second);
    const added = sortByName(this.rows, [...arrived]);
    if (added.length * Math.log2(this.keys.length + 2) >= this.keys.length + added.length) {
      // Many arrivals (a snapshot): cut, merge in one linear pass and rank every key again.
      this.keys = merged(this.rows, cut(this.keys, positions), added);
      this.renumber();
      return;
    }
    this.place(added, positions, left);
  }

  /** The order from the rows themselves, reusing the previous order for the keys it still holds. */
  private rescan(): void {
    const rows = this.rows;
    const kept = this.keys.filter((key) => rows.has(key));
    const known = new Set(kept);
    const arrived: string[] = [];
    for (const key of rows.keys()) if (!known.has(key)) arrived.push(key);
    this.keys = merged(rows, kept, sortByName(rows, arrived));
    this.rankOf.clear();
    this.renumber();
  }

  /**
   * The order without the keys at `positions` (sorted; names of those that left in `leftNames`) and
   * with `added` (name-ordered, few) placed by binary search, each taking a rank between its
   * neighbours' so that no other rank moves. A key that left and came back is both cut and placed.
   */
  private place(
    added: readonly string[],
    positions: readonly number[],
    leftNames: Map<string, string>,
  ): void {
    const rows = this.rows;
    const nameOf = (key: string): string => rows.get(key)?.name ?? leftNames.get(key)!;
    const kept = this.keys;
    const keptRanks = this.ranks;
    const total = kept.length - positions.length + added.length;
    const keys = new Array<string>(total);
    const ranks = new Int32Array(total);
    let copied = 0;
    let next = 0;
    let cutIndex = 0;
    // Copies kept[copied, end) but the cut positions.
    const copyTo = (end: number): void => {
      while (copied < end) {
        if (cutIndex < positions.length && positions[cutIndex] === copied) {
          cutIndex += 1;
          copied += 1;
          continue;
        }
        ranks[next] = keptRanks[copied];
        keys[next++] = kept[copied++];
      }
    };
    let exhausted = false;
    for (const key of added) {
      const name = rows.get(key)!.name;
      // The first kept key after `key` by name: the keys that left still hold their places here.
      let low = copied;
      let high = kept.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (compareNamed(nameOf(kept[middle]), kept[middle], name, key) <= 0) low = middle + 1;
        else high = middle;
      }
      copyTo(low);
      const below = next > 0 ? ranks[next - 1] : 0;
      // The next kept rank, cut or not: a cut key's rank is at most that of the kept key after it.
      const above = copied < kept.length ? keptRanks[copied] : maxRank + 1;
      const rank = Math.floor((below + above) / 2);
      if (rank <= below) exhausted = true;
      keys[next] = key;
      ranks[next++] = rank;
      this.rankOf.set(key, rank);
    }
    copyTo(kept.length);
    this.keys = keys;
    this.ranks = ranks;
    if (exhausted) this.renumber();
  }

  /** Ranks every key of the order afresh, evenly spaced. */
  private renumber(): void {
    const keys = this.keys;
    const gap = Math.floor(maxRank / (keys.length + 1));
    const ranks = new Int32Array(keys.length);
    for (let index = 0; index < keys.length; index++) {
      const rank = (index + 1) * gap;
      ranks[index] = rank;
      this.rankOf.set(keys[index], rank);
    }
    this.ranks = ranks;
  }
}

/**
 * Two name-ordered key lists merged into one. Few arrivals (churn) are placed by binary search, so
 * the kept keys are copied, not compared; many (a snapshot) are merged in one linear pass.
 */
function merged(rows: ReadonlyMap<string, Row>, kept: readonly string[], added: readonly string[]): string[] {
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
 * `order` without the elements at `positions` (sorted; repeats allowed): the spans between them are
 * copied by slice, which moves the elements in bulk rather than one push at a time.
 */
function cut(order: readonly string[], positions: number[]): string[] {
  if (positions.length === 0) return order.slice();
  positions.sort((first, second) => first - second);
  const spans: string[][] = [];
  let from = 0;
  for (const position of positions) {
    if (position > from) spans.push(order.slice(from, position));
    from = Math.max(from, position + 1);
  }
  spans.push(order.slice(from));
  return spans.length === 1 ? spans[0] : ([] as string[]).concat(...spans);
}

const nameOrders = new WeakMap<SubscriptionMirror, NameOrder>();

/** The mirror's NameOrder, brought up to date. */
function currentOrder(mirror: SubscriptionMirror): NameOrder {
  let order = nameOrders.get(mirror);
  if (!order) nameOrders.set(mirror, (order = new NameOrder(mirror.rows, mirror.changes)));
  order.read();
  return order;
}

/** Every key of `mirror` in name order, kept from its change log (see NameOrder). */
export function nameOrder(mirror: SubscriptionMirror): readonly string[] {
  return currentOrder(mirror).read();
}

/** Keys of `mirror` (distinct, all present) in name order, sorted by their ranks. */
export function inNameOrder(mirror: SubscriptionMirror, keys: readonly string[]): string[] {
  return currentOrder(mirror).sorted(keys);
}

/** `ordered` (name-ordered keys of `mirror`) with `added` (keys of `mirror` it lacks) in their places. */
export function mergedInNameOrder(
  mirror: SubscriptionMirror,
  ordered: readonly string[],
  added: readonly string[],
): string[] {
  return currentOrder(mirror).withAdded(ordered, added);
}

/** Keys of the name order that none of the `excluded` sets holds, cut out by rank. */
export function nameOrderWithout(
  mirror: SubscriptionMirror,
  excluded: readonly ReadonlySet<string>[],
): readonly string[] {
  return currentOrder(mirror).without(excluded);
}
