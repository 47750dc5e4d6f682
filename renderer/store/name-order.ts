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
import { RetiredKeys } from './key-leases';
import { positionByName, sortRowsByName, takeArrivals } from './named-keys';
import { maxRank, placeArrivals, respaceCrowded } from './ranked-placement';
import { atPositions, withoutPositions } from './position-picks';
import type { RankedKeys, SpareOrder } from './ranked-placement';
import { carriedChanges } from './carried-order';
import type { CarriedOrder } from './carried-order';
import type { NamedKeys } from './named-keys';
import type { SubscriptionMirror } from './subscription-mirror';

/** `keys` (all in `rows`) in name order, with their names. */
function sortByName(rows: ReadonlyMap<string, Row>, keys: readonly string[]): NamedKeys {
  return sortRowsByName(keys.map((key) => rows.get(key)!));
}

/**
 * Past this share of the order, a subset is put in name order by position (a pass over the order)
 * rather than by sorting ranks.
 */
const pickedShare = 1 / 16;

export class NameOrder {
  /**
   * The order; replaced (never mutated) when keys come or go, so readers may hold it. A reader that
   * keeps it past its task takes a lease (see key-leases.ts): a replaced array whose leases were all
   * returned is written over by a later change.
   */
  private keys: readonly string[] = [];
  /** Key arrays this order replaced, to write its next keys into once nobody holds them. */
  private readonly retired = new RetiredKeys();
  /**
   * Answers without() handed out, to write the next one into once nobody holds them: under churn the
   * table's re-query of `!canary` or of text that a few rows lack is a new answer of most rows each
   * time (see withoutPositions).
   */
  private readonly answers = new RetiredKeys();
  /**
   * names[i] is keys[i]'s name: placing arrivals compares them with kept keys' names, read here in
   * order rather than through a Map lookup each (a cache miss at 150,000 rows). Never handed out
   * (named() copies it): the next change but one writes its names into this same array.
   */
  private names: string[] = [];
  /** keys[i]'s rank is ranks[i]: strictly increasing, so ranks compare as the keys' names do. */
  private ranks: Int32Array = new Int32Array(0);
  /** The whole buffer `ranks` is a view of (its first keys.length). */
  private rankBuffer: Int32Array = this.ranks;
  /**
   * The names and rank buffer of the order before this one, written over by the next change. Under
   * churn keys come and go at every re-query (several a second); a new names array and rank buffer
   * each time were 12 of the 20 bytes a row of large objects every re-query left for V8's major
   * collector, whose pauses are the idle page's long tasks. Only the keys, which readers hold, are
   * still a new array each time.
   */
  private spare: SpareOrder | undefined;
  /**
   * The rank of every key in the order. A key's name never changes, so its rank stays right for as
   * long as the key is in the order; an arrival takes a rank between its neighbours'. Built from
   * `keys` and `ranks` on first use (see ranksByKey) and kept from then on: an order only shown, such
   * as a travel's moment or a listing before its first change, never pays 150,000 Map writes.
   */
  private rankOf: Map<string, number> | undefined;
  private built = false;
  /** Changes before it are reflected in `keys` (see RowChangeLog). */
  private readonly cursor: LogCursor;

  /**
   * `presorted` hands over (once) keys already in name order, such as a whole snapshot's (see
   * SubscriptionMirror.takeSnapshotOrder): the next read with arrivals takes those among them in that
   * order and sorts only the rest. `carried` hands over (once) an order to start from rather than
   * the rows (see CarriedOrder): taken by the first read.
   */
  constructor(
    private readonly rows: ReadonlyMap<string, Row>,
    private readonly changes: RowChangeLog,
    private readonly presorted: () => NamedKeys | undefined = () => undefined,
    private readonly carried: () => CarriedOrder | undefined = () => undefined,
  ) {
    this.cursor = changes.follow(0);
  }

  /**
   * Every key in name order as of now, with their names, both copies: a travel's snapshot holds them
   * while its chunks arrive, past later changes that may write into the order's replaced arrays.
   */
  named(): { readonly keys: readonly string[]; readonly names: readonly string[] } {
    this.read();
    return { keys: this.keys.slice(), names: this.names.slice() };
  }

  /**
   * Every key in name order with their ranks as of now, all copies: a replay's order starts from them
   * (see CarriedOrder) and then writes into its own replaced arrays, which must never be this order's.
   */
  ranked(): RankedKeys {
    this.read();
    return { keys: this.keys.slice(), names: this.names.slice(), ranks: this.ranks.slice() };
  }

