import { describe, expect, it, vi } from 'vitest';
import { keysReturned, leaseKeys, returnKeys } from '../../../renderer/store/key-leases';
import { NameOrder } from '../../../renderer/store/name-order';
import { SubscriptionMirror } from '../../../renderer/store/subscription-mirror';
import type { Row } from '../../../shared/protocol/row';
import { deltaBatch, pick, row, seededRandom } from '../bridge/fixtures';
import { applyRound, churnRound, keysByName } from './random-churn';

/** Applies `rounds` random batches of adds, updates and deletes, reading `order` every `readEvery` rounds. */
function churn(options: { pendingLimit?: number; readEvery: number; changesPerRound: number }): void {
  const random = seededRandom(11);
  const mirror = new SubscriptionMirror(0, options.pendingLimit);
  const order = new NameOrder(mirror.rows, mirror.changes);
  const live = new Map<string, Row>();
  for (let seq = 1; seq <= 80; seq++) {
    const round = churnRound(random, live, {
      changes: options.changesPerRound,
      deleteChance: 0.45,
      // Names with numbers and mixed segments: the order is the collator's numeric one, not code points.
      newKey: () =>
        `${pick(random, ['a', 'b'])}/${pick(random, ['web', 'db', 'Web'])}-${Math.floor(random() * 60)}`,
      make: (key) => row(key, String(seq)),
    });
    applyRound(mirror, seq, round);
    if (seq % options.readEvery === 0) expect(order.read()).toEqual(keysByName(live.values()));
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
    expect(order.read()).toEqual(keysByName(live.values()));
    for (let seq = 2; seq < 30; seq++) {
      // Few deletes among 2,000 keys (found by binary search), including names shared across namespaces.
      const deletes = [...live.keys()].filter(() => random() < 0.002);
      for (const key of deletes) live.delete(key);
      mirror.apply(deltaBatch(seq, { deletes }));
      expect(order.read()).toEqual(keysByName(live.values()));
    }
  });

  it('sorts, cuts and merges subsets by rank exactly as by name, under churn that adds and deletes', () => {
    const random = seededRandom(17);
    const mirror = new SubscriptionMirror();
    const order = new NameOrder(mirror.rows, mirror.changes);
    const live = new Map<string, Row>();
    const newKey = () =>
      `${pick(random, ['a', 'b'])}/${pick(random, ['web', 'db', 'Web', 'web-1'])}-${Math.floor(random() * 400)}`;
    for (let index = 0; index < 600; index++) {
      const key = newKey();
      live.set(key, row(key));
    }
    mirror.apply(deltaBatch(1, { upserts: [...live.values()], replace: true, snapshotEnd: true }));
    for (let seq = 2; seq < 60; seq++) {
      const deletes = [...live.keys()].filter(() => random() < 0.02);
      for (const key of deletes) live.delete(key);
      const upserts: Row[] = [];
      for (let index = 0; index < 12; index++) {
        const key = newKey();
        if (live.has(key)) continue;
        live.set(key, row(key));
        upserts.push(row(key));
      }
      mirror.apply(deltaBatch(seq, { upserts, deletes }));
      const all = order.read();
      expect(all).toEqual(keysByName(live.values()));
      const subset = [...live.keys()].filter(() => random() < 0.3);
      const chosen = new Set(subset);
      expect(order.sorted(subset)).toEqual(all.filter((key) => chosen.has(key)));
      const rest = [...live.keys()].filter((key) => !chosen.has(key) && random() < 0.5);
      expect(order.without([chosen, new Set(rest), new Set(['c/gone'])])).toEqual(
        all.filter((key) => !chosen.has(key) && !rest.includes(key)),
      );
      const ordered = order.sorted(subset);
      expect(order.withAdded(ordered, rest)).toEqual(
        all.filter((key) => chosen.has(key) || rest.includes(key)),
      );
    }
  });

  it('places arrivals beside keys that left in the same read, and a key that left and came back', () => {
    const mirror = new SubscriptionMirror();
    const order = new NameOrder(mirror.rows, mirror.changes);
    const keys = ['a/x-1', 'a/x-3', 'a/x-5', 'a/x-7', 'a/x-9'];
    mirror.apply(deltaBatch(1, { upserts: keys.map((key) => row(key)), replace: true, snapshotEnd: true }));
    const before = order.read();
    // x-3 and x-5 leave; x-4 lands between them, x-2 just before one that left, x-6 just after one;
    // x-7 leaves and comes back; x-0 and x-10 land at both ends.
    mirror.apply(deltaBatch(2, { deletes: ['a/x-3', 'a/x-5', 'a/x-7'] }));
    mirror.apply(
      deltaBatch(3, {
        upserts: ['a/x-4', 'a/x-2', 'a/x-6', 'a/x-7', 'a/x-0', 'a/x-10'].map((key) => row(key)),
      }),
    );
    const after = order.read();
    const expected = ['a/x-0', 'a/x-1', 'a/x-2', 'a/x-4', 'a/x-6', 'a/x-7', 'a/x-9', 'a/x-10'];
    expect(after).toEqual(expected);
    expect(before).toEqual(keys);
    // The ranks order the keys as their names do: sorting any subset by rank gives name order.
    expect(order.sorted([...expected].reverse())).toEqual(expected);
    expect(order.without([new Set(['a/x-7', 'a/x-0'])])).toEqual(
      expected.filter((key) => key !== 'a/x-7' && key !== 'a/x-0'),
    );
  });

  it('places a listing that arrives in large interleaving batches, read between them, by name and rank', () => {
    const random = seededRandom(23);
    const mirror = new SubscriptionMirror();
    const order = new NameOrder(mirror.rows, mirror.changes);
    const live = new Map<string, Row>();
    const listed: Row[] = [];
    for (let index = 0; index < 3_000; index++) {
      // Listed by key (namespace, then name), so each batch spreads over the whole name order.
      const key = `${pick(random, ['a', 'b', 'c'])}/${pick(random, ['web', 'db', 'api-2'])}-${Math.floor(random() * 4_500)}-x`;
      if (!live.has(key)) live.set(key, row(key));
    }
    listed.push(...[...live.values()].sort((left, right) => (left.key < right.key ? -1 : 1)));
    const seen = new Map<string, Row>();
    let seq = 1;
    for (let from = 0; from < listed.length; seq++) {
      // Batches of a few to thousands of rows: some are placed among many, some outnumber what is kept.
      const size = Math.floor(random() * (seq % 2 === 0 ? 40 : 2_500)) + 1;
      const upserts = listed.slice(from, from + size);
      from += size;
      for (const each of upserts) seen.set(each.key, each);
      mirror.apply(deltaBatch(seq, { upserts, ...(seq === 1 ? { replace: true } : {}) }));
      const all = order.read();
      expect(all).toEqual(keysByName(seen.values()));
      const subset = all.filter(() => random() < 0.1);
      expect(order.sorted([...subset].reverse())).toEqual(subset);
    }
  });

  it("builds a landing of most of its rows again from the snapshot's order, writing no rank per row", () => {
    const random = seededRandom(29);
    // A replay's mirror (whole snapshots) whose log keeps 16 changes: a moment of thousands of rows
    // sent against the few it held overflows it, as a playback's jump to a listing's end does.
    const mirror = new SubscriptionMirror(0, 16, { wholeSnapshots: true });
    const order = new NameOrder(
      mirror.rows,
      mirror.changes,
      () => mirror.takeSnapshotOrder(),
      () => mirror.takeCarriedOrder(),
    );
    const newKey = () =>
      `${pick(random, ['a', 'b'])}/${pick(random, ['web', 'db', 'Web'])}-${Math.floor(random() * 9_000)}`;
    const few = new Map<string, Row>();
    while (few.size < 100) few.set(newKey(), row(newKey()));
    const firstRows = [...few.keys()].map((key) => row(key));
    mirror.apply(deltaBatch(1, { upserts: firstRows, replace: true, snapshotEnd: true }));
    const before = order.read();
    const beforeCopy = [...before];
    // A ranked query built the key -> rank Map, which placing arrivals one by one would write into.
    expect(order.sorted([before[7], before[3]])).toEqual([before[3], before[7]]);
    const landed = new Map<string, Row>();
    for (const key of [...few.keys()].slice(0, 60)) landed.set(key, row(key, '2'));
    while (landed.size < 5_000) {
      const key = newKey();
      landed.set(key, row(key, '2'));
    }
    const rows = [...landed.values()];
    for (let from = 0, seq = 2; from < rows.length; from += 1_000, seq++)
      mirror.apply(
        deltaBatch(seq, {
          upserts: rows.slice(from, from + 1_000),
          replace: from === 0,
          snapshotEnd: from + 1_000 >= rows.length,
        }),
      );
    const set = vi.spyOn(Map.prototype, 'set');
    let all: readonly string[];
    try {
      all = order.read();
      expect(set.mock.calls.length).toBe(0);
    } finally {
      set.mockRestore();
    }
    expect(all).toEqual(keysByName(landed.values()));
    expect(before).toEqual(beforeCopy);
    // Ranked afresh: subsets still sort, and cut, by rank as by name.
    const subset = all.filter(() => random() < 0.05);
    expect(order.sorted([...subset].reverse())).toEqual(subset);
    expect(order.without([new Set(subset)])).toEqual(all.filter((key) => !subset.includes(key)));
  });

  it('answers "leave nothing out" with the kept order itself, not a copy', () => {
    const mirror = new SubscriptionMirror();
    const order = new NameOrder(mirror.rows, mirror.changes);
    mirror.apply(deltaBatch(1, { upserts: [row('a/x-2'), row('a/x-1')], replace: true, snapshotEnd: true }));
    const all = order.read();
    expect(order.without([])).toBe(all);
    expect(order.without([new Set(['c/absent'])])).toBe(all);
    expect(order.without([new Set(['a/x-1'])])).toEqual(['a/x-2']);
    expect(all).toEqual(['a/x-1', 'a/x-2']);
  });

  it('ranks every key again when arrivals use up the room between two neighbours', () => {
    const mirror = new SubscriptionMirror();
    const order = new NameOrder(mirror.rows, mirror.changes);
    mirror.apply(deltaBatch(1, { upserts: [row('a/x-1'), row('a/x-9')], replace: true, snapshotEnd: true }));
    order.read();
    // Each arrival, read on its own, lands just above the last one, in the same gap: halved 40
    // times, it runs out.
    const names = Array.from({ length: 40 }, (_, index) => `a/x-1-${String(index).padStart(2, '0')}`);
    names.forEach((key, index) => {
      mirror.apply(deltaBatch(index + 2, { upserts: [row(key)] }));
      order.read();
    });
    const all = order.read();
    expect(all).toEqual(['a/x-1', ...names, 'a/x-9']);
    expect(order.sorted([...all].reverse())).toEqual(all);
  });

  it('ranks again only the crowded gap when arrivals use it up, keeping its key -> rank Map', () => {
    const mirror = new SubscriptionMirror();
    const order = new NameOrder(mirror.rows, mirror.changes);
    const kept = Array.from({ length: 5_000 }, (_, index) => `a/x-${String(index).padStart(5, '0')}`);
    mirror.apply(deltaBatch(1, { upserts: kept.map((key) => row(key)), replace: true, snapshotEnd: true }));
    order.read();
    // A ranked query builds the key -> rank Map (5,000 writes), as a typed filter does.
    expect(order.sorted([kept[3], kept[1]])).toEqual([kept[1], kept[3]]);
    // A new ReplicaSet's pods, one a read, all in the gap after a/x-02500: halved at each, it runs out.
    const arrivals = Array.from({ length: 40 }, (_, index) => `a/x-02500-${String(index).padStart(2, '0')}`);
    const set = vi.spyOn(Map.prototype, 'set');
    try {
      arrivals.forEach((key, index) => {
        mirror.apply(deltaBatch(index + 2, { upserts: [row(key)] }));
        order.read();
      });
      const all = order.read();
      expect(all).toEqual([...kept.slice(0, 2_501), ...arrivals, ...kept.slice(2_501)]);
      expect(order.sorted([...all].reverse())).toEqual(all);
      // Ranking every key again dropped the Map, and the sort above built it again: 5,000 writes.
      expect(set.mock.calls.length).toBeLessThan(1_000);
    } finally {
      set.mockRestore();
    }
  });

  it('reuses its names and ranks between reads, yet what it handed out never changes', () => {
    const random = seededRandom(17);
    const mirror = new SubscriptionMirror();
    const order = new NameOrder(mirror.rows, mirror.changes);
    const live = new Map<string, Row>();
    const held: { keys: readonly string[]; names: readonly string[]; copy: string[][] }[] = [];
    for (let seq = 1; seq <= 40; seq++) {
      const round = churnRound(random, live, {
        changes: 12,
        deleteChance: 0.5,
        newKey: () =>
          `${pick(random, ['a', 'b'])}/${pick(random, ['web', 'db'])}-${Math.floor(random() * 90)}`,
        make: (key) => row(key, String(seq)),
      });
      applyRound(mirror, seq, round);
      // Each read writes the order's names and ranks into the arrays of the read before last: the
      // keys and names read earlier (a travel's base holds them for seconds) must not move.
      const { keys, names } = order.named();
      expect(keys).toEqual(keysByName(live.values()));
      expect(names).toEqual(keys.map((key) => live.get(key)!.name));
      const subset = keys.filter(() => random() < 0.3);
      expect(order.sorted([...subset].reverse())).toEqual(subset);
      held.push({ keys, names, copy: [[...keys], [...names]] });
    }
    for (const { keys, names, copy } of held) {
      expect(keys).toEqual(copy[0]);
      expect(names).toEqual(copy[1]);
    }
  });
});

