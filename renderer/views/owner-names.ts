// owner= in the filter bar names an owner ("web-7c9d8", or the Deployment "web" above it); rows index
// owners by uid. These helpers go from names to uids through the owner index itself, so they cost one
// step per distinct owner, never one per row, and a keystroke never scans the rows.
import type { Row } from '../../shared/protocol';
import type { RowFilter, RowSort } from '../store/row-query';
import { compareCells } from '../store/row-query';
import type { SubscriptionMirror } from '../store/subscription-mirror';
import type { SortedOrder } from './sorted-order';
import { orderedQuery } from './sorted-order';

/** The name an owner uid goes by, read from the first row (of `mirror`) it owns. */
function ownerName(mirror: SubscriptionMirror, uid: string, keys: ReadonlySet<string>): string | undefined {
  const first = keys.values().next().value;
  return first === undefined
    ? undefined
    : mirror.rows.get(first)?.owners.find((owner) => owner.uid === uid)?.name;
}

/**
 * owner name -> how many rows owner=name matches, for completion: the rows each owner owns, plus,
 * with `through` (ReplicaSets), the rows of the ReplicaSets a Deployment owns under the Deployment's
 * name. One step per distinct owner and per ReplicaSet; no row is visited.
 */
export function ownerNameCounts(
  mirror: SubscriptionMirror,
  through?: SubscriptionMirror,
): Map<string, { size: number }> {
  const counts = new Map<string, { size: number }>();
  const add = (name: string | undefined, size: number) => {
    if (name === undefined || size === 0) return;
    const entry = counts.get(name);
    if (entry) entry.size += size;
    else counts.set(name, { size });
  };
  const owned = mirror.indexes.byOwnerUid;
  for (const [uid, keys] of owned) add(ownerName(mirror, uid, keys), keys.size);
  if (through)
    for (const [uid, keys] of through.indexes.byOwnerUid) {
      let size = 0;
      for (const key of keys) size += owned.get(through.rows.get(key)?.uid ?? '')?.size ?? 0;
      add(ownerName(through, uid, keys), size);
    }
  return counts;
}

/** The uids of the owners called `name` (several when the name repeats across namespaces). */
export function ownerUidsNamed(mirror: SubscriptionMirror, name: string): string[] {
  const uids: string[] = [];
  for (const [uid, keys] of mirror.indexes.byOwnerUid) {
    const first = keys.values().next().value;
    if (first === undefined) continue;
    if (mirror.rows.get(first)?.owners.some((owner) => owner.uid === uid && owner.name === name))
      uids.push(uid);
  }
  return uids;
}

/**
 * The uids of `through`'s rows (ReplicaSets) whose owner is called `name` (their Deployment). Pods
 * point only at their ReplicaSet, so these are the uids `owner=web` must also look for. One step per
 * distinct owner in `through`, plus one per row the matching owners own.
 */
export function ownedUidsThrough(through: SubscriptionMirror, name: string): string[] {
  const uids: string[] = [];
  for (const ownerUid of ownerUidsNamed(through, name))
    for (const key of through.indexes.byOwnerUid.get(ownerUid) ?? []) {
      const row = through.rows.get(key);
      if (row) uids.push(row.uid);
    }
  return uids;
}

/**
 * The keys of `mirror`'s rows matching `filter` and owned by an owner called `owner`, directly or,
 * when `through` mirrors the intermediate kind, through one of its rows (Pod -> ReplicaSet ->
 * Deployment), in `sort` order.
 */
export function ownerQuery(
  mirror: SubscriptionMirror,
  owner: string,
  filter: RowFilter,
  sort: RowSort,
  order: SortedOrder,
  through?: SubscriptionMirror,
): readonly string[] {
  const uids = new Set(ownerUidsNamed(mirror, owner));
  if (through) for (const uid of ownedUidsThrough(through, owner)) uids.add(uid);
  if (uids.size <= 1)
    return orderedQuery(mirror, { ...filter, ownerUid: [...uids][0] ?? '\u0000none' }, sort, order);
  const merged = new Set(
    [...uids].flatMap((ownerUid) => orderedQuery(mirror, { ...filter, ownerUid }, sort, order)),
  );
  const value = (row: Row | undefined) =>
    typeof sort.column === 'number' ? row?.cells[sort.column] : row?.[sort.column as 'name'];
  return [...merged].sort(
    (left, right) =>
      compareCells(value(mirror.rows.get(left)), value(mirror.rows.get(right))) * (sort.descending ? -1 : 1),
  );
}
