// A subset of a name order taken by the positions of its keys, for answers of many keys. A query
// whose answer is most rows (an invalid or partial selector, `!canary`, the first letters of free
// text) used to sort its tens of thousands of positions (a comparator call each) or its keys' ranks
// and copy the order span by span around them: 60-100 ms of CPU at 150,000 rows for an answer of
// every row. Here the positions are marked in a byte per key of the order and the order is read once
// front to back, so the cost is the positions' count plus one pass over an array of pointers (no key
// is dereferenced, so no cache miss a key).
import { cut } from './ranked-placement';

/**
 * Up to this share of the order, positions are sorted and the spans between them copied in bulk
 * (slice), cheaper than a pass over the whole order; past it, they are marked (see the head).
 */
const sortedShare = 1 / 64;

/** Marks `positions` (each below `length`) in a byte per position. */
function marks(length: number, positions: readonly number[]): { marked: Uint8Array; distinct: number } {
  const marked = new Uint8Array(length);
  let distinct = 0;
  for (const position of positions) {
    distinct += 1 - marked[position];
    marked[position] = 1;
  }
  return { marked, distinct };
}

/**
 * `order` without the elements at `positions` (any order, repeats allowed). A new array unless
 * `positions` is empty, when it is a copy.
 */
export function withoutPositions(order: readonly string[], positions: number[]): string[] {
  if (positions.length <= order.length * sortedShare) return cut(order, positions);
  const { marked, distinct } = marks(order.length, positions);
  // Sized up front: grown by push, the copy of 150,000 keys cost twice as much.
  const kept = new Array<string>(order.length - distinct);
  let next = 0;
  for (let index = 0; index < order.length; index++) if (marked[index] === 0) kept[next++] = order[index];
  return kept;
}

/** The elements of `order` at `positions` (distinct, any order), in the order's order. */
export function atPositions(order: readonly string[], positions: readonly number[]): string[] {
  const { marked } = marks(order.length, positions);
  const picked = new Array<string>(positions.length);
  let next = 0;
  for (let index = 0; index < order.length; index++) if (marked[index] === 1) picked[next++] = order[index];
  return picked;
}
