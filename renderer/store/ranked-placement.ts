// How NameOrder takes in the keys that arrived since its last read: one pass over the kept order that
// cuts the keys that left and places the arrivals among the rest, each with a rank between its
// neighbours' so that no kept key's rank moves.
//
// A listing's batches of thousands of rows used to be merged with every kept key (two Map lookups a
// comparison) and then every key ranked again (150,000 Map writes for each batch): at 50,000 pods the
// name order was a quarter of the page's CPU from its start to "synced". Here each arrival's place is
// found by galloping from the last one's over the names kept beside the keys, the arrivals that land
// in the same gap are galloped over too, and they share the ranks between their neighbours', evenly
// spread.
import { compareNamed, firstAfter } from './named-keys';
import type { NamedKeys } from './named-keys';

/**
 * Ranks are integers V8 keeps unboxed (Smis, below 2^30), spread over this range with room between
 * neighbours, so a Map of 150,000 of them holds no number objects.
 */
export const maxRank = 2 ** 30 - 1;

/** A name order: keys, their names, and their ranks (strictly increasing), index by index. */
export interface RankedKeys {
  readonly keys: readonly string[];
  readonly names: readonly string[];
  readonly ranks: Int32Array;
}

/**
 * Arrays a previous order used, that nobody reads any more: the next order's names and ranks are
 * written into them rather than into new ones. `ranks` is the whole buffer (its length is its
 * capacity); an order's ranks are a view of its first keys.length.
 */
export interface SpareOrder {
  readonly names: string[];
  readonly ranks: Int32Array;
}

/** Room for a few frames of arrivals beyond `total`, so the buffers are not outgrown at each one. */
function rankCapacity(total: number): number {
  return total + (total >> 6) + 64;
}

/**
 * `kept` without the keys at `positions` (sorted) and with `added` (name-ordered, none of them kept
 * but at a cut position) in their places, with `rankOf` (if it is kept) set for each arrival. The
 * keys that left still hold their places while arrivals are placed, so a key that left and came back
 * is both cut and placed. A batch of m arrivals landing in g gaps among n keys costs about
 * g log(n/g) + g log(m/g) name comparisons, a copy of the order and m rank writes. `exhausted`:
 * some gap had no room for its arrivals, so the ranks are not strictly increasing and every key must
 * be ranked again.
 *
 * The keys are written into `spareKeys` when given (a replaced order's keys that no reader holds any
 * more: see key-leases.ts), else into a new array (readers hold the kept ones); names and ranks are
 * written into `spare` when given (never `kept`'s own arrays), and `rankBuffer` is the whole buffer
 * behind the new ranks.
 */
