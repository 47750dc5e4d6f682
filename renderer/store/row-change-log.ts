// The mirror's change log: every row change (row key, row before, row after) in the order batches
// applied them, recorded once per batch and replayed by each index (DeferredValueIndex, LabelIndexes)
// from its own cursor when that index is read. Applying a 5,000-row batch to 150,000 rows spent as
// long on per-row index bookkeeping (value compares, pushes into each index's long-lived pending
// arrays) as on the Map writes themselves; here a batch costs one run per pass, referring to the
// batch's own `upserts` array and to one fresh array of the rows they replaced. Comparing old and new
// values is left to the indexes that are read, like client-go's updateIndices but deferred.
import type { Row } from '../../shared/protocol/row';

/** Below this many changes the log keeps them for unread indexes however few rows there are. */
const defaultPendingLimit = 4096;

/**
 * How far one reader (an index, or label-key discovery) has read: every change before `position`
 * (absolute; positions only grow) is reflected in the reader. A position before the log's first
 * retained change means the reader missed changes it can no longer see, and must rebuild from the rows.
 */
export interface LogCursor {
  position: number;
}

/** Row `key` went from `oldRow` to `newRow` (undefined: absent) in the change at `position`. */
export type ChangeVisitor = (
  key: string,
  oldRow: Row | undefined,
  newRow: Row | undefined,
  position: number,
) => void;

/**
 * The changes of one pass of one batch (its upserts, its deletes, or a snapshot's final sweep), in
 * order: slot i is the change at position `start + i`. Readers loop over a run's arrays directly.
 */
export interface ChangeRun {
  readonly start: number;
  /** The row each change replaced or removed (undefined: the change added the row). */
  readonly oldRows: readonly (Row | undefined)[];
  /** The rows written (the batch's own `upserts` array, never mutated); undefined for deletes. */
  readonly newRows: readonly Row[] | undefined;
  /** The keys deleted, for a run of deletes (an upsert's key is its new row's). */
  readonly keys: readonly string[] | undefined;
}

export class RowChangeLog {
  private runs: ChangeRun[] = [];
  /** Absolute position of the first retained change. */
  private base = 0;
  /** Changes retained, from `base` on. */
  private length = 0;
  private readonly cursors = new Set<LogCursor>();

  /**
   * `rows` is the map the changes describe, always current: once the log holds more than
   * max(`pendingLimit`, half the rows) changes, readers that have not read its newer half lose the
   * older half and rebuild from `rows` when read, so a batch never pays for an index nobody reads
   * and the log never pins more old rows than that. Without it (indexes built by hand) nothing is
   * ever dropped.
   */
  constructor(
    readonly rows?: ReadonlyMap<string, Row>,
    private readonly pendingLimit = defaultPendingLimit,
  ) {}

  /** The position the next change will take. */
  get end(): number {
    return this.base + this.length;
  }

  /** How many changes the log holds now (what a reader that is far behind would replay). */
  get retained(): number {
    return this.length;
  }

  /** A cursor at `position` that trimming respects until `release`; -1 asks for a rebuild on first read. */
  follow(position: number): LogCursor {
    const cursor = { position };
    this.cursors.add(cursor);
    return cursor;
  }

  release(cursor: LogCursor): void {
    this.cursors.delete(cursor);
  }

  /** True when the log still holds every change since `cursor`, so replaying them brings it up to date. */
  covers(cursor: LogCursor): boolean {
    return cursor.position >= this.base;
  }

  /** The batch wrote `newRows` (kept by reference), replacing `oldRows` (same length; undefined: added). */
  recordUpserts(newRows: readonly Row[], oldRows: readonly (Row | undefined)[]): void {
    if (newRows.length > 0) this.append({ start: this.end, oldRows, newRows, keys: undefined });
  }

  /** The rows under `keys` were removed; `oldRows` are those rows, in the same order. */
  recordDeletes(keys: readonly string[], oldRows: readonly Row[]): void {
    if (keys.length > 0) this.append({ start: this.end, oldRows, newRows: undefined, keys });
  }

  /**
   * Calls `visit` for each run holding changes from `position` (which `covers` must accept) on, in
   * order, with the first slot of the run at or after `position`.
   */
  forEachRunSince(position: number, visit: (run: ChangeRun, from: number) => void): void {
    const runs = this.runs;
    for (let index = this.runAt(position); index < runs.length; index++) {
      const run = runs[index];
      visit(run, Math.max(0, position - run.start));
    }
  }

  /** Visits, in order, every change from `position` (which `covers` must accept) to the end. */
  forEachSince(position: number, visit: ChangeVisitor): void {
    this.forEachRunSince(position, ({ start, oldRows, newRows, keys }, from) => {
      if (newRows === undefined)
        for (let slot = from; slot < oldRows.length; slot++)
          visit(keys![slot], oldRows[slot], undefined, start + slot);
      else
        for (let slot = from; slot < oldRows.length; slot++)
          visit(newRows[slot].key, oldRows[slot], newRows[slot], start + slot);
    });
  }

  /** Drops every change; readers then see only what comes next (RowIndexes.clear moves them to `end`). */
  clear(): void {
    this.base = this.end;
    this.length = 0;
    this.runs = [];
  }

  private append(run: ChangeRun): void {
    this.runs.push(run);
    this.length += run.oldRows.length;
    const rows = this.rows;
    if (rows !== undefined && this.length > Math.max(this.pendingLimit, rows.size >> 1)) this.trim();
  }

  /**
   * Keeps the newer half of the log and what readers that have read into it still need: a reader
   * behind that half gives it up (it is rebuilt on its next read), so an index nobody reads costs a
   * rebuild once, when it is finally read, and never pins the log.
   */
  private trim(): void {
    const end = this.end;
    const keep = end - (this.length >> 1);
    let start = end;
    for (const cursor of this.cursors)
      if (cursor.position >= keep && cursor.position < start) start = cursor.position;
    let drop = 0;
    while (drop < this.runs.length) {
      const run = this.runs[drop];
      if (run.start + run.oldRows.length > start) break;
      drop += 1;
    }
    this.runs = this.runs.slice(drop);
    this.base = this.runs.length > 0 ? this.runs[0].start : end;
    this.length = end - this.base;
  }

  /** The index of the run holding `position` (the first run, when `position` is before it). */
  private runAt(position: number): number {
    const runs = this.runs;
    let low = 0;
    let high = runs.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      const run = runs[middle];
      if (run.start + run.oldRows.length <= position) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
