import { describe, expect, it } from 'vitest';
import { compareCells } from '../../../renderer/store/compare-cells';
import { NameOrder } from '../../../renderer/store/name-order';
import { SubscriptionMirror } from '../../../renderer/store/subscription-mirror';
import type { Row } from '../../../shared/protocol/row';
import { deltaBatch, pick, row, seededRandom } from '../bridge/fixtures';

function byName(rows: Iterable<Row>): string[] {
  return [...rows]
    .sort((left, right) => compareCells(left.name, right.name) || (left.key < right.key ? -1 : 1))
    .map((each) => each.key);
}

/** Applies `rounds` random batches of adds, updates and deletes, reading `order` every `readEvery` rounds. */
function churn(options: { pendingLimit?: number; readEvery: number; changesPerRound: number }): void {
  const random = seededRandom(11);
  const mirror = new SubscriptionMirror(0, options.pendingLimit);
  const order = new NameOrder(mirror.rows, mirror.changes);
  const live = new Map<string, Row>();
  for (let seq = 1; seq <= 80; seq++) {
    const upserts = new Map<string, Row>();
    const deletes = new Set<string>();
    for (let change = 0; change < options.changesPerRound; change++) {
      // Names with numbers and mixed segments: the order is the collator's numeric one, not code points.
      const key = `${pick(random, ['a', 'b'])}/${pick(random, ['web', 'db', 'Web'])}-${Math.floor(random() * 60)}`;
      if (upserts.has(key) || deletes.has(key)) continue;
      if (live.has(key) && random() < 0.45) deletes.add(key);
      else upserts.set(key, row(key, String(seq)));
    }
    for (const key of deletes) live.delete(key);
    for (const [key, each] of upserts) live.set(key, each);
    mirror.apply(
      deltaBatch(seq, {
        upserts: [...upserts.values()],
        deletes: [...deletes],
        ...(seq === 1 ? { replace: true, snapshotEnd: true } : {}),
      }),
    );
    if (seq % options.readEvery === 0) expect(order.read()).toEqual(byName(live.values()));
  }
}

describe('NameOrder', () => {
  it('follows keys coming and going, read after every batch', () => {
    churn({ readEvery: 1, changesPerRound: 6 });
  });

  it('drops a key added and deleted again between two reads, and keeps one deleted and added again', () => {
    churn({ readEvery: 5, changesPerRound: 30 });
  });

  it('rebuilds from the rows when the log dropped changes it had not read', () => {
    churn({ readEvery: 7, changesPerRound: 30, pendingLimit: 16 });
  });

  it('returns the same array while no key came or went, whatever was updated', () => {
    const mirror = new SubscriptionMirror();
    const order = new NameOrder(mirror.rows, mirror.changes);
    mirror.apply(deltaBatch(1, { upserts: [row('a/x-2'), row('a/x-10')], replace: true, snapshotEnd: true }));
    const first = order.read();
    expect(first).toEqual(['a/x-2', 'a/x-10']);
    mirror.apply(deltaBatch(2, { upserts: [row('a/x-2', '2')] }));
    expect(order.read()).toBe(first);
    mirror.apply(deltaBatch(3, { upserts: [row('a/x-3')] }));
    expect(order.read()).toEqual(['a/x-2', 'a/x-3', 'a/x-10']);
    expect(first).toEqual(['a/x-2', 'a/x-10']);
  });
});
