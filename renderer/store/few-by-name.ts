// A query's matches in name order, sorted directly when they are few and the kept name order is not
// current. Reading the kept order (NameOrder) brings it up to date first, and whenever keys came or
// went since its last read that is a copy of every key, name and rank: at 140,000 rows under 2,000
// changes a second, 13 ms of CPU and 3 MB of large objects (collected only by a major collection)
// per read. Every query paid it, even one answering no row (`app=a`, on the way to `app=api-0`), and
// so did the table's re-query of a narrow filter under churn, ten times a second. A few hundred keys
// sort by name (collator compares, about 2 us a key) in a fraction of that, and the kept order then
// catches up once, when an answer of many keys next reads it.
//
// The order these give is exactly the kept order's: by name with numeric-aware collation, ties by key
// (compareNamed, which NameOrder sorts by too).
import { compareNamed, sortRowsByName } from './named-keys';
import { inNameOrder, mergedInNameOrder, nameOrderWithout } from './name-order';
import type { SubscriptionMirror } from './subscription-mirror';

/**
 * Up to this share of the rows, keys are sorted directly rather than through a kept order that must
 * catch up: a direct sort costs about 2 us a key, a catch-up about 30-90 ns a row (three arrays of
 * every row copied).
 */
const directShare = 1 / 64;

/** The change log's end when this module last read the mirror's kept order: it was current then. */
const orderReadAt = new WeakMap<SubscriptionMirror, number>();

/** True when `count` keys cost less sorted directly than through the kept order. */
function sortsDirectly(mirror: SubscriptionMirror, count: number): boolean {
  if (count > mirror.rows.size * directShare) return false;
  // Nothing changed since the kept order was read: it is current, and ranks sort faster than names.
  return orderReadAt.get(mirror) !== mirror.changes.end;
}

function noteOrderRead(mirror: SubscriptionMirror): void {
  orderReadAt.set(mirror, mirror.changes.end);
}

/** `keys` (distinct keys of `mirror`) in name order. */
export function keysInNameOrder(mirror: SubscriptionMirror, keys: readonly string[]): string[] {
  if (keys.length === 0) return [];
  if (sortsDirectly(mirror, keys.length))
    return sortRowsByName(keys.map((key) => mirror.rows.get(key)!)).keys;
  const sorted = inNameOrder(mirror, keys);
  noteOrderRead(mirror);
  return sorted;
}

/**
 * `ordered` (name-ordered keys of `mirror`) with `added` (keys of `mirror` it lacks) in their places.
 * Few arrivals are placed by binary search on names, so the kept order is not read.
 */
export function mergedByName(
  mirror: SubscriptionMirror,
  ordered: readonly string[],
  added: readonly string[],
): string[] {
  if (!sortsDirectly(mirror, added.length)) {
    const merged = mergedInNameOrder(mirror, ordered, added);
    noteOrderRead(mirror);
    return merged;
  }
  const rows = mirror.rows;
  const nameOf = (key: string) => rows.get(key)!.name;
  const result: string[] = [];
  let copied = 0;
  for (const key of sortRowsByName(added.map((each) => rows.get(each)!)).keys) {
    const name = nameOf(key);
    let low = copied;
    let high = ordered.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (compareNamed(nameOf(ordered[middle]), ordered[middle], name, key) < 0) low = middle + 1;
      else high = middle;
    }
    while (copied < low) result.push(ordered[copied++]);
    result.push(key);
  }
  while (copied < ordered.length) result.push(ordered[copied++]);
  return result;
}

/** Every key of the kept name order that none of `excluded` holds (see NameOrder.without). */
export function nameOrderExcluding(
  mirror: SubscriptionMirror,
  excluded: readonly Iterable<string>[],
): readonly string[] {
  const kept = nameOrderWithout(mirror, excluded);
  noteOrderRead(mirror);
  return kept;
}
