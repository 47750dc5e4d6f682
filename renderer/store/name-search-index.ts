// Finds a mirror's rows by name prefix for the search box, without a scan per keystroke. Every name is
// indexed under each of its segments (after '-', '.' or '_'), so "web", "7c9d8" and "abcde" all find
// web-7c9d8-abcde, as people type the part they remember. The terms live in one sorted array:
// a prefix is a range found by binary search, and a query visits only the entries it returns.
//
// The index follows the mirror's RowChangeLog like the other deferred indexes, but only adds and
// deletes matter: a name is part of its row's key, so an update never moves a term. Changes since
// the last read are spliced in (a few) or merged in one pass (many); a reader the log has left behind
// rebuilds from the rows.
import type { Row } from '../../shared/protocol/row';
import type { LogCursor, RowChangeLog } from './row-change-log';

/** One indexed term: `term` is the name from one segment on (names are lower-case DNS names). */
interface NameTerm {
  readonly term: string;
  readonly key: string;
}

export interface NameMatches {
  /** Keys of the first matching rows in term order, each once, at most `limit` of them. */
  readonly keys: string[];
  /** How many rows match, counted up to `countLimit`. */
  readonly count: number;
  /** True when more rows match than were counted. */
  readonly countIsLowerBound: boolean;
  /** Index entries read to answer (the per-keystroke work, bounded by countLimit's terms). */
  readonly examined: number;
}

const segmentSeparators = new Set(['-', '.', '_']);

/** The name's terms: itself, and the name from after each separator. */
export function nameTerms(name: string, emit: (term: string) => void): void {
  emit(name);
  for (let index = 0; index < name.length - 1; index++)
    if (segmentSeparators.has(name[index])) emit(name.slice(index + 1));
}

function byTerm(left: NameTerm, right: NameTerm): number {
  if (left.term !== right.term) return left.term < right.term ? -1 : 1;
  return left.key < right.key ? -1 : left.key > right.key ? 1 : 0;
}

export class NameSearchIndex {
  private terms: NameTerm[] = [];
  private readonly cursor: LogCursor;

  constructor(private readonly changes: RowChangeLog) {
    // -1: the first read builds from the rows, whatever the log still holds.
    this.cursor = changes.follow(-1);
  }

  /** Stops following the log (the mirror is going away or search is no longer wanted). */
  release(): void {
    this.changes.release(this.cursor);
  }

  /** Rows whose name has a segment starting with `prefix` (lower-cased by the caller). */
  find(prefix: string, limit: number, countLimit: number): NameMatches {
    const terms = this.read();
    let index = lowerBound(terms, prefix);
    const keys: string[] = [];
    const seen = new Set<string>();
    let examined = 0;
    for (; index < terms.length && seen.size < countLimit; index++) {
      const entry = terms[index];
      examined += 1;
      if (!entry.term.startsWith(prefix))
        return { keys, count: seen.size, countIsLowerBound: false, examined };
      if (seen.has(entry.key)) continue;
      seen.add(entry.key);
      if (keys.length < limit) keys.push(entry.key);
    }
    const more = index < terms.length && terms[index].term.startsWith(prefix);
    return { keys, count: seen.size, countIsLowerBound: more, examined };
  }

  /** How many terms the index holds (for tests and measurements). */
  get size(): number {
    return this.read().length;
  }

  private read(): NameTerm[] {
    const end = this.changes.end;
    if (this.cursor.position === end) return this.terms;
    if (this.cursor.position >= 0 && this.changes.covers(this.cursor)) this.merge();
    else this.rebuild();
    this.cursor.position = end;
    return this.terms;
  }

  private rebuild(): void {
    const terms: NameTerm[] = [];
    for (const [key, row] of this.changes.rows ?? new Map<string, Row>())
      nameTerms(row.name, (term) => terms.push({ term, key }));
    this.terms = terms.sort(byTerm);
  }

  /**
   * Applies the adds and deletes since the cursor. A few changes (kubelet churn) are spliced in place
   * at positions found by binary search: a memmove, no comparison per old term. Many (a relist) are
   * merged in one pass, the new terms sorted among themselves first, the runs between them copied
   * without comparing.
   */
  private merge(): void {
    const added = new Map<string, string>();
    const removed = new Map<string, string>();
    this.changes.forEachSince(this.cursor.position, (key, oldRow, newRow) => {
      if (oldRow === undefined && newRow !== undefined) {
        // Deleted then added again since the last read: its terms are already in the array.
        if (!removed.delete(key)) added.set(key, newRow.name);
      } else if (newRow === undefined && oldRow !== undefined) {
        if (!added.delete(key)) removed.set(key, oldRow.name);
      }
    });
    if (added.size === 0 && removed.size === 0) return;
    const incoming = termsOf(added);
    const outgoing = termsOf(removed);
    if (incoming.length + outgoing.length <= splicedChanges) this.splice(incoming, outgoing);
    else this.mergeAll(incoming, removed);
  }

  private splice(incoming: readonly NameTerm[], outgoing: readonly NameTerm[]): void {
    const terms = this.terms;
    for (const entry of outgoing) {
      const at = insertionPoint(terms, entry, 0);
      if (at < terms.length && terms[at].key === entry.key && terms[at].term === entry.term)
        terms.splice(at, 1);
    }
    for (const entry of incoming) terms.splice(insertionPoint(terms, entry, 0), 0, entry);
  }

  private mergeAll(incoming: readonly NameTerm[], removed: ReadonlyMap<string, string>): void {
    const current = this.terms;
    const merged: NameTerm[] = [];
    const copy = (from: number, to: number) => {
      if (removed.size === 0) for (let index = from; index < to; index++) merged.push(current[index]);
      else
        for (let index = from; index < to; index++) {
          const entry = current[index];
          if (!removed.has(entry.key)) merged.push(entry);
        }
    };
    let copied = 0;
    for (const entry of incoming) {
      const at = insertionPoint(current, entry, copied);
      copy(copied, at);
      merged.push(entry);
      copied = at;
    }
    copy(copied, current.length);
    this.terms = merged;
  }
}

/** Changes (in terms) spliced one by one; past this a merge pass is cheaper. */
const splicedChanges = 256;

/** The terms of `names` (key -> name), sorted. */
function termsOf(names: ReadonlyMap<string, string>): NameTerm[] {
  const terms: NameTerm[] = [];
  for (const [key, name] of names) nameTerms(name, (term) => terms.push({ term, key }));
  return terms.sort(byTerm);
}

/** The first index at or after `from` whose entry sorts after `entry`. */
function insertionPoint(terms: readonly NameTerm[], entry: NameTerm, from: number): number {
  let low = from;
  let high = terms.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (byTerm(terms[middle], entry) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The first index whose term is not below `prefix`. */
function lowerBound(terms: readonly NameTerm[], prefix: string): number {
  let low = 0;
  let high = terms.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (terms[middle].term < prefix) low = middle + 1;
    else high = middle;
  }
  return low;
}