  /**
   * Every key in name order as of now: the same array as the last read while no key came or went.
   * Valid for the caller's task; a caller that keeps it longer leases it (see key-leases.ts).
   */
  read(): readonly string[] {
    const end = this.changes.end;
    // An order still empty (the table read a replay's mirror before its first moment) takes a
    // carried order too: it describes the rows as of its position, whatever was read before.
    if (!this.built || (this.keys.length === 0 && this.cursor.position < end)) {
      const carried = this.carried();
      if (carried !== undefined) this.startFrom(carried);
      else if (!this.built) {
        this.built = true;
        const rows = this.rows;
        ({ keys: this.keys, names: this.names } = this.sortArrivals([...rows.keys()], (key) =>
          rows.has(key),
        ));
        this.spare = undefined;
        this.renumber();
        this.cursor.position = end;
        return this.keys;
      }
    }
    if (this.cursor.position < end) {
      if (this.changes.covers(this.cursor)) this.replay();
      else this.rescan();
    }
    this.cursor.position = end;
    return this.keys;
  }

  /**
   * Starts from a carried order (its names and ranks this order's own): the base's keys that left are
   * cut and the keys that arrived placed, as of the carried position; the changes after it are
   * replayed by the read.
   */
  private startFrom(carried: CarriedOrder): void {
    const { leftPositions, arrived } = carriedChanges(carried, this.rows);
    const { keys, names, ranks } = carried.base;
    this.keys = keys;
    this.names = names as string[];
    this.ranks = ranks;
    this.rankBuffer = ranks;
    this.spare = undefined;
    this.rankOf = undefined;
    const arrivals = new Set(arrived);
    this.place(
      this.sortArrivals(arrived, (key) => arrivals.has(key)),
      leftPositions,
    );
    this.cursor.position = carried.position;
    this.built = true;
  }