export function placeArrivals(
  kept: RankedKeys,
  positions: readonly number[],
  added: NamedKeys,
  rankOf: Map<string, number> | undefined,
  spare?: SpareOrder,
  spareKeys?: string[],
): { order: RankedKeys; exhausted: boolean; rankBuffer: Int32Array } {
  const { keys: keptKeys, names: keptNames, ranks: keptRanks } = kept;
  const total = keptKeys.length - positions.length + added.keys.length;
  const keys = spareKeys ?? new Array<string>(total);
  const names = spare?.names ?? new Array<string>(total);
  const rankBuffer =
    spare !== undefined && spare.ranks.length >= total ? spare.ranks : new Int32Array(rankCapacity(total));
  const ranks = rankBuffer.length === total ? rankBuffer : rankBuffer.subarray(0, total);
  let copied = 0;
  let next = 0;
  let cutIndex = 0;
  // Copies kept[copied, end) but the cut positions: span by span, the ranks in bulk, with no test of
  // a cut position per key (the order is copied whole at every change, 150,000 keys under churn).
  const copyTo = (end: number): void => {
    while (copied < end) {
      const cut = cutIndex < positions.length ? positions[cutIndex] : end;
      if (cut < copied) {
        // A position given twice: cut once.
        cutIndex += 1;
        continue;
      }
      const stop = cut < end ? cut : end;
      if (stop > copied) {
        ranks.set(keptRanks.subarray(copied, stop), next);
        for (; copied < stop; copied++, next++) {
          names[next] = keptNames[copied];
          keys[next] = keptKeys[copied];
        }
      }
      if (copied === cut && cut < end) {
        cutIndex += 1;
        copied += 1;
      }
    }
  };
  /** True when the kept key at `index` orders after `key` (named `name`). */
  const keptAfter = (index: number, name: string, key: string): boolean =>
    compareNamed(keptNames[index], keptKeys[index], name, key) > 0;
  const { keys: addedKeys, names: addedNames } = added;
  let exhausted = false;
  let first = 0;
  while (first < addedKeys.length) {
    const place = firstAfter(keptKeys.length, copied, (index) =>
      keptAfter(index, addedNames[first], addedKeys[first]),
    );
    copyTo(place);
    // The arrivals after this one that land in the same gap, before the kept key at `place`:
    // galloped over too, since a jump's landing brings thousands to a gap (one comparison each was
    // most of a 150,000-row landing's placement), while churn's single arrivals cost one comparison.
    const end =
      place === keptKeys.length
        ? addedKeys.length
        : firstAfter(
            addedKeys.length,
            first + 1,
            (index) => !keptAfter(place, addedNames[index], addedKeys[index]),
          );
    const below = next > 0 ? ranks[next - 1] : 0;
    // The next kept rank, cut or not: a cut key's rank is at most that of the kept key after it.
    const above = place < keptKeys.length ? keptRanks[place] : maxRank + 1;
    const step = (above - below) / (end - first + 1);
    if (step < 1) exhausted = true;
    for (let index = first; index < end; index++) {
      const rank = below + Math.floor(step * (index - first + 1));
      keys[next] = addedKeys[index];
      names[next] = addedNames[index];
      ranks[next++] = rank;
      rankOf?.set(addedKeys[index], rank);
    }
    first = end;
  }
  copyTo(keptKeys.length);
  // A reused array longer than this order keeps no stale keys or names past its end.
  if (keys.length !== total) keys.length = total;
  if (names.length !== total) names.length = total;
  return { order: { keys, names, ranks }, exhausted, rankBuffer };
}

/**
 * Room a respaced window leaves between neighbours: enough that a few arrivals in the same gap find
 * room before it runs out again, small enough that a window stays a few keys wide.
 */
const respacedGap = 64;

/**
 * Ranks again, in place, only the keys around the gaps that ran out (`ranks` not strictly increasing
 * there after placeArrivals reported `exhausted`), and rewrites those keys' entries of `rankOf` when
 * it is kept. Each window starts at the first rank out of order and doubles around it until the ranks
 * beside it leave every key inside `respacedGap` of room, then spreads them evenly: the rest of the
 * order keeps its ranks. Under churn a new ReplicaSet's pods arrive in one gap (their names share its
 * hash) and used it up within a few reads; ranking every key again dropped the key -> rank Map, and the
 * next keystroke's query rebuilt it, 150,000 Map writes (80-160 ms of the page's CPU at 150,000 pods,
 * session 18). False when the whole order is crowded: the caller ranks every key again.
 */
export function respaceCrowded(
  keys: readonly string[],
  ranks: Int32Array,
  rankOf: Map<string, number> | undefined,
): boolean {
  const count = ranks.length;
  let index = 1;
  while (index < count) {
    if (ranks[index] > ranks[index - 1]) {
      index += 1;
      continue;
    }
    let low: number;
    let high: number;
    let below: number;
    let above: number;
    for (let half = 1; ; half *= 2) {
      low = Math.max(0, index - half);
      high = Math.min(count - 1, index + half);
      below = low > 0 ? ranks[low - 1] : 0;
      above = high < count - 1 ? ranks[high + 1] : maxRank + 1;
      if (above - below >= respacedGap * (high - low + 2)) break;
      if (low === 0 && high === count - 1) return false;
    }
    const step = (above - below) / (high - low + 2);
    for (let position = low; position <= high; position++) {
      const rank = below + Math.floor(step * (position - low + 1));
      ranks[position] = rank;
      rankOf?.set(keys[position], rank);
    }
    index = high + 1;
  }
  return true;
}