describe("NameOrder's key arrays under leases", () => {
  it('writes its next keys into a replaced array once its leases are returned, never before', () => {
    const mirror = new SubscriptionMirror();
    const order = new NameOrder(mirror.rows, mirror.changes);
    mirror.apply(deltaBatch(1, { upserts: [row('a/x-1'), row('a/x-3')], replace: true, snapshotEnd: true }));
    const unleased = order.read();
    mirror.apply(deltaBatch(2, { upserts: [row('a/x-2')] }));
    const leased = order.read();
    leaseKeys(leased);
    mirror.apply(deltaBatch(3, { upserts: [row('a/x-4')] }));
    const third = order.read();
    mirror.apply(deltaBatch(4, { deletes: ['a/x-1'] }));
    const fourth = order.read();
    // Neither the array nobody leased nor the one still leased was written into.
    expect(new Set([unleased, leased, third, fourth]).size).toBe(4);
    expect(unleased).toEqual(['a/x-1', 'a/x-3']);
    expect(leased).toEqual(['a/x-1', 'a/x-2', 'a/x-3']);
    returnKeys(leased);
    mirror.apply(deltaBatch(5, { upserts: [row('a/x-5')] }));
    const fifth = order.read();
    expect(fifth).toBe(leased);
    expect(fifth).toEqual(['a/x-2', 'a/x-3', 'a/x-4', 'a/x-5']);
    expect(third).toEqual(['a/x-1', 'a/x-2', 'a/x-3', 'a/x-4']);
    expect(fourth).toEqual(['a/x-2', 'a/x-3', 'a/x-4']);
  });

  it('follows churn with two arrays in turn while its reader leases each answer until the next', () => {
    const random = seededRandom(23);
    const mirror = new SubscriptionMirror();
    const order = new NameOrder(mirror.rows, mirror.changes);
    const live = new Map<string, Row>();
    const arrays = new Set<readonly string[]>();
    let shown: { keys: readonly string[]; copy: string[] } | undefined;
    for (let seq = 1; seq <= 60; seq++) {
      const round = churnRound(random, live, {
        changes: 10,
        deleteChance: 0.5,
        newKey: () =>
          `${pick(random, ['a', 'b'])}/${pick(random, ['web', 'db'])}-${Math.floor(random() * 80)}`,
        make: (key) => row(key, String(seq)),
      });
      applyRound(mirror, seq, round);
      const keys = order.read();
      expect(keys).toEqual(keysByName(live.values()));
      // The table's answer is read until the next one replaces it: it never moved meanwhile.
      if (shown) expect(shown.keys).toEqual(shown.copy);
      leaseKeys(keys);
      if (shown) returnKeys(shown.keys);
      shown = { keys, copy: [...keys] };
      arrays.add(keys);
    }
    // The first read's array, the one shown, and the one being written: a new array per read before.
    expect(arrays.size).toBeLessThanOrEqual(3);
    expect(keysReturned(shown!.keys)).toBe(false);
  });

  it('hands a travel its keys as a copy, which a later change cannot write into', () => {
    const mirror = new SubscriptionMirror();
    const order = new NameOrder(mirror.rows, mirror.changes);
    mirror.apply(deltaBatch(1, { upserts: [row('a/x-1')], replace: true, snapshotEnd: true }));
    const read = order.read();
    const { keys } = order.named();
    expect(keys).not.toBe(read);
    expect(keys).toEqual(['a/x-1']);
  });
});