  /**
   * `keys` (distinct, each in the order as of the last read) in name order, sorted by rank: no name
   * is read or compared, which keeps sorting thousands of matches cheaper than walking all 150,000
   * keys in name order (a cache miss a key). Many keys are found by position and picked from the
   * order in one pass (see position-picks.ts), which costs no sort.
   */
  sorted(keys: readonly string[]): string[] {
    const count = keys.length;
    const rankOf = this.ranksByKey();
    if (count > this.keys.length * pickedShare) {
      const positions = new Array<number>(count);
      for (let index = 0; index < count; index++)
        positions[index] = this.positionOf(rankOf.get(keys[index])!);
      return atPositions(this.keys, positions);
    }
    // Rank and index packed in one double (rank * scale + index < 2^53): sorting the doubles sorts
    // by rank, natively, and each index comes back out.
    const scale = 2 ** Math.ceil(Math.log2(count + 1));
    const packed = new Float64Array(count);
    for (let index = 0; index < count; index++) packed[index] = rankOf.get(keys[index])! * scale + index;
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
    const rankOf = this.ranksByKey();
    let copied = 0;
    for (const key of this.sorted(added)) {
      const rank = rankOf.get(key)!;
      let low = copied;
      let high = ordered.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (rankOf.get(ordered[middle])! < rank) low = middle + 1;
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
   * copies no 150,000-key array). Otherwise it may be written into an answer this method handed out
   * before, once every lease on that one was returned (see key-leases.ts).
   */
  without(removed: readonly Iterable<string>[]): readonly string[] {
    const positions: number[] = [];
    let rankOf: Map<string, number> | undefined;
    for (const keys of removed)
      for (const key of keys) {
        const rank = (rankOf ??= this.ranksByKey()).get(key);
        if (rank !== undefined) positions.push(this.positionOf(rank));
      }
    if (positions.length === 0) return this.keys;
    const kept = withoutPositions(this.keys, positions, this.answers.takeReturned());
    this.answers.retire(kept);
    return kept;
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
    /** Each key that left, with its name (a key's name never changes: any of its rows gives it). */
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
    // Found by name among the kept names, not by rank: under churn keys leave at every read, and
    // finding them by rank needed the key -> rank Map, which is dropped whenever the ranks run out
    // (renumber) and cost 150,000 Map writes to build again: at 150,000 pods an 80 ms task of the
    // idle page (its CPU) for a table that asked for no rank at all.
    const positions: number[] = [];
    const rankOf = this.rankOf;
    for (const [key, name] of left) {
      positions.push(positionByName(this.keys, this.names, name, key));
      rankOf?.delete(key);
    }
    positions.sort((first, second) => first - second);
    this.place(
      this.sortArrivals([...arrived], (key) => arrived.has(key)),
      positions,
    );
  }

  /**
   * The order from the rows themselves, when the log no longer holds every change since the last
   * read: the keys no row has any more are cut and the rows' keys the order lacks are placed. A key
   * deleted and added again meanwhile keeps its place, which its name (part of its key) still gives.
   */
  private rescan(): void {
    const rows = this.rows;
    if (this.keys.length === 0) {
      // Nothing was in the order (a replay's first moment): every row arrived.
      this.place(
        this.sortArrivals([...rows.keys()], (key) => rows.has(key)),
        [],
      );
      return;
    }
    if (rows.size > 2 * this.keys.length) {
      this.rebuild();
      return;
    }
    const rankOf = this.ranksByKey();
    const arrived: string[] = [];
    for (const key of rows.keys()) if (!rankOf.has(key)) arrived.push(key);
    const positions: number[] = [];
    this.keys.forEach((key, position) => {
      if (rows.has(key)) return;
      positions.push(position);
      rankOf.delete(key);
    });
    this.place(
      this.sortArrivals(arrived, (key) => rows.has(key) && !rankOf.has(key)),
      positions,
    );
  }

  /**
   * The order built again from the rows, every key ranked afresh: when most rows arrived since the
   * last read (a playback's jump from a listing's first rows to its 150,000, a moment sent as its
   * difference from the one held), placing them among the few kept would write each one's rank into
   * rankOf and compare it with the kept key after its gap (114 ms of the page's thread at 150,000
   * rows), while the snapshot's order, when it handed one over, holds them all in order already.
   */
  private rebuild(): void {
    const rows = this.rows;
    const { keys, names } = this.sortArrivals([...rows.keys()], (key) => rows.has(key));
    this.retired.retire(this.keys as string[]);
    this.keys = keys;
    this.names = names;
    this.spare = undefined;
    this.renumber();
  }

  /**
   * `arrived` (distinct keys of the rows, which `isArrival` tells apart) in name order: those among
   * the presorted keys, if any were handed over, taken in their order, and only the others sorted.
   */
  private sortArrivals(arrived: readonly string[], isArrival: (key: string) => boolean): NamedKeys {
    const sort = (keys: readonly string[]) => sortByName(this.rows, keys);
    const presorted = this.presorted();
    return presorted === undefined ? sort(arrived) : takeArrivals(presorted, arrived, isArrival, sort);
  }

  /** Cuts the keys at `positions` (sorted) and places `added` (see placeArrivals). */
  private place(added: NamedKeys, positions: readonly number[]): void {
    const previous: SpareOrder = { names: this.names, ranks: this.rankBuffer };
    const { order, exhausted, rankBuffer } = placeArrivals(
      { keys: this.keys, names: this.names, ranks: this.ranks },
      positions,
      added,
      this.rankOf,
      this.spare,
      this.retired.takeReturned(),
    );
    this.retired.retire(this.keys as string[]);
    this.keys = order.keys;
    this.names = order.names as string[];
    this.ranks = order.ranks;
    this.rankBuffer = rankBuffer;
    this.spare = previous;
    // Only the crowded gaps are ranked again (their keys' rankOf entries rewritten), so rankOf stays
    // built; every key only when the whole order is crowded.
    if (exhausted && !respaceCrowded(this.keys, this.ranks, this.rankOf)) this.renumber();
  }

  /** Ranks every key of the order afresh, evenly spaced (rankOf is built again when next used). */
  private renumber(): void {
    const gap = Math.floor(maxRank / (this.keys.length + 1));
    const ranks = new Int32Array(this.keys.length);
    for (let index = 0; index < ranks.length; index++) ranks[index] = (index + 1) * gap;
    this.ranks = ranks;
    this.rankBuffer = ranks;
    this.rankOf = undefined;
  }

  /** rankOf, built from the order if it was not yet. */
  private ranksByKey(): Map<string, number> {
    if (this.rankOf === undefined) {
      const rankOf = new Map<string, number>();
      this.keys.forEach((key, index) => rankOf.set(key, this.ranks[index]));
      this.rankOf = rankOf;
    }
    return this.rankOf;
  }
}

const nameOrders = new WeakMap<SubscriptionMirror, NameOrder>();

/** The mirror's NameOrder, brought up to date. */
function currentOrder(mirror: SubscriptionMirror): NameOrder {
  let order = nameOrders.get(mirror);
  if (!order)
    nameOrders.set(
      mirror,
      (order = new NameOrder(
        mirror.rows,
        mirror.changes,
        () => mirror.takeSnapshotOrder(),
        () => mirror.takeCarriedOrder(),
      )),
    );
  order.read();
  return order;
}

/** Every key of `mirror` in name order, kept from its change log (see NameOrder). */
export function nameOrder(mirror: SubscriptionMirror): readonly string[] {
  return currentOrder(mirror).read();
}

/**
 * Every key of `mirror` in name order with their names, kept from its change log: a replay that
 * starts from `mirror`'s rows (see DeltaBatch.base) takes their order from here rather than sorting.
 */
export function namedOrder(mirror: SubscriptionMirror): NamedKeys {
  const { keys, names } = currentOrder(mirror).named();
  // Never mutated by the order (it replaces them) nor by NameRuns (it merges into new arrays).
  return { keys: keys as string[], names: names as string[] };
}

/**
 * Every key of `mirror` in name order with their names and ranks, kept from its change log: a replay
 * whose first moment starts from `mirror`'s rows carries their order from here (see CarriedOrder).
 */
export function rankedOrder(mirror: SubscriptionMirror): RankedKeys {
  return currentOrder(mirror).ranked();
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

/** Keys of the name order that none of `excluded` holds, cut out by rank. */
export function nameOrderWithout(
  mirror: SubscriptionMirror,
  excluded: readonly Iterable<string>[],
): readonly string[] {
  return currentOrder(mirror).without(excluded);
}
