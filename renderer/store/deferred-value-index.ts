// One index of the mirror (value -> keys of the rows that have it) for a single row field (namespace,
// node, status, owner uids), brought up to date from the mirror's RowChangeLog when it is read rather
// than when a batch is applied. Under kubelet churn most updates move a row between two huge key sets
// (status Running -> CrashLoopBackOff), and a Set of 150k keys costs a cache miss per delete and per
// add; an index that no view is filtering by need not pay that on every frame. Reading is the only way
// in, so no reader ever sees a lagging index. (Labels, one index per key, are kept by LabelIndexes in
// the same spirit.)
import type { Row } from '../../shared/protocol/row';
import type { LogCursor, RowChangeLog } from './row-change-log';

/** value -> keys of the rows that have it. Empty sets are removed, so sizes are live counts. */
export type ValueIndex = Map<string, Set<string>>;

/** The values a row has in one index (at most one, except owner uids); `emit` is called for each. */
export type IndexedValues = (row: Row, emit: (value: string) => void) => void;

/** The row field an index is kept for. */
export interface IndexedField {
  valuesOf: IndexedValues;
  /**
   * True when two versions of a row have the same values here: like client-go's updateIndices, the
   * index is then left alone, and most updates (a status or restart count moving) touch no other index.
   */
  sameValues(oldRow: Row, newRow: Row): boolean;
  /**
   * True when the value follows from the row key (a namespace: keys are "namespace/name"), so an
   * update never changes it and only adds and deletes are replayed: the old rows of a batch, cold in
   * memory by the time an index is read, are then not read at all.
   */
  readonly fixedByKey?: boolean;
}

export class DeferredValueIndex {
  private readonly entries: ValueIndex = new Map();
  /**
   * Changes before it are in `entries`. Replaying the log from it in order is exactly the eager
   * update, so `entries` after a read equals an index maintained change by change. Position 0 is
   * right for a new index either way: the log holds every change from the first, or has dropped some
   * and the first read rebuilds from the rows.
   */
  private readonly cursor: LogCursor;

  constructor(
    private readonly changes: RowChangeLog,
    private readonly field: IndexedField,
  ) {
    this.cursor = changes.follow(0);
  }

  /** The index as of now; the returned Map is the same object on every read (it is updated in place). */
  read(): ValueIndex {
    const end = this.changes.end;
    if (this.cursor.position < end) {
      if (this.changes.covers(this.cursor)) this.replay();
      else this.rebuild();
      this.cursor.position = end;
    }
    return this.entries;
  }

  /** Forgets every entry, as if no row had ever been indexed: only changes from now on are applied. */
  clear(): void {
    this.entries.clear();
    this.cursor.position = this.changes.end;
  }

  /**
   * One tight loop per run, not a callback per change: the first read after a 5,000-row batch is
   * what a view waits for (issue 7 times it), and it already pays a cache miss per cold old row.
   */
  private replay(): void {
    const entries = this.entries;
    const { valuesOf, sameValues, fixedByKey } = this.field;
    let rowKey = '';
    const eraseValue = (value: string) => erase(entries, value, rowKey);
    const insertValue = (value: string) => insert(entries, value, rowKey);
    this.changes.forEachRunSince(this.cursor.position, ({ oldRows, newRows, keys }, from) => {
      if (newRows === undefined) {
        for (let slot = from; slot < oldRows.length; slot++) {
          rowKey = keys![slot];
          valuesOf(oldRows[slot]!, eraseValue);
        }
        return;
      }
      for (let slot = from; slot < oldRows.length; slot++) {
        const oldRow = oldRows[slot];
        const newRow = newRows[slot];
        if (oldRow !== undefined) {
          if (fixedByKey || sameValues(oldRow, newRow)) continue;
          rowKey = newRow.key;
          valuesOf(oldRow, eraseValue);
        } else rowKey = newRow.key;
        valuesOf(newRow, insertValue);
      }
    });
  }

  private rebuild(): void {
    const entries = this.entries;
    entries.clear();
    let rowKey = '';
    const emit = (value: string) => insert(entries, value, rowKey);
    const valuesOf = this.field.valuesOf;
    this.changes.rows!.forEach((row, key) => {
      rowKey = key;
      valuesOf(row, emit);
    });
  }
}

/** Adds row `key` under `value`. */
export function insert(index: ValueIndex, value: string, key: string): void {
  let keys = index.get(value);
  if (!keys) index.set(value, (keys = new Set()));
  keys.add(key);
}

/** Removes row `key` from under `value`, dropping the value once no row has it. */
export function erase(index: ValueIndex, value: string, key: string): void {
  const keys = index.get(value);
  if (!keys) return;
  keys.delete(key);
  if (keys.size === 0) index.delete(value);
}
