// The mirror's indexes, maintained per change like client-go's storeIndex.updateIndices(old, new, key):
// each upsert or delete records only the index values that differ between the row's old and new
// version, so a batch costs what it changed, never a rescan of 150k rows. Each index, and each label
// key, applies its changes when it is read (DeferredValueIndex, LabelIndexes): a frame pays only for
// the indexes its views filter by. The filter bar's queries and completions start here.
import type { Row } from '../../shared/protocol/row';
import { DeferredValueIndex } from './deferred-value-index';
import type { IndexedValues, ValueIndex } from './deferred-value-index';
import { LabelIndexes } from './label-indexes';

export type { ValueIndex } from './deferred-value-index';

/** Below this many changes an unread index keeps them however few rows there are (see IndexSource). */
const defaultPendingLimit = 4096;

const noOwners: Row['owners'] = [];

export class RowIndexes {
  private readonly namespaces: DeferredValueIndex;
  private readonly nodes: DeferredValueIndex;
  private readonly ownerUids: DeferredValueIndex;
  private readonly statuses: DeferredValueIndex;
  private readonly labels: LabelIndexes;

  /**
   * `rows` is the map the updates describe, always current: an index that went unread through too
   * many changes is rebuilt from it. Without it (indexes built by hand), every change is kept.
   */
  constructor(
    private readonly rows?: ReadonlyMap<string, Row>,
    private readonly pendingLimit = defaultPendingLimit,
  ) {
    this.namespaces = this.deferredIndex((row, emit) => emit(row.namespace));
    this.nodes = this.deferredIndex((row, emit) => {
      if (row.node !== undefined) emit(row.node);
    });
    this.ownerUids = this.deferredIndex((row, emit) => {
      for (const owner of row.owners) emit(owner.uid);
    });
    this.statuses = this.deferredIndex((row, emit) => {
      if (row.status !== undefined) emit(row.status);
    });
    this.labels = new LabelIndexes(rows, pendingLimit);
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
   * Moves `key` from the entries of `oldRow` to those of `newRow`; either may be absent. Like
   * client-go's updateIndices, an index whose value did not change is left alone: most updates (a
   * status or restart count moving) record nothing for most indexes. A replaced labels object is
   * logged, not walked (see LabelIndexes). Nothing is allocated per row.
   */
  update(key: string, oldRow: Row | undefined, newRow: Row | undefined): void {
    move(this.namespaces, key, oldRow?.namespace, newRow?.namespace);
    move(this.nodes, key, oldRow?.node, newRow?.node);
    move(this.statuses, key, oldRow?.status, newRow?.status);
    const oldOwners = oldRow?.owners ?? noOwners;
    const newOwners = newRow?.owners ?? noOwners;
    if (oldOwners !== newOwners && !sameOwners(oldOwners, newOwners)) {
      for (const owner of oldOwners) this.ownerUids.change(key, owner.uid, undefined);
      for (const owner of newOwners) this.ownerUids.change(key, undefined, owner.uid);
    }
    if (oldRow?.labels !== newRow?.labels) this.labels.record(key, oldRow?.labels, newRow?.labels);
  }

  clear(): void {
    this.namespaces.clear();
    this.nodes.clear();
    this.ownerUids.clear();
    this.statuses.clear();
    this.labels.clear();
  }

  private deferredIndex(valuesOf: IndexedValues): DeferredValueIndex {
    const rows = this.rows;
    return new DeferredValueIndex(rows && { rows, valuesOf, pendingLimit: this.pendingLimit });
  }
}

function move(
  index: DeferredValueIndex,
  key: string,
  oldValue: string | undefined,
  newValue: string | undefined,
): void {
  if (oldValue !== newValue) index.change(key, oldValue, newValue);
}

function sameOwners(left: Row['owners'], right: Row['owners']): boolean {
  return left.length === right.length && left.every((owner, index) => owner.uid === right[index].uid);
}
