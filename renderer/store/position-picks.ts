// A subset of a name order taken by the positions of its keys, for answers of many keys. A query
// whose answer is most rows (an invalid or partial selector, `!canary`, the first letters of free
// text) used to sort its tens of thousands of positions (a comparator call each) or its keys' ranks
// and copy the order span by span around them: 60-100 ms of CPU at 150,000 rows for an answer of
// every row. Here the positions are marked in a byte per key of the order and the order is read once
// front to back, so the cost is the positions' count plus one pass over an array of pointers (no key
// is dereferenced, so no cache miss a key).
/**
 * Up to this share of the order, positions are sorted and the spans between them copied, with no
 * byte array and no test per key; past it, sorting them costs more than marking them (see the head).
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
 * `order` without the elements at `positions` (any order, repeats allowed), written into `into` when
 * given (an array nobody reads any more: see key-leases.ts), else into a new array. Few positions are
 * sorted and the spans between them copied; many are marked (see the head). Copied by index into an
 * array of the answer's size: slices joined by concat were 10 ms of CPU for 30 positions at 150,000
 * keys, and a new array of that size costs two to three times the writes into a reused one (a large
 * object, its pages touched afresh, and the collections it brings).
 */
export function withoutPositions(order: readonly string[], positions: number[], into?: string[]): string[] {
  if (positions.length <= order.length * sortedShare) {
    positions.sort((first, second) => first - second);
    let distinct = 0;
    for (let index = 0; index < positions.length; index++)
      if (index === 0 || positions[index] !== positions[index - 1]) distinct += 1;
    const kept = sized(into, order.length - distinct);
    let next = 0;
    let from = 0;
    for (const position of positions) {
      for (; from < position; from++) kept[next++] = order[from];
      if (from === position) from += 1;
    }
    for (; from < order.length; from++) kept[next++] = order[from];
    return kept;
  }
  const { marked, distinct } = marks(order.length, positions);
  const kept = sized(into, order.length - distinct);
  let next = 0;
  for (let index = 0; index < order.length; index++) if (marked[index] === 0) kept[next++] = order[index];
  return kept;
}

/** `into` cut or grown to `length`, else a new array of that length. */
function sized(into: string[] | undefined, length: number): string[] {
  if (into === undefined) return new Array<string>(length);
  into.length = length;
  return into;
}

/** The elements of `order` at `positions` (distinct, any order), in the order's order. */
export function atPositions(order: readonly string[], positions: readonly number[]): string[] {
  const { marked } = marks(order.length, positions);
  const picked = new Array<string>(positions.length);
  let next = 0;
  for (let index = 0; index < order.length; index++) if (marked[index] === 1) picked[next++] = order[index];
  return picked;
}
