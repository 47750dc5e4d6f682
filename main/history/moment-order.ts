// Puts a moment's rows in its order: by key (namespace/name), only the latest object of each key (a
// name reused by a newer object), as momentAt orders a moment. A kind's keys are all "namespace/name"
// or all "name", so they order and compare as momentAt's "namespace/name" does.
//
// Sorting 150,000 keys took a third of a rebuild from frames, so little is sorted: rows kept from the
// moment asked before come in that moment's order (their ranks in it), and only the others are sorted,
// a namespace at a time (the keys of one share their prefix "namespace/", so each meets a few
// thousand others rather than all of them), then both runs are merged. A nearby moment sorts the few
// rows that changed; a cold one sorts them all.
import type { ChangeRow } from './recording-reader';

/** A row of a moment as JSON text, kept for the moment asked next (see MomentRows). */
export interface KnownRow {
  readonly key: string;
  readonly namespace: string;
  /** JSON.stringify of the Row: one string, or a slice of the text of the chunk that sent it. */
  text: string;
  /** Its place in the moment that sent it (-1 until sent): that moment's rows in order, by rank. */
  rank: number;
}

/** One row of a moment: known (from a frame, or kept from the moment before), or else its change row. */
export interface MomentEntry {
  readonly key: string;
  readonly namespace: string;
  readonly change: number;
  readonly known: KnownRow | undefined;
  readonly changeRow: ChangeRow | undefined;
}

/** A MomentEntry, its fields always in one order (one shape for every entry). */
export function entry(
  key: string,
  namespace: string,
  change: number,
  known: KnownRow | undefined,
  changeRow: ChangeRow | undefined,
): MomentEntry {
  return { key, namespace, change, known, changeRow };
}

export class MomentOrder {
  /** Entries kept from the moment before, at their rank in it. */
  private readonly ranked: (MomentEntry | undefined)[];
  private readonly others: MomentEntry[] = [];

  /** `before`: how many rows the moment before held (its ranks are below it). */
  constructor(before: number) {
    this.ranked = new Array<MomentEntry | undefined>(before);
  }

  add(entry: MomentEntry): void {
    const rank = entry.known?.rank ?? -1;
    if (rank >= 0 && rank < this.ranked.length && this.ranked[rank] === undefined) this.ranked[rank] = entry;
    else this.others.push(entry);
  }

  /** The entries added, in key order, the latest object of each key only. */
  ordered(): MomentEntry[] {
    const kept: MomentEntry[] = [];
    for (const entry of this.ranked) if (entry !== undefined) kept.push(entry);
    return merged(kept, inKeyOrder(this.others));
  }
}

/** `entries` in key order, with only the latest object of each key. */
function inKeyOrder(entries: readonly MomentEntry[]): MomentEntry[] {
  let namespaces = new Map<string, MomentEntry[]>();
  for (const entry of entries) {
    const group = namespaces.get(entry.namespace);
    if (group === undefined) namespaces.set(entry.namespace, [entry]);
    else group.push(entry);
  }
  // Keys with and without a namespace (an object without one, of a namespaced kind) interleave.
  if (namespaces.size > 1 && namespaces.has('')) namespaces = new Map([['', [...entries]]]);
  const prefixes = [...namespaces.keys()].map((namespace) => (namespace === '' ? '' : `${namespace}/`));
  prefixes.sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
  const sorted: MomentEntry[] = [];
  for (const prefix of prefixes) {
    const group = namespaces.get(prefix === '' ? '' : prefix.slice(0, -1))!.sort(byKeyThenChange);
    for (let index = 0; index < group.length; index++) {
      const next = group[index + 1];
      if (next === undefined || next.key !== group[index].key) sorted.push(group[index]);
    }
  }
  return sorted;
}

function byKeyThenChange(left: MomentEntry, right: MomentEntry): number {
  if (left.key !== right.key) return left.key < right.key ? -1 : 1;
  return left.change - right.change;
}

/** Two runs in key order (one entry per key each) as one; of a key in both, the later change's. */
function merged(left: readonly MomentEntry[], right: readonly MomentEntry[]): MomentEntry[] {
  if (right.length === 0) return left as MomentEntry[];
  if (left.length === 0) return right as MomentEntry[];
  const out: MomentEntry[] = [];
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
