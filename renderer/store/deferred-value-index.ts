// One index of the mirror (value -> keys of the rows that have it) for a single row field (namespace,
// node, status, owner uids), brought up to date when it is read rather than when a batch is applied.
// Under kubelet churn most updates move a row between two huge key sets (status Running ->
// CrashLoopBackOff), and a Set of 150k keys costs a cache miss per delete and per add; an index that no
// view is filtering by need not pay that on every frame. Reading is the only way in, so no reader ever
// sees a lagging index. (Labels, one index per key, are kept by LabelIndexes in the same spirit.)
import type { Row } from '../../shared/protocol/row';

/** value -> keys of the rows that have it. Empty sets are removed, so sizes are live counts. */
export type ValueIndex = Map<string, Set<string>>;

/** The values a row has in one index (at most one, except owner uids); `emit` is called for each. */
export type IndexedValues = (row: Row, emit: (value: string) => void) => void;

/** Where a stale index is rebuilt from: the mirror's rows, and how to read this index's values off one. */
export interface IndexSource {
  rows: ReadonlyMap<string, Row>;
  valuesOf: IndexedValues;
  /**
   * Changes kept for an unread index before it gives them up and is rebuilt from `rows` when read
   * (at least this many, and at least half the rows: past that, a rebuild costs no more than a replay).
   */
  pendingLimit: number;
}

export class DeferredValueIndex {
  private readonly entries: ValueIndex = new Map();
  /**
   * Changes not yet applied to `entries`, three slots each (row key, old value, new value), in the
   * order they happened: replaying them in order is exactly the eager update, so `entries` after a
   * read equals an index maintained change by change.
   */
  private pending: (string | undefined)[] = [];
  /**
   * True once pending changes were dropped (too many while unread): `entries` is then cleared and
   * rebuilt from the rows on the next read, and changes are not recorded until then.
   */
  private stale = false;

  /** Without a source (an index built by hand), pending changes are kept however many there are. */
  constructor(private readonly source?: IndexSource) {}

  /** Row `key`'s value went from `oldValue` to `newValue` (undefined: none); the caller skips equal pairs. */
  change(key: string, oldValue: string | undefined, newValue: string | undefined): void {
    if (this.stale) return;
    this.pending.push(key, oldValue, newValue);
    const source = this.source;
    if (source === undefined) return;
    const limit = Math.max(source.pendingLimit, source.rows.size >> 1);
    if (this.pending.length > 3 * limit) {
      this.stale = true;
      this.pending = [];
      this.entries.clear();
    }
  }

  /** The index as of now; the returned Map is the same object on every read (it is updated in place). */
  read(): ValueIndex {
    if (this.stale) this.rebuild();
    else if (this.pending.length > 0) this.replay();
    return this.entries;
  }

  /** Forgets every entry and pending change, as if no row had ever been indexed. */
  clear(): void {
    this.entries.clear();
    this.pending = [];
    this.stale = false;
  }

  private replay(): void {
    const pending = this.pending;
    this.pending = [];
    for (let index = 0; index < pending.length; index += 3) {
      const key = pending[index]!;
      const oldValue = pending[index + 1];
      const newValue = pending[index + 2];
      if (oldValue !== undefined) erase(this.entries, oldValue, key);
      if (newValue !== undefined) insert(this.entries, newValue, key);
    }
  }

  private rebuild(): void {
    const { rows, valuesOf } = this.source!;
    const entries = this.entries;
    entries.clear();
    let rowKey = '';
    const emit = (value: string) => insert(entries, value, rowKey);
    rows.forEach((row, key) => {
      rowKey = key;
      valuesOf(row, emit);
    });
    this.stale = false;
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
