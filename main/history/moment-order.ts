// Puts a moment's rows in its order: by key (namespace/name), only the latest object of each key (a
// name reused by a newer object), as momentAt orders a moment. A kind's keys are all "namespace/name"
// or all "name", so they order and compare as momentAt's "namespace/name" does.
//
// Sorting 150,000 keys whole cost 0.2-0.4 s of a rebuild's CPU, a nearby moment's as much as a cold
// one's, so little is sorted: rows kept from the moment asked before come in that moment's order
// (their ranks in it), and only the others are sorted, a namespace at a time (the keys of one share
// their prefix "namespace/", so each meets a few thousand others rather than all of them), then both
// runs are merged. A nearby moment sorts the few rows that changed; a cold one sorts them all.
import type { ChangeRow } from './recording-reader';

/**
 * One row of a moment: its key, the change holding its version and, once made, its text (from
 * a frame, or from the version its change row names). Kept for the moment asked next (see
 * MomentRows), it is that moment's row too wherever it holds the same change (a change id names one
 * version of one object, for good).
 */
export interface MomentRow {
  readonly key: string;
  readonly namespace: string;
  readonly change: number;
  /**
   * The row's tuple as JSON (see replay-layout.ts): one string, or a slice of a text holding it;
   * undefined until made.
   */
  text: string | undefined;
  /** Its place in the moment that sent it (-1 until sent): that moment's rows in order, by rank. */
  rank: number;
  /** The change's row, until the text is made from its version. */
  changeRow: ChangeRow | undefined;
}

/**
 * `texts`, each as a slice of one string joined from them all: what a moment keeps of the rows' texts
 * it takes. A few large strings outlive the rebuild, where 150,000 small ones (80 MB) were copied by
 * every scavenge until promoted; and a text taken from a row frame (a slice of the frame's whole
 * text) would keep every frame the moment read alive.
 */
export function sliceJoined(texts: readonly string[]): string[] {
  const joined = texts.join('');
  const slices = new Array<string>(texts.length);
  let start = 0;
  for (let index = 0; index < texts.length; index++) {
    const end = start + texts[index].length;
    slices[index] = joined.slice(start, end);
    start = end;
  }
  return slices;
}

/** A MomentRow, its fields always in one order (one shape for every row). */
export function momentRow(
  key: string,
  namespace: string,
  change: number,
  text: string | undefined,
  changeRow: ChangeRow | undefined,
): MomentRow {
  return { key, namespace, change, text, rank: -1, changeRow };
}

/** The row of `change` kept with its text made, if any (a row held by the live rows has none). */
export function withText(rows: ReadonlyMap<number, MomentRow>, change: number): MomentRow | undefined {
  const row = rows.get(change);
  return row?.text === undefined ? undefined : row;
}

export class MomentOrder {
  /** Rows kept from the moment before, at their rank in it. */
  private readonly ranked: (MomentRow | undefined)[];
  private readonly others: MomentRow[] = [];

  /** `before`: how many rows the moment before held (its ranks are below it). */
  constructor(before: number) {
    this.ranked = new Array<MomentRow | undefined>(before);
  }

  add(row: MomentRow): void {
    const rank = row.rank;
    if (rank >= 0 && rank < this.ranked.length && this.ranked[rank] === undefined) this.ranked[rank] = row;
    else this.others.push(row);
  }

  /** The rows added, in key order, the latest object of each key only. */
  ordered(): MomentRow[] {
    const kept: MomentRow[] = [];
    for (const row of this.ranked) if (row !== undefined) kept.push(row);
    return merged(kept, inKeyOrder(this.others));
  }
}

/** `rows` in key order, with only the latest object of each key. */
function inKeyOrder(rows: readonly MomentRow[]): MomentRow[] {
  let namespaces = new Map<string, MomentRow[]>();
  for (const row of rows) {
    const group = namespaces.get(row.namespace);
    if (group === undefined) namespaces.set(row.namespace, [row]);
    else group.push(row);
  }
  // Keys with and without a namespace (an object without one, of a namespaced kind) interleave.
  if (namespaces.size > 1 && namespaces.has('')) namespaces = new Map([['', [...rows]]]);
  const prefixes = [...namespaces.keys()].map((namespace) => (namespace === '' ? '' : `${namespace}/`));
  prefixes.sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
  const sorted: MomentRow[] = [];
  for (const prefix of prefixes) {
    const group = namespaces.get(prefix === '' ? '' : prefix.slice(0, -1))!.sort(byKeyThenChange);
    for (let index = 0; index < group.length; index++) {
      const next = group[index + 1];
      if (next === undefined || next.key !== group[index].key) sorted.push(group[index]);
    }
  }
  return sorted;
}

function byKeyThenChange(left: MomentRow, right: MomentRow): number {
  if (left.key !== right.key) return left.key < right.key ? -1 : 1;
  return left.change - right.change;
}

/** Two runs in key order (one entry per key each) as one; of a key in both, the later change's. */
function merged(left: readonly MomentRow[], right: readonly MomentRow[]): MomentRow[] {
  if (right.length === 0) return left as MomentRow[];
  if (left.length === 0) return right as MomentRow[];
  const out: MomentRow[] = [];
  let leftAt = 0;
  let rightAt = 0;
  while (leftAt < left.length && rightAt < right.length) {
    const fromLeft = left[leftAt];
    const fromRight = right[rightAt];
    if (fromLeft.key < fromRight.key) {
      out.push(fromLeft);
      leftAt++;
    } else if (fromLeft.key > fromRight.key) {
      out.push(fromRight);
      rightAt++;
    } else {
      out.push(fromLeft.change > fromRight.change ? fromLeft : fromRight);
      leftAt++;
      rightAt++;
    }
  }
  while (leftAt < left.length) out.push(left[leftAt++]);
  while (rightAt < right.length) out.push(right[rightAt++]);
  return out;
}
