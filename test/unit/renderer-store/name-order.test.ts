import { describe, expect, it } from 'vitest';
import { compareCells } from '../../../renderer/store/compare-cells';
import { NameOrder, withoutNamed } from '../../../renderer/store/name-order';
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

  it('cuts a few departed keys out by name among many, as filtering them out would', () => {
    const random = seededRandom(5);
    const mirror = new SubscriptionMirror();
    const order = new NameOrder(mirror.rows, mirror.changes);
    const live = new Map<string, Row>();
    for (let index = 0; index < 2_000; index++) {
      const key = `${pick(random, ['a', 'b', 'c'])}/${pick(random, ['web', 'db', 'Web'])}-${index % 700}`;
      live.set(key, row(key));
    }
    mirror.apply(deltaBatch(1, { upserts: [...live.values()], replace: true, snapshotEnd: true }));
    expect(order.read()).toEqual(byName(live.values()));
    for (let seq = 2; seq < 30; seq++) {
      // Few deletes among 2,000 keys (found by binary search), including names shared across namespaces.
      const deletes = [...live.keys()].filter(() => random() < 0.002);
      for (const key of deletes) live.delete(key);
      mirror.apply(deltaBatch(seq, { deletes }));
      expect(order.read()).toEqual(byName(live.values()));
    }
  });

  it('withoutNamed gives up when a key is not where its name places it', () => {
    const names = new Map([
      ['a/x-1', 'x-1'],
      ['a/x-2', 'x-2'],
      ['a/x-3', 'x-3'],
    ]);
    const nameOf = (key: string) => names.get(key)!;
    const order = ['a/x-1', 'a/x-2', 'a/x-3', ...Array.from({ length: 60 }, (_, index) => `b/z-${index}`)];
    for (let index = 0; index < 60; index++) names.set(`b/z-${index}`, `z-${index}`);
    expect(withoutNamed(order, new Map([['a/x-2', 'x-2']]), nameOf)).toEqual(
      order.filter((key) => key !== 'a/x-2'),
    );
    expect(withoutNamed(order, new Map([['a/x-9', 'x-9']]), nameOf)).toBeUndefined();
  });
});
