// A travel's first moment, sent as its difference from a live mirror's rows (DeltaBatch.base), starts
// from a copy of those rows, and so can start from their name order too: the base's keys in name
// order, their names and their ranks as of the copy. The moment's order is then that order less the
// base's keys the snapshot deleted, plus the keys it added, placed among the rest: a pass over the
// base's keys and a copy of the order, where building it from the moment's rows (a merge of the
// base's order with the snapshot's, a Map lookup per key, every key ranked afresh) was the page's
// longest task after a travel's last byte (183-222 ms at 150,000 rows, session 16).
import type { Row } from '../../shared/protocol/row';
import { positionByName } from './named-keys';
import type { RankedKeys } from './ranked-placement';

/**
 * What a snapshot against a base hands its mirror's name order (see SubscriptionMirror): invariant,
 * the mirror's rows as of `position` (its change log's end then) are exactly the rows of `base.keys`
 * whose key is not in `changed`, plus those whose key is in `changed` and is in the rows; `inBase`
 * is the keys of `changed` that are in `base.keys`, with their names.
 */
export interface CarriedOrder {
  /** The base's keys in name order as of the copy, their names and ranks (the order's own copies). */
  readonly base: RankedKeys;
  /** Every key the snapshot upserted or deleted. */
  readonly changed: ReadonlySet<string>;
  readonly inBase: ReadonlyMap<string, string>;
  /** The mirror's change log position when the snapshot ended. */
  readonly position: number;
}

/**
 * The base's keys that left (their positions in `base.keys`, ascending) and the keys that arrived
 * (changed keys in `rows` that the base lacked), for `rows` as of `carried.position`. It costs the
 * changed keys, never a pass over the base's: at 150,000 keys a Set lookup for each was 100 ms.
 */
export function carriedChanges(
  carried: CarriedOrder,
  rows: ReadonlyMap<string, Row>,
): { leftPositions: number[]; arrived: string[] } {
  const { base, changed, inBase } = carried;
  const leftPositions: number[] = [];
  for (const [key, name] of inBase)
    if (!rows.has(key)) leftPositions.push(positionByName(base.keys, base.names, name, key));
  leftPositions.sort((first, second) => first - second);
  const arrived: string[] = [];
  for (const key of changed) if (!inBase.has(key) && rows.has(key)) arrived.push(key);
  return { leftPositions, arrived };
}
