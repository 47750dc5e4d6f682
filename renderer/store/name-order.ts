// Every key of a mirror in the default order (by name, ties by key), kept from the mirror's change log.
// A row's name is part of its key, so the order changes only when keys come or go, never when a row
// is updated in place. Under churn keys come and go in every frame; finding them by comparing the
// previous order with the whole map (a Set of every key) and merging by name took 15-20% of the ui
// bench's typing profile at 50,000 pods. Here a read replays only the log's adds and deletes since
// the last read: the keys that left are cut out, and each key that arrived is placed by galloping
// search among the names the order keeps beside its keys, so a read costs one array copy and a few
// name comparisons per arrival.
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

/** Keys and their names, side by side, in name order. */
interface NamedKeys {
  readonly keys: string[];
  readonly names: string[];
}

/** `keys` (all in `rows`) sorted by name, ties by key, with their names. */
function sortByName(rows: ReadonlyMap<string, Row>, keys: readonly string[]): NamedKeys {
  const decorated = keys.map((key) => ({ key, name: rows.get(key)!.name }));
  decorated.sort((left, right) => compareNamed(left.name, left.key, right.name, right.key));
  return { keys: decorated.map((entry) => entry.key), names: decorated.map((entry) => entry.name) };
}

/**
 * Ranks are integers V8 keeps unboxed (Smis, below 2^30), spread over this range with room between
 * neighbours, so a Map of 150,000 of them holds no number objects.
 */
const maxRank = 2 ** 30 - 1;

export class NameOrder {
  /** The order; replaced (never mutated) when keys come or go, so readers may hold it. */
  private keys: readonly string[] = [];
  /**
   * names[i] is keys[i]'s name: placing arrivals compares them with kept keys' names, read here in
   * order rather than through a Map lookup each (a cache miss at 150,000 rows).
   */
  private names: readonly string[] = [];
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
      ({ keys: this.keys, names: this.names } = sortByName(this.rows, [...this.rows.keys()]));
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
    const left = new Set<string>();
    this.changes.forEachRunSince(this.cursor.position, ({ oldRows, newRows, keys }, from) => {
      for (let slot = from; slot < oldRows.length; slot++) {
        if (newRows === undefined) {
          const key = keys![slot];
          // Added and deleted since the last read: it was never in the order.
          if (!arrived.delete(key)) left.add(key);
        } else if (oldRows[slot] === undefined) {
          // A key deleted and added again is both left and arrived: dropped, then placed again.
          arrived.add(newRows[slot].key);
        }
      }
    });
    if (arrived.size === 0 && left.size === 0) return;
    const positions: number[] = [];
    for (const key of left) {
      positions.push(this.positionOf(this.rankOf.get(key)!));
      this.rankOf.delete(key);
    }
    positions.sort((first, second) => first - second);
    this.place(sortByName(this.rows, [...arrived]), positions);
  }

  /**
   * The order from the rows themselves, when the log no longer holds every change since the last
   * read: the keys no row has any more are cut and the rows' keys the order lacks are placed. A key
   * deleted and added again meanwhile keeps its place, which its name (part of its key) still gives.
   */
  private rescan(): void {
    const rows = this.rows;
    const arrived: string[] = [];
    for (const key of rows.keys()) if (!this.rankOf.has(key)) arrived.push(key);
    const positions: number[] = [];
    this.keys.forEach((key, position) => {
      if (rows.has(key)) return;
      positions.push(position);
      this.rankOf.delete(key);
    });
    this.place(sortByName(rows, arrived), positions);
  }

  /**
   * The order without the keys at `positions` (sorted) and with `added` in their places, in one pass that copies the kept keys and ranks once.
   * Each arrival's place is found by galloping from the last one's, so a listing's batch of m arrivals
   * among n keys costs about m log(n/m) name comparisons rather than a merge's n. The arrivals that
   * land between the same two kept keys share the ranks between theirs, evenly spread, and no kept
   * key's rank moves: a batch costs a rank write per arrival, not one per key (150,000 Map writes for
   * each batch of a listing, before). Only when a gap has no room left is every key ranked again. A
   * key that left and came back is both cut and placed.
   */
  private place(added: NamedKeys, positions: readonly number[]): void {
    const kept = this.keys;
    const keptNames = this.names;
    const keptRanks = this.ranks;
    const total = kept.length - positions.length + added.keys.length;
    const keys = new Array<string>(total);
    const names = new Array<string>(total);
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
        names[next] = keptNames[copied];
        keys[next++] = kept[copied++];
      }
    };
    /** True when kept[index] orders after `key` (named `name`); the keys that left still hold their places. */
    const keptAfter = (index: number, name: string, key: string): boolean =>
      compareNamed(keptNames[index], kept[index], name, key) > 0;
    const { keys: addedKeys, names: addedNames } = added;
    let exhausted = false;
    let first = 0;
    while (first < addedKeys.length) {
      const place = firstAfter(kept.length, copied, (index) =>
        keptAfter(index, addedNames[first], addedKeys[first]),
      );
      copyTo(place);
      // The arrivals after this one that land in the same gap, before kept[place].
      let end = first + 1;
      while (
        end < addedKeys.length &&
        (place === kept.length || keptAfter(place, addedNames[end], addedKeys[end]))
      )
        end += 1;
      const below = next > 0 ? ranks[next - 1] : 0;
      // The next kept rank, cut or not: a cut key's rank is at most that of the kept key after it.
      const above = place < kept.length ? keptRanks[place] : maxRank + 1;
      const step = (above - below) / (end - first + 1);
      if (step < 1) exhausted = true;
      for (let index = first; index < end; index++) {
        const rank = below + Math.floor(step * (index - first + 1));
        keys[next] = addedKeys[index];
        names[next] = addedNames[index];
        ranks[next++] = rank;
        this.rankOf.set(addedKeys[index], rank);
      }
      first = end;
    }
    copyTo(kept.length);
    this.keys = keys;
    this.names = names;
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
 * The first index in [from, length) for which `after` holds (it holds for every index after that one,
 * or `length`): galloping from `from`, then a binary search, so a place d indexes on costs about
 * 2 log d calls.
 */
function firstAfter(length: number, from: number, after: (index: number) => boolean): number {
  let low = from;
  let high = from;
  let step = 1;
  while (high < length && !after(high)) {
    low = high + 1;
    high = low + step;
    step *= 2;
  }
  if (high > length) high = length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (after(middle)) high = middle;
    else low = middle + 1;
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
