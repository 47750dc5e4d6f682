// Per-key coalescing of row changes between two flushes (tldraw's squashRecordDiffs, client-go
// DeltaFIFO's delete dedup): whatever happened to a key inside a flush window, the renderer needs only
// the net effect against what it held at the last flush. This bounds the work main sends by the number
// of keys that changed, not the number of events, which is what keeps a churning cluster cheap.
import type { Row } from '../../shared/protocol/row';

/** One change to a feed's rows, in informer order. `added` means the key was new to the cache. */
export type RowChange =
  { type: 'added'; row: Row } | { type: 'updated'; row: Row } | { type: 'deleted'; key: string };

/**
 * The net effect on one key since the last flush. `isNew` is true when the renderer did not hold the key
 * at the last flush, so a later delete cancels the whole entry instead of sending a delete.
 */
export type PendingChange = { type: 'upsert'; row: Row; isNew: boolean } | { type: 'delete' };

/**
 * Folds `next` into the pending change for its key; undefined means "nothing to send".
 *
 * - add then delete cancels (the renderer never saw the row);
 * - update then delete becomes a delete; delete then add becomes an upsert of the new row;
 * - among upserts the last write wins, remembering whether the renderer held the key before.
 */
export function squash(pending: PendingChange | undefined, next: RowChange): PendingChange | undefined {
  if (next.type === 'deleted') {
    if (pending?.type === 'upsert' && pending.isNew) return undefined;
    return { type: 'delete' };
  }
  if (pending === undefined) return { type: 'upsert', row: next.row, isNew: next.type === 'added' };
  if (pending.type === 'delete') return { type: 'upsert', row: next.row, isNew: false };
  return { type: 'upsert', row: next.row, isNew: pending.isNew };
}

/** The key a change is about. */
export function changeKey(change: RowChange): string {
  return change.type === 'deleted' ? change.key : change.row.key;
}

/** The pending changes of one subscription, keyed by row key, in first-touched order. */
export class PendingChanges {
  private readonly changes = new Map<string, PendingChange>();

  record(change: RowChange): void {
    const key = changeKey(change);
    const next = squash(this.changes.get(key), change);
    if (next === undefined) this.changes.delete(key);
    else this.changes.set(key, next);
  }

  /** Keys with something to send; never more than the keys the feed ever held during the window. */
  get size(): number {
    return this.changes.size;
  }

  clear(): void {
    this.changes.clear();
  }

  /**
   * Removes and returns up to `limit` changes, oldest-touched first, as upserts and delete keys. A key
   * appears in one of the two lists at most.
   */
  take(limit: number): { upserts: Row[]; deletes: string[] } {
    const upserts: Row[] = [];
    const deletes: string[] = [];
    for (const [key, change] of this.changes) {
      if (upserts.length + deletes.length >= limit) break;
      this.changes.delete(key);
      if (change.type === 'upsert') upserts.push(change.row);
      else deletes.push(key);
    }
    return { upserts, deletes };
  }
}