describe('NameOrder under churn with no rank asked for', () => {
  it('cuts departed keys by name, writing no key -> rank entry for the keys that stayed', () => {
    const random = seededRandom(31);
    const mirror = new SubscriptionMirror();
    const order = new NameOrder(mirror.rows, mirror.changes);
    const live = new Map<string, Row>();
    for (let index = 0; index < 5_000; index++) {
      const key = `${pick(random, ['a', 'b'])}/${pick(random, ['web', 'db', 'Web', 'web-1'])}-${index}`;
      live.set(key, row(key));
    }
    mirror.apply(deltaBatch(1, { upserts: [...live.values()], replace: true, snapshotEnd: true }));
    order.read();
    const set = vi.spyOn(Map.prototype, 'set');
    try {
      for (let seq = 2; seq < 12; seq++) {
        const deletes = [...live.keys()].filter(() => random() < 0.004);
        for (const key of deletes) live.delete(key);
        const upserts = [`a/web-${seq}x`, `b/db-${seq}y`].map((key) => row(key));
        for (const added of upserts) live.set(added.key, added);
        mirror.apply(deltaBatch(seq, { upserts, deletes }));
        expect(order.read()).toEqual(keysByName(live.values()));
      }
      // A Map of every key's rank would be 5,000 writes per build; the departures alone are ~20 a read.
      expect(set.mock.calls.length).toBeLessThan(1_000);
    } finally {
      set.mockRestore();
    }
    // Ranks, asked for afterwards, still order any subset as names do.
    const subset = [...live.keys()].filter(() => random() < 0.1);
    const chosen = new Set(subset);
    expect(order.sorted(subset)).toEqual(order.read().filter((key) => chosen.has(key)));
  });

  it('writes an answer that leaves keys out into an earlier one only once every lease on it is returned', () => {
    const mirror = new SubscriptionMirror(0);
    const keys = Array.from({ length: 50 }, (_, index) => `team/web-${index}`);
    mirror.apply(deltaBatch(1, { upserts: keys.map((key) => row(key)), replace: true, snapshotEnd: true }));
    const order = new NameOrder(mirror.rows, mirror.changes);
    const all = order.read();
    const first = order.without([[keys[1]]]);
    leaseKeys(first);
    const second = order.without([[keys[2]]]);
    // Leased and not returned: a new array.
    expect(second).not.toBe(first);
    expect(first).toEqual(all.filter((key) => key !== keys[1]));
    returnKeys(first);
    const third = order.without([[keys[3], keys[4]]]);
    expect(third).toBe(first);
    expect(third).toEqual(all.filter((key) => key !== keys[3] && key !== keys[4]));
    // Never leased (a reader that takes no leases may hold it as long as it likes): never written into.
    expect(order.without([[keys[5]]])).not.toBe(second);
    expect(second).toEqual(all.filter((key) => key !== keys[2]));
  });
});
