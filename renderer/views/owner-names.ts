// owner= in the filter bar names an owner ("web-7c9d8"); rows index owners by uid. These helpers go
// from names to uids through the owner index itself, so they cost one step per distinct owner, never
// one per row.
import type { ValueIndex } from '../store/row-indexes';
import type { SubscriptionMirror } from '../store/subscription-mirror';

/** owner name -> keys of the rows it owns, built from the owner-uid index. */
export function ownerNameIndex(mirror: SubscriptionMirror): ValueIndex {
  const byName: ValueIndex = new Map();
  for (const [uid, keys] of mirror.indexes.byOwnerUid) {
    const first = keys.values().next().value;
    const name =
      first === undefined
        ? undefined
        : mirror.rows.get(first)?.owners.find((owner) => owner.uid === uid)?.name;
    if (name === undefined) continue;
    const existing = byName.get(name);
    if (!existing) byName.set(name, keys);
    else byName.set(name, new Set([...existing, ...keys]));
  }
  return byName;
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
