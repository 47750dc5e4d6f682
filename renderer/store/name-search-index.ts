// Finds a mirror's rows by name prefix for the search box, without a scan per keystroke. Every name is
// indexed under each of its segments (after '-', '.' or '_'), so "web", "7c9d8" and "abcde" all find
// web-7c9d8-abcde, as people type the part they remember.
//
// Terms are kept in buckets by their first two characters, each bucket sorted only when a query first
// needs it: building the index is one pass over the rows with no comparison, and the first keystroke
// sorts one bucket (a slice of the names), not 600,000 terms. Within a sorted bucket a prefix is a
// range found by binary search, and a query reads only the entries it returns.
//
// The index follows the mirror's RowChangeLog like the other deferred indexes, but only adds and
// deletes matter: a name is part of its row's key, so an update never moves a term. An add appends to
// its bucket (V8's TimSort re-sorts a sorted array with a few appended entries in about linear time);
// a delete marks its key in the buckets of its terms, filtered out when the bucket is next read. A
// reader the log has left behind rebuilds from the rows.
import type { Row } from '../../shared/protocol/row';
import type { LogCursor, RowChangeLog } from './row-change-log';

/** One indexed term: `term` is the name from one segment on (names are lower-case DNS names). */
interface NameTerm {
  readonly term: string;
  readonly key: string;
}

interface Bucket {
  terms: NameTerm[];
  sorted: boolean;
  /** Keys deleted since the bucket was last read: their terms are still in `terms`. */
  deleted: Set<string> | undefined;
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

const bucketOf = (term: string) => term.slice(0, 2);

function byTerm(left: NameTerm, right: NameTerm): number {
  if (left.term !== right.term) return left.term < right.term ? -1 : 1;
  return left.key < right.key ? -1 : left.key > right.key ? 1 : 0;
}

export class NameSearchIndex {
  private buckets = new Map<string, Bucket>();
  private readonly cursor: LogCursor;

  constructor(private readonly changes: RowChangeLog) {
    // -1: the first read builds from the rows, whatever the log still holds.
    this.cursor = changes.follow(-1);
  }

  /** Stops following the log (the mirror is going away or search is no longer wanted). */
  release(): void {
    this.changes.release(this.cursor);
  }

  /** Rows whose name has a segment starting with `prefix` (non-empty, lower-cased by the caller). */
  find(prefix: string, limit: number, countLimit: number): NameMatches {
    this.catchUp();
    // A prefix of two characters or more lies in one bucket; a single character spans the buckets
    // it begins, whose ids sort in the same order as their terms.
    const ids =
      prefix.length >= 2
        ? [bucketOf(prefix)]
        : [...this.buckets.keys()].filter((id) => id.startsWith(prefix)).sort();
    const keys: string[] = [];
    const seen = new Set<string>();
    let examined = 0;
    for (const id of ids) {
      const terms = this.sortedTerms(id);
      for (let index = lowerBound(terms, prefix); index < terms.length; index++) {
        const entry = terms[index];
        if (!entry.term.startsWith(prefix)) break;
        examined += 1;
        if (seen.has(entry.key)) continue;
        if (seen.size === countLimit) return { keys, count: seen.size, countIsLowerBound: true, examined };
        seen.add(entry.key);
        if (keys.length < limit) keys.push(entry.key);
      }
    }
    return { keys, count: seen.size, countIsLowerBound: false, examined };
  }

  /** How many terms the index holds (for tests and measurements). */
  get size(): number {
    this.catchUp();
    let size = 0;
    for (const id of this.buckets.keys()) size += this.sortedTerms(id).length;
    return size;
  }

  /** One bucket's terms, its deletions applied and sorted. */
  private sortedTerms(id: string): readonly NameTerm[] {
    const bucket = this.buckets.get(id);
    if (!bucket) return [];
    this.dropDeleted(bucket);
    if (!bucket.sorted) {
      bucket.terms.sort(byTerm);
      bucket.sorted = true;
    }
    return bucket.terms;
  }

  private dropDeleted(bucket: Bucket): void {
    const deleted = bucket.deleted;
    if (!deleted) return;
    bucket.terms = bucket.terms.filter((entry) => !deleted.has(entry.key));
    bucket.deleted = undefined;
  }

  private catchUp(): void {
    const end = this.changes.end;
    if (this.cursor.position === end) return;
    if (this.cursor.position >= 0 && this.changes.covers(this.cursor)) {
      this.changes.forEachSince(this.cursor.position, (key, oldRow, newRow) => {
        if (oldRow === undefined && newRow !== undefined) this.add(key, newRow.name);
        else if (newRow === undefined && oldRow !== undefined) this.delete(key, oldRow.name);
      });
    } else {
      this.buckets = new Map();
      for (const [key, row] of this.changes.rows ?? new Map<string, Row>()) this.add(key, row.name);
    }
    this.cursor.position = end;
  }

  private add(key: string, name: string): void {
    nameTerms(name, (term) => {
      const id = bucketOf(term);
      let bucket = this.buckets.get(id);
      if (!bucket) {
        bucket = { terms: [], sorted: true, deleted: undefined };
        this.buckets.set(id, bucket);
      }
      // Deleted and added again: the old terms must go before the new ones join them.
      if (bucket.deleted?.has(key)) this.dropDeleted(bucket);
      bucket.terms.push({ term, key });
      bucket.sorted = false;
    });
  }

  private delete(key: string, name: string): void {
    nameTerms(name, (term) => {
      const bucket = this.buckets.get(bucketOf(term));
      if (bucket) (bucket.deleted ??= new Set()).add(key);
    });
  }
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
