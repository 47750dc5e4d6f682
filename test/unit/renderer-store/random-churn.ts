// Random rounds of adds, updates and deletes for the renderer store's fuzz tests. A round changes
// `live` (the model the store is compared with) and goes to the mirror as one batch, the first as the
// list's replace, so model and store see exactly the same changes.
import { compareCells } from '../../../renderer/store/row-query';
import type { SubscriptionMirror } from '../../../renderer/store/subscription-mirror';
import type { Row } from '../../../shared/protocol/row';
import { deltaBatch } from '../bridge/fixtures';

export interface ChurnRound {
  readonly upserts: Map<string, Row>;
  readonly deletes: Set<string>;
}

export interface ChurnOptions {
  /** Keys drawn this round; a key drawn twice counts once. */
  readonly changes: number;
  /** The chance that a drawn key the model holds is deleted rather than updated. */
  readonly deleteChance: number;
  readonly newKey: () => string;
  readonly make: (key: string) => Row;
}

/** Draws one round and applies it to `live`. */
export function churnRound(random: () => number, live: Map<string, Row>, options: ChurnOptions): ChurnRound {
  const upserts = new Map<string, Row>();
  const deletes = new Set<string>();
  for (let change = 0; change < options.changes; change++) {
    const key = options.newKey();
    if (upserts.has(key) || deletes.has(key)) continue;
    if (live.has(key) && random() < options.deleteChance) deletes.add(key);
    else upserts.set(key, options.make(key));
  }
  for (const key of deletes) live.delete(key);
  for (const [key, each] of upserts) live.set(key, each);
  return { upserts, deletes };
}

/** Sends a round to the mirror as batch `seq`; batch 1 is the list's replace. */
export function applyRound(mirror: SubscriptionMirror, seq: number, round: ChurnRound): void {
  mirror.apply(
    deltaBatch(seq, {
      upserts: [...round.upserts.values()],
      deletes: [...round.deletes],
      ...(seq === 1 ? { replace: true, snapshotEnd: true } : {}),
    }),
  );
}

/** Keys in the views' default order: by name as the collator compares cells, then by key. */
export function keysByName(rows: Iterable<Row>): string[] {
  return [...rows]
    .sort((left, right) => compareCells(left.name, right.name) || (left.key < right.key ? -1 : 1))
    .map((each) => each.key);
}
