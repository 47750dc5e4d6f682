// Row keys in the default order (by name with numeric-aware collation, ties by key), with their names
// beside them, and NameRuns: a held snapshot put in that order while its chunks arrive.
//
// A travel's moment arrives as chunks that the replay mirror holds until the last one, and the table
// can show nothing before the name order of every row is known. Sorting 50,000-150,000 names at that
// moment was the largest share of the page's work between the last byte and the painted table. The
// chunks arrive over seconds while the page waits, so each is sorted as it is held and merged with
// the others as they pile up; after the last byte a few runs of falling sizes are left to merge.
import type { Row } from '../../shared/protocol/row';
import { compareCells } from './compare-cells';

/** Keys and their names, side by side, in name order. */
export interface NamedKeys {
  readonly keys: string[];
  readonly names: string[];
}

/** Name order of (name, key) pairs: by name with numeric-aware collation, then by key. */
export function compareNamed(leftName: string, leftKey: string, rightName: string, rightKey: string): number {
  const order = compareCells(leftName, rightName);
  if (order !== 0) return order;
  return leftKey < rightKey ? -1 : leftKey > rightKey ? 1 : 0;
}

/** The index of `key` (named `name`) in name-ordered `keys` and `names` (which hold it): a binary search. */
export function positionByName(
  keys: readonly string[],
  names: readonly string[],
  name: string,
  key: string,
): number {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (compareNamed(names[middle], keys[middle], name, key) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** `rows` in name order, as keys and names. */
export function sortRowsByName(rows: readonly Row[]): NamedKeys {
  const decorated = rows.map((row) => ({ key: row.key, name: row.name }));
  decorated.sort((left, right) => compareNamed(left.name, left.key, right.name, right.key));
  return { keys: decorated.map((entry) => entry.key), names: decorated.map((entry) => entry.name) };
}

/**
 * Two name-ordered lists merged (a key in both appears twice, side by side). Each key of `right` is
 * placed by galloping from the last one's place, so merging a chunk into a run many times its size
 * costs a few comparisons per key of the chunk and a copy of the run.
 */
export function mergeNamed(left: NamedKeys, right: NamedKeys): NamedKeys {
  const total = left.keys.length + right.keys.length;
  const keys = new Array<string>(total);
  const names = new Array<string>(total);
  let next = 0;
  let copied = 0;
  for (let index = 0; index < right.keys.length; index++) {
    const name = right.names[index];
    const key = right.keys[index];
    const place = firstAfter(
      left.keys.length,
      copied,
      (at) => compareNamed(left.names[at], left.keys[at], name, key) > 0,
    );
    while (copied < place) {
      keys[next] = left.keys[copied];
      names[next++] = left.names[copied++];
    }
    keys[next] = key;
    names[next++] = name;
  }
  while (copied < left.keys.length) {
    keys[next] = left.keys[copied];
    names[next++] = left.names[copied++];
  }
  return { keys, names };
}

/**
 * The upserts of a snapshot's chunks in name order, built as the chunks arrive. Runs are kept like
 * TimSort's stack: each is more than twice the size of the one after it, so a chunk costs its own
 * sort plus merges whose total over the snapshot is n log(n / chunk), and what is left after the last
 * byte is at most log2(n / chunk) runs of falling sizes, merged smallest first in about 2n steps.
 * (Merging every chunk into one run instead left less for the end, but allocated a run-sized pair of
 * arrays per chunk: 180 MB of large objects for a 150,000-row moment, and the collections they bring.)
 */
export class NameRuns {
  private readonly runs: NamedKeys[] = [];

  add(rows: readonly Row[]): void {
    if (rows.length === 0) return;
    this.addOrdered(sortRowsByName(rows));
  }

  /** Keys already in name order (a mirror's name order, see NameOrder), as one run. */
  addOrdered(named: NamedKeys): void {
    if (named.keys.length === 0) return;
    const runs = this.runs;
    runs.push(named);
    while (runs.length > 1 && runs[runs.length - 2].keys.length <= 2 * runs[runs.length - 1].keys.length) {
      const last = runs.pop()!;
      runs.push(mergeNamed(runs.pop()!, last));
    }
  }

  /** Every key added so far in name order; a key added more than once appears as often, side by side. */
  merged(): NamedKeys {
    const runs = this.runs;
    while (runs.length > 1) {
      const last = runs.pop()!;
      runs.push(mergeNamed(runs.pop()!, last));
    }
    return runs[0] ?? { keys: [], names: [] };
  }
}

/**
 * The first index in [from, length) for which `after` holds (it holds for every index after that one,
 * or `length`): galloping from `from`, then a binary search, so a place d indexes on costs about
 * 2 log d calls.
 */
export function firstAfter(length: number, from: number, after: (index: number) => boolean): number {
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
 * `arrived` (distinct keys, which `isArrival` tells apart) in name order: those among `presorted` (a
 * name-ordered list, repeats side by side) taken in its order, and only the others sorted by `sort`.
 */
export function takeArrivals(
  presorted: NamedKeys,
  arrived: readonly string[],
  isArrival: (key: string) => boolean,
  sort: (keys: readonly string[]) => NamedKeys,
): NamedKeys {
  const keys: string[] = [];
  const names: string[] = [];
  let previous: string | undefined;
  presorted.keys.forEach((key, index) => {
    if (key === previous || !isArrival(key)) return;
    previous = key;
    keys.push(key);
    names.push(presorted.names[index]);
  });
  if (keys.length === arrived.length) return { keys, names };
  // Arrivals besides the presorted ones (a playback's first changes, applied before the read).
  const taken = new Set(keys);
  return mergeNamed({ keys, names }, sort(arrived.filter((key) => !taken.has(key))));
}
