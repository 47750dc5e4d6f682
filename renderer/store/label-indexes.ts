// The mirror's label indexes (label key -> label value -> row keys), each brought up to date from the
// mirror's RowChangeLog when it is read. Applying a batch never walks a label set: walking the old
// row's labels (a cold object somewhere in a heap of 150k rows) and comparing them to the new ones cost
// as much as the rest of an update together (profiled in V8), and most label keys (pod-template-hash,
// a team label) are never filtered by. A key is compared only when its index is read, and only over
// the changes since its last read; a change that kept the labels object is skipped unread.
import type { Row } from '../../shared/protocol/row';
import type { ValueIndex } from './deferred-value-index';
import { erase, insert } from './deferred-value-index';
import type { LogCursor, RowChangeLog } from './row-change-log';

type Labels = Row['labels'];

/** One label key's index and how far into the log it has been brought. */
interface LabelIndex {
  readonly entries: ValueIndex;
  /** Changes before it are in `entries`; a position the log no longer covers means "rebuild". */
  readonly cursor: LogCursor;
}

export class LabelIndexes {
  private readonly indexes = new Map<string, LabelIndex>();
  /** What `all` returns: the label keys some row has, each with its (read) index. */
  private readonly nonEmpty = new Map<string, ValueIndex>();
  /**
   * Every label key of the rows as of this position has an entry in `indexes`; when the log no
   * longer covers it, keys are found again by walking the rows.
   */
  private readonly discovered: LogCursor;

  constructor(private readonly changes: RowChangeLog) {
    this.discovered = changes.follow(0);
  }

  /** One label key's index as of now; undefined if no row has that label. */
  values(label: string): ValueIndex | undefined {
    let index = this.indexes.get(label);
    if (!index) {
      this.discover();
      index = this.indexes.get(label);
      if (!index) return undefined;
    }
    this.catchUp(label, index);
    return index.entries.size === 0 ? undefined : index.entries;
  }

  /**
   * Every label key's index as of now; the same Map on every call, holding no empty index. The log is
   * walked once, each change's label sets compared in full, rather than once per label key: a cluster
   * has hundreds of keys, and completion asks for all of them on every keystroke. Keys the log no
   * longer covers are rebuilt together in one walk of the rows.
   */
  all(): Map<string, ValueIndex> {
    this.discover();
    const changes = this.changes;
    const end = changes.end;
    let from = end;
    const stale = new Map<string, ValueIndex>();
    for (const [label, index] of this.indexes) {
      if (!changes.covers(index.cursor)) stale.set(label, index.entries);
      else from = Math.min(from, index.cursor.position);
    }
    if (from < end)
      changes.forEachSince(from, (key, oldRow, newRow, position) =>
        this.replayChange(key, oldRow, newRow, position),
      );
    if (stale.size > 0) this.rebuild(stale);
    for (const [label, index] of this.indexes) {
      index.cursor.position = end;
      this.publish(label, index.entries);
    }
    return this.nonEmpty;
  }

  /** Forgets every label key; only changes from now on are indexed. */
  clear(): void {
    for (const index of this.indexes.values()) this.changes.release(index.cursor);
    this.indexes.clear();
    this.nonEmpty.clear();
    this.discovered.position = this.changes.end;
  }

  /** Creates an (empty) index for every label key that appeared since the last discovery. */
  private discover(): void {
    const changes = this.changes;
    if (!changes.covers(this.discovered)) {
      for (const row of changes.rows!.values())
        for (const label in row.labels) if (!this.indexes.has(label)) this.create(label, -1);
    } else if (this.discovered.position < changes.end) {
      changes.forEachSince(this.discovered.position, (_key, oldRow, newRow, position) => {
        if (newRow === undefined || newRow.labels === oldRow?.labels) return;
        // Empty until this change: no row had the label before it, or it would have been found then.
        for (const label in newRow.labels) if (!this.indexes.has(label)) this.create(label, position);
      });
    }
    this.discovered.position = changes.end;
  }

  private create(label: string, position: number): void {
    this.indexes.set(label, { entries: new Map(), cursor: this.changes.follow(position) });
  }

  private catchUp(label: string, index: LabelIndex): void {
    const changes = this.changes;
    const end = changes.end;
    if (index.cursor.position === end) return;
    const entries = index.entries;
    if (!changes.covers(index.cursor)) {
      this.rebuild(new Map([[label, entries]]));
    } else {
      changes.forEachRunSince(index.cursor.position, ({ oldRows, newRows, keys }, from) => {
        if (newRows === undefined) {
          for (let slot = from; slot < oldRows.length; slot++) {
            const oldValue = labelValue(oldRows[slot]!.labels, label);
            if (oldValue !== undefined) erase(entries, oldValue, keys![slot]);
          }
          return;
        }
        for (let slot = from; slot < oldRows.length; slot++) {
          const newRow = newRows[slot];
          const oldLabels = oldRows[slot]?.labels;
          if (oldLabels === newRow.labels) continue;
          const oldValue = oldLabels === undefined ? undefined : labelValue(oldLabels, label);
          const newValue = labelValue(newRow.labels, label);
          if (oldValue === newValue) continue;
          if (oldValue !== undefined) erase(entries, oldValue, newRow.key);
          if (newValue !== undefined) insert(entries, newValue, newRow.key);
        }
      });
    }
    index.cursor.position = end;
    this.publish(label, entries);
  }

  /** Refills the indexes of `stale` (label -> entries) from the rows, in one walk. */
  private rebuild(stale: Map<string, ValueIndex>): void {
    for (const entries of stale.values()) entries.clear();
    this.changes.rows!.forEach((row, key) => {
      const labels = row.labels;
      for (const label in labels) {
        const entries = stale.get(label);
        const value = labelValue(labels, label);
        if (entries !== undefined && value !== undefined) insert(entries, value, key);
      }
    });
  }

  /** Applies one change to every label index that has not read that far. */
  private replayChange(
    key: string,
    oldRow: Row | undefined,
    newRow: Row | undefined,
    position: number,
  ): void {
    const oldLabels = oldRow?.labels;
    const newLabels = newRow?.labels;
    if (oldLabels === newLabels) return;
    if (newLabels !== undefined) {
      for (const label in newLabels) {
        const newValue = labelValue(newLabels, label);
        const oldValue = oldLabels === undefined ? undefined : labelValue(oldLabels, label);
        if (oldValue !== newValue) this.move(label, position, key, oldValue, newValue);
      }
    }
    if (oldLabels !== undefined) {
      for (const label in oldLabels) {
        if (newLabels === undefined || labelValue(newLabels, label) === undefined)
          this.move(label, position, key, labelValue(oldLabels, label), undefined);
      }
    }
  }

  private move(
    label: string,
    position: number,
    key: string,
    oldValue: string | undefined,
    newValue: string | undefined,
  ): void {
    const index = this.indexes.get(label);
    if (index === undefined || index.cursor.position > position || !this.changes.covers(index.cursor)) return;
    if (oldValue !== undefined) erase(index.entries, oldValue, key);
    if (newValue !== undefined) insert(index.entries, newValue, key);
  }

  private publish(label: string, entries: ValueIndex): void {
    if (entries.size === 0) this.nonEmpty.delete(label);
    else this.nonEmpty.set(label, entries);
  }
}

/**
 * The value of `label`, or undefined when the labels have no such label: values are strings, so a
 * read that is not a string is an absent label (or an Object.prototype member such as "constructor").
 */
function labelValue(labels: Labels, label: string): string | undefined {
  const value: unknown = labels[label];
  return typeof value === 'string' ? value : undefined;
}
