// The mirror's indexes, kept like client-go's storeIndex.updateIndices(old, new, key) but deferred:
// applying a batch only records it in the mirror's RowChangeLog, and each index, and each label key,
// replays the changes since its last read when it is read (DeferredValueIndex, LabelIndexes),
// comparing old and new values so that an unchanged value is left alone. A frame pays only for the
// indexes its views filter by, and only for what changed. The filter bar's queries and completions
// start here.
import type { Row } from '../../shared/protocol/row';
import { DeferredValueIndex } from './deferred-value-index';
import type { IndexedField, ValueIndex } from './deferred-value-index';
import { LabelIndexes } from './label-indexes';
import { RowChangeLog } from './row-change-log';

export type { ValueIndex } from './deferred-value-index';

const namespaceField: IndexedField = {
  valuesOf: (row, emit) => emit(row.namespace),
  sameValues: (oldRow, newRow) => oldRow.namespace === newRow.namespace,
  fixedByKey: true,
};

const nodeField: IndexedField = {
  valuesOf: (row, emit) => {
    if (row.node !== undefined) emit(row.node);
  },
  sameValues: (oldRow, newRow) => oldRow.node === newRow.node,
};

const statusField: IndexedField = {
  valuesOf: (row, emit) => {
    if (row.status !== undefined) emit(row.status);
  },
  sameValues: (oldRow, newRow) => oldRow.status === newRow.status,
};

/** Owners are compared by their uid lists: a new owners array with the same uids changes nothing. */
const ownerUidField: IndexedField = {
  valuesOf: (row, emit) => {
    for (const owner of row.owners) emit(owner.uid);
  },
  sameValues: (oldRow, newRow) => oldRow.owners === newRow.owners || sameOwners(oldRow.owners, newRow.owners),
};

export class RowIndexes {
  private readonly namespaces: DeferredValueIndex;
  private readonly nodes: DeferredValueIndex;
  private readonly ownerUids: DeferredValueIndex;
  private readonly statuses: DeferredValueIndex;
  private readonly labels: LabelIndexes;

  /**
   * Indexes of the rows `changes` describes, created before its first change. Without one (indexes
   * built by hand), the indexes keep their own log, which `update` feeds and which is never trimmed.
   */
  constructor(private readonly changes: RowChangeLog = new RowChangeLog()) {
    this.namespaces = new DeferredValueIndex(changes, namespaceField);
    this.nodes = new DeferredValueIndex(changes, nodeField);
    this.ownerUids = new DeferredValueIndex(changes, ownerUidField);
    this.statuses = new DeferredValueIndex(changes, statusField);
    this.labels = new LabelIndexes(changes);
  }

  get byNamespace(): ValueIndex {
    return this.namespaces.read();
  }

  get byNode(): ValueIndex {
    return this.nodes.read();
  }

  get byOwnerUid(): ValueIndex {
    return this.ownerUids.read();
  }

  get byStatus(): ValueIndex {
    return this.statuses.read();
  }

  /** label key -> label value -> row keys. Brings every label key up to date; see labelValues. */
  get byLabel(): Map<string, ValueIndex> {
    return this.labels.all();
  }

  /**
   * One label key's index (value -> row keys), bringing only that key up to date; undefined if no row
   * has it.
   */
  labelValues(label: string): ValueIndex | undefined {
    return this.labels.values(label);
  }

  /**
   * Records one change by hand: row `key` went from `oldRow` to `newRow` (either may be absent). The
   * mirror records whole batches in its log instead; this is for indexes built row by row.
   */
  update(key: string, oldRow: Row | undefined, newRow: Row | undefined): void {
    if (newRow !== undefined) this.changes.recordUpserts([newRow], [oldRow]);
    else if (oldRow !== undefined) this.changes.recordDeletes([key], [oldRow]);
  }

  /** Forgets every entry and recorded change, as if no row had ever been indexed. */
  clear(): void {
    this.changes.clear();
    this.namespaces.clear();
    this.nodes.clear();
    this.ownerUids.clear();
    this.statuses.clear();
    this.labels.clear();
  }
}

function sameOwners(left: Row['owners'], right: Row['owners']): boolean {
  return left.length === right.length && left.every((owner, index) => owner.uid === right[index].uid);
}
