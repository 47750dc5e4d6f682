// The mirror's indexes, maintained per change like client-go's storeIndex.updateIndices(old, new, key):
// each upsert or delete touches only the index entries of that one row, so a batch costs what it
// changed, never a rescan of 150k rows. The filter bar's queries and completions start here.
import type { Row } from '../../shared/protocol/row';

/** value -> keys of the rows that have it. Empty sets are removed, so sizes are live counts. */
export type ValueIndex = Map<string, Set<string>>;

export class RowIndexes {
  readonly byNamespace: ValueIndex = new Map();
  /** label key -> label value -> row keys. */
  readonly byLabel = new Map<string, ValueIndex>();
  readonly byNode: ValueIndex = new Map();
  readonly byOwnerUid: ValueIndex = new Map();
  readonly byStatus: ValueIndex = new Map();

  /**
   * Moves `key` from the entries of `oldRow` to those of `newRow`; either may be absent. Like
   * client-go's updateIndices, an index whose value did not change is left alone: most updates (a
   * status or restart count moving) touch no index at all, and a Set of 150k keys is never made to
   * delete and re-add the same key (which leaves a hole and forces periodic rehashing of the table).
   */
  update(key: string, oldRow: Row | undefined, newRow: Row | undefined): void {
    if (!oldRow || !newRow) {
      if (oldRow) this.remove(key, oldRow);
      if (newRow) this.add(key, newRow);
      return;
    }
    move(this.byNamespace, key, oldRow.namespace, newRow.namespace);
    move(this.byNode, key, oldRow.node, newRow.node);
    move(this.byStatus, key, oldRow.status, newRow.status);
    if (oldRow.labels !== newRow.labels) this.moveLabels(key, oldRow.labels, newRow.labels);
    if (oldRow.owners !== newRow.owners && !sameOwners(oldRow.owners, newRow.owners)) {
      for (const owner of oldRow.owners) erase(this.byOwnerUid, owner.uid, key);
      for (const owner of newRow.owners) insert(this.byOwnerUid, owner.uid, key);
    }
  }

  clear(): void {
    this.byNamespace.clear();
    this.byLabel.clear();
    this.byNode.clear();
    this.byOwnerUid.clear();
    this.byStatus.clear();
  }

  private moveLabels(key: string, oldLabels: Row['labels'], newLabels: Row['labels']): void {
    for (const [label, value] of Object.entries(oldLabels)) {
      if (newLabels[label] === value) continue;
      const values = this.byLabel.get(label);
      if (!values) continue;
      erase(values, value, key);
      if (values.size === 0) this.byLabel.delete(label);
    }
    for (const [label, value] of Object.entries(newLabels)) {
      if (oldLabels[label] === value) continue;
      let values = this.byLabel.get(label);
      if (!values) this.byLabel.set(label, (values = new Map()));
      insert(values, value, key);
    }
  }

  private add(key: string, row: Row): void {
    insert(this.byNamespace, row.namespace, key);
    for (const [label, value] of Object.entries(row.labels)) {
      let values = this.byLabel.get(label);
      if (!values) this.byLabel.set(label, (values = new Map()));
      insert(values, value, key);
    }
    if (row.node !== undefined) insert(this.byNode, row.node, key);
    for (const owner of row.owners) insert(this.byOwnerUid, owner.uid, key);
    if (row.status !== undefined) insert(this.byStatus, row.status, key);
  }

  private remove(key: string, row: Row): void {
    erase(this.byNamespace, row.namespace, key);
    for (const [label, value] of Object.entries(row.labels)) {
      const values = this.byLabel.get(label);
      if (!values) continue;
      erase(values, value, key);
      if (values.size === 0) this.byLabel.delete(label);
    }
    if (row.node !== undefined) erase(this.byNode, row.node, key);
    for (const owner of row.owners) erase(this.byOwnerUid, owner.uid, key);
    if (row.status !== undefined) erase(this.byStatus, row.status, key);
  }
}

function insert(index: ValueIndex, value: string, key: string): void {
  let keys = index.get(value);
  if (!keys) index.set(value, (keys = new Set()));
  keys.add(key);
}

function erase(index: ValueIndex, value: string, key: string): void {
  const keys = index.get(value);
  if (!keys) return;
  keys.delete(key);
  if (keys.size === 0) index.delete(value);
}

function move(
  index: ValueIndex,
  key: string,
  oldValue: string | undefined,
  newValue: string | undefined,
): void {
  if (oldValue === newValue) return;
  if (oldValue !== undefined) erase(index, oldValue, key);
  if (newValue !== undefined) insert(index, newValue, key);
}

function sameOwners(left: Row['owners'], right: Row['owners']): boolean {
  return left.length === right.length && left.every((owner, index) => owner.uid === right[index].uid);
}
