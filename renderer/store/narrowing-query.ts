// The filter bar's answer in name order, computed from the previous answer when it can be. Typing
// mostly extends what was typed: a longer free text, or a selector that gains a requirement. Every row
// matching the longer filter matched the shorter one too, so the new answer is a subset of the last,
// and filtering the last answer (often a few thousand keys) replaces a scan of all 150,000 rows. The
// same holds for an unchanged filter re-run because rows churned, the most frequent query of all.
//
// Rows change between the two queries, though: a row may have started matching, stopped matching, or
// left. The mirror's change log says which keys changed since the last answer was taken; those are
// checked again from the rows as they are now, and every other key of the last answer is unchanged,
// so its old verdict under the shorter filter still stands and only the added conditions are new.
import { requirementToString } from '../../shared/selectors/label-selector';
import type { LabelSelector } from '../../shared/selectors/label-selector';
import { mergedByName } from './few-by-name';
import { leaseKeys, returnKeys } from './key-leases';
import type { LogCursor } from './row-change-log';
import type { RowExclusions, RowFilter, RowSort } from './row-query';
import { answersByExclusion, candidateCount, filterAccepter, matchesFilter, queryRows } from './row-query';
import type { SubscriptionMirror } from './subscription-mirror';

/** The last answer and the log position it was taken at. */
interface Answer {
  readonly mirror: SubscriptionMirror;
  readonly filter: RowFilter;
  readonly keys: readonly string[];
  /** Followed in `mirror.changes`, so the changes since the answer stay readable while it is recent. */
  readonly cursor: LogCursor;
}

/**
 * Below this share of the rows, the keys to re-check are read row by row (matchesFilter); above it,
 * the filter is answered from the indexes (filterAccepter), whose setup walks every distinct label
 * pair and may merge large key sets: worth it only when many keys are checked.
 */
const rowByRowShare = 1 / 8;

export class NarrowingQuery {
  private last: Answer | undefined;

  /** Exactly queryRows(mirror, filter, sort); from the last answer when `filter` narrows its filter. */
  query(mirror: SubscriptionMirror, filter: RowFilter, sort?: RowSort): readonly string[] {
    if (sort !== undefined && (sort.column !== 'name' || sort.descending)) {
      // Only the name order is kept: other orders move when rows are updated in place.
      this.release();
      return queryRows(mirror, filter, sort);
    }
    const last = this.last;
    const keys =
      last !== undefined &&
      last.mirror === mirror &&
      mirror.changes.covers(last.cursor) &&
      narrows(last.filter, filter) &&
      // An index may narrow the new filter further (`app=web` typed after nothing): then it is cheaper.
      last.keys.length < candidateCount(mirror, filter) &&
      // Many keys of the last answer are read in name order, a cache miss each: keys to leave out of
      // the name order, or text read in the rows' own order (queryRows), cost less.
      !(
        last.keys.length > mirror.rows.size * rowByRowShare &&
        (filter.text !== undefined || answersByExclusion(mirror, filter))
      )
        ? narrowed(last, filter)
        : queryRows(mirror, filter);
    this.remember(mirror, filter, keys);
    return keys;
  }

  /** Stops following the mirror's change log (the view that asked is gone). */
  release(): void {
    if (this.last) {
      this.last.mirror.changes.release(this.last.cursor);
      returnKeys(this.last.keys);
    }
    this.last = undefined;
  }

  /**
   * Keeps `keys` as the last answer: leased (see key-leases.ts), since the next query may read it
   * after the name order has changed, and the lease on the answer before it returned.
   */
  private remember(mirror: SubscriptionMirror, filter: RowFilter, keys: readonly string[]): void {
    leaseKeys(keys);
    const end = mirror.changes.end;
    let cursor = this.last?.mirror === mirror ? this.last.cursor : undefined;
    if (cursor) {
      cursor.position = end;
      returnKeys(this.last!.keys);
    } else {
      this.release();
      cursor = mirror.changes.follow(end);
    }
    this.last = { mirror, filter, keys, cursor };
  }
}

/** The keys of `last` that still match `filter`, plus the changed keys that match it now, by name. */
function narrowed(last: Answer, filter: RowFilter): string[] {
  const { mirror } = last;
  const rows = mirror.rows;
  const changed = new Set<string>();
  mirror.changes.forEachSince(last.cursor.position, (key) => changed.add(key));
  let accepts: (key: string) => boolean;
  // Free text is cheaper from keys and label pairs than from each row's name and labels, however few.
  if (filter.text === undefined && last.keys.length + changed.size < rows.size * rowByRowShare) {
    accepts = (key) => {
      const row = rows.get(key);
      return row !== undefined && matchesFilter(row, filter);
    };
  } else accepts = filterAccepter(mirror, filter);
  const kept: string[] = [];
  for (const key of last.keys) if (!changed.has(key) && accepts(key)) kept.push(key);
  const arrived: string[] = [];
  for (const key of changed) if (rows.has(key) && accepts(key)) arrived.push(key);
  return arrived.length === 0 ? kept : mergedByName(mirror, kept, arrived);
}

/** True when every row `next` accepts is accepted by `previous` too, whatever the rows are. */
export function narrows(previous: RowFilter, next: RowFilter): boolean {
  return (
    namespacesNarrow(previous.namespaces, next.namespaces) &&
    sameOrAdded(previous.node, next.node) &&
    sameOrAdded(previous.status, next.status) &&
    sameOrAdded(previous.ownerUid, next.ownerUid) &&
    exclusionsNarrow(previous.without, next.without) &&
    selectorNarrows(previous.labelSelector, next.labelSelector) &&
    textNarrows(previous.text, next.text)
  );
}

function sameOrAdded(previous: string | undefined, next: string | undefined): boolean {
  return previous === undefined || previous === next;
}

/** Every value `previous` leaves out, `next` leaves out too: leaving out more accepts less. */
function exclusionsNarrow(previous: RowExclusions | undefined, next: RowExclusions | undefined): boolean {
  const kept = (before: readonly string[] | undefined, after: readonly string[] | undefined) =>
    (before ?? []).every((value) => after?.includes(value));
  return (
    kept(previous?.namespaces, next?.namespaces) &&
    kept(previous?.nodes, next?.nodes) &&
    kept(previous?.statuses, next?.statuses)
  );
}

function namespacesNarrow(
  previous: ReadonlySet<string> | readonly string[] | undefined,
  next: ReadonlySet<string> | readonly string[] | undefined,
): boolean {
  const before = [...(previous ?? [])];
  if (before.length === 0) return true;
  const after = [...(next ?? [])];
  // No namespace picked means every namespace: wider than any pick.
  return after.length > 0 && after.every((namespace) => before.includes(namespace));
}

/** Each requirement of `previous` is among `next`'s: a conjunction with more terms accepts less. */
function selectorNarrows(previous: LabelSelector | undefined, next: LabelSelector | undefined): boolean {
  if (previous === undefined) return true;
  // nothing() has no requirements yet accepts no row: only itself narrows it.
  if (previous.matchesNothing()) return next?.matchesNothing() ?? false;
  if (next === undefined) return previous.requirements.length === 0;
  if (next.matchesNothing()) return true;
  const terms = new Set(next.requirements.map(requirementToString));
  return previous.requirements.every((requirement) => terms.has(requirementToString(requirement)));
}

/** Text that contains the previous text is found only where the previous text is (matchesText). */
function textNarrows(previous: string | undefined, next: string | undefined): boolean {
  const before = previous?.trim().toLowerCase() ?? '';
  if (before === '') return true;
  return (next?.trim().toLowerCase() ?? '').includes(before);
}
