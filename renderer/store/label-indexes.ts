// The mirror's label indexes (label key -> label value -> row keys), fed by a log of label changes
// that each key's index replays when it is read. Applying a batch only appends (row key, old labels,
// new labels) for rows whose labels object was replaced: it never walks a label set. Walking the old
// row's labels (a cold object somewhere in a heap of 150k rows) and comparing them to the new ones cost
// as much as the rest of an update together (profiled in V8), and most label keys (pod-template-hash,
// a team label) are never filtered by. A key is compared only when its index is read, and only over
// the changes since its last read.
import type { Row } from '../../shared/protocol/row';
import type { ValueIndex } from './deferred-value-index';
import { erase, insert } from './deferred-value-index';

type Labels = Row['labels'];

/** One label key's index and how far into the log it has been brought. */
interface LabelIndex {
  readonly entries: ValueIndex;
  /** Log position (absolute) up to which `entries` has been brought. */
  cursor: number;
  /** The log was trimmed past `cursor`: `entries` is rebuilt from the rows on the next read. */
  stale: boolean;
}

export class LabelIndexes {
  private readonly indexes = new Map<string, LabelIndex>();
  /** What `all` returns: the label keys some row has, each with its (read) index. */
  private readonly nonEmpty = new Map<string, ValueIndex>();
  /** The log: row key, labels before, labels after (undefined: no row), one change per slot. */
  private keys: string[] = [];
  private olds: (Labels | undefined)[] = [];
  private news: (Labels | undefined)[] = [];
  /** Absolute position of the log's first slot; positions only grow. */
  private base = 0;
  /** Every label key of the rows as of this log position has an entry in `indexes`. */
  private discovered = 0;
  /** The log was trimmed past `discovered`: keys are found again by walking the rows. */
  private discoveryStale = false;

  /**
   * `rows` is the map the changes describe, always current: once the log holds more than
   * max(`pendingLimit`, half the rows) changes, indexes that have not read that far are rebuilt from
   * it when read, and the log is trimmed. Without it (indexes built by hand) the log is never trimmed.
   */
  constructor(
    private readonly rows: ReadonlyMap<string, Row> | undefined,
    private readonly pendingLimit: number,
  ) {}

  /** Row `key`'s labels went from `oldLabels` to `newLabels` (undefined: the row is absent). */
  record(key: string, oldLabels: Labels | undefined, newLabels: Labels | undefined): void {
    this.keys.push(key);
    this.olds.push(oldLabels);
    this.news.push(newLabels);
    if (this.rows && this.keys.length > Math.max(this.pendingLimit, this.rows.size >> 1)) this.trim();
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
   * has hundreds of keys, and completion asks for all of them on every keystroke.
   */
  all(): Map<string, ValueIndex> {
    this.discover();
    let from = this.end;
    for (const index of this.indexes.values()) if (!index.stale) from = Math.min(from, index.cursor);
    for (let slot = from - this.base; slot < this.keys.length; slot++) this.replayChange(slot);
    for (const index of this.indexes.values()) if (!index.stale) index.cursor = this.end;
    for (const [label, index] of this.indexes) this.catchUp(label, index);
    return this.nonEmpty;
  }

  clear(): void {
    this.indexes.clear();
    this.nonEmpty.clear();
    this.base += this.keys.length;
    this.keys = [];
    this.olds = [];
    this.news = [];
    this.discovered = this.base;
    this.discoveryStale = false;
  }

  private get end(): number {
    return this.base + this.keys.length;
  }

  /** Creates an (empty) index for every label key that appeared since the last discovery. */
  private discover(): void {
    if (this.discoveryStale) {
      for (const row of this.rows!.values())
        for (const label in row.labels) if (!this.indexes.has(label)) this.create(label, this.end, true);
    } else {
      for (let slot = this.discovered - this.base; slot < this.keys.length; slot++) {
        const labels = this.news[slot];
        if (labels === undefined) continue;
        // Empty until this change: no row had the label before it, or it would have been found then.
        for (const label in labels) if (!this.indexes.has(label)) this.create(label, this.base + slot, false);
      }
    }
    this.discovered = this.end;
    this.discoveryStale = false;
  }

  private create(label: string, cursor: number, stale: boolean): void {
    this.indexes.set(label, { entries: new Map(), cursor, stale });
  }

  private catchUp(label: string, index: LabelIndex): void {
    const entries = index.entries;
    if (index.stale) {
      entries.clear();
      this.rows!.forEach((row, key) => {
        const value = labelValue(row.labels, label);
        if (value !== undefined) insert(entries, value, key);
      });
    } else {
      for (let slot = index.cursor - this.base; slot < this.keys.length; slot++) {
        const oldLabels = this.olds[slot];
        const newLabels = this.news[slot];
        const oldValue = oldLabels === undefined ? undefined : labelValue(oldLabels, label);
        const newValue = newLabels === undefined ? undefined : labelValue(newLabels, label);
        if (oldValue === newValue) continue;
        const key = this.keys[slot];
        if (oldValue !== undefined) erase(entries, oldValue, key);
        if (newValue !== undefined) insert(entries, newValue, key);
      }
    }
    index.cursor = this.end;
    index.stale = false;
    if (entries.size === 0) this.nonEmpty.delete(label);
    else this.nonEmpty.set(label, entries);
  }

  /** Applies the change in `slot` to every label index that has not read that far. */
  private replayChange(slot: number): void {
    const position = this.base + slot;
    const key = this.keys[slot];
    const oldLabels = this.olds[slot];
    const newLabels = this.news[slot];
    if (newLabels !== undefined) {
      for (const label in newLabels) {
        const newValue = newLabels[label];
        const oldValue = oldLabels === undefined ? undefined : labelValue(oldLabels, label);
        if (oldValue !== newValue) this.move(label, position, key, oldValue, newValue);
      }
    }
    if (oldLabels !== undefined) {
      for (const label in oldLabels) {
        if (newLabels === undefined || labelValue(newLabels, label) === undefined)
          this.move(label, position, key, oldLabels[label], undefined);
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
    if (index === undefined || index.stale || index.cursor > position) return;
    if (oldValue !== undefined) erase(index.entries, oldValue, key);
    if (newValue !== undefined) insert(index.entries, newValue, key);
  }

  /**
   * Keeps the log at most half the rows long: indexes (and discovery) that have not read the latest
   * half of it become stale, so a key nobody filters by costs its rebuild once, on its next read, and
   * the log never retains more old label objects than that.
   */
  private trim(): void {
    const keep = this.end - (this.keys.length >> 1);
    let start = this.end;
    for (const index of this.indexes.values()) {
      if (index.stale) continue;
      if (index.cursor < keep) index.stale = true;
      else start = Math.min(start, index.cursor);
    }
    if (!this.discoveryStale && this.discovered < keep) this.discoveryStale = true;
    if (!this.discoveryStale) start = Math.min(start, this.discovered);
    const drop = start - this.base;
    this.keys = this.keys.slice(drop);
    this.olds = this.olds.slice(drop);
    this.news = this.news.slice(drop);
    this.base = start;
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
