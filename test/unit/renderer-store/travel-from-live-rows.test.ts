// A travel's first moment sent against the live rows (DeltaBatch.base) into a replay mirror that never
// showed one: the live rows it starts from are written a slice a frame while its chunks come (not all
// in the first chunk's task), and its name order is carried from the live mirror's, looking up only
// the keys the snapshot changed (not every row of the moment). Nothing shows before the end.
import { describe, expect, it, vi } from 'vitest';
import { ManualFrameScheduler } from '../../../renderer/store/frame-scheduler';
import { MirrorStore } from '../../../renderer/store/mirror-store';
import { leaseKeys, returnKeys } from '../../../renderer/store/key-leases';
import { nameOrder } from '../../../renderer/store/name-order';
import { sortRowsByName } from '../../../renderer/store/named-keys';
import { queryRows } from '../../../renderer/store/row-query';
import type { Row } from '../../../shared/protocol/row';
import { deltaBatch as batch, row } from '../bridge/fixtures';

const podRows = (count: number) => Array.from({ length: count }, (_, index) => row(`ns/pod-${index}`));

/** A store with the live mirror `s` holding `liveRows` whole, and an empty replay mirror. */
function withLiveRows(maxRowsPerFrame: number, liveRows = podRows(200)) {
  const scheduler = new ManualFrameScheduler();
  const store = new MirrorStore({ scheduler, maxRowsPerFrame });
  const live = store.open('s');
  store.receive(batch(1, { replace: true, snapshotEnd: true, upserts: liveRows }));
  store.applyQueued();
  nameOrder(live);
  const replay = store.open('r', 0, { wholeSnapshots: true });
  // The table reads the empty replay mirror before its first moment.
  queryRows(replay);
  const receive = (seq: number, changes: Parameters<typeof batch>[1]) =>
    store.receive({ ...batch(seq, changes), subscriptionId: 'r' });
  return { scheduler, store, live, replay, receive };
}

describe("a travel's first moment sent against the live rows", () => {
  it('writes the live rows a slice a frame while its chunks come, and shows nothing before its end', () => {
    const { scheduler, store, replay, receive } = withLiveRows(30);
    receive(1, { replace: true, base: { subscriptionId: 's', seq: 1 } });
    scheduler.runFrame();
    // The first chunk's frame wrote no more than a frame's rows of the 200 it starts from.
    expect(replay.rows.size).toBeLessThanOrEqual(30);
    expect(replay.rowsAhead).toBeGreaterThan(0);
    // Frames go on with nothing received: the rest is written a frame's rows at a time.
    const sizes: number[] = [];
    while (scheduler.pendingFrames > 0) {
      scheduler.runFrame();
      sizes.push(replay.rows.size);
    }
    expect(sizes.at(-1)).toBe(200);
    sizes.forEach((size, index) =>
      expect(size - (sizes[index - 1] ?? replay.rows.size)).toBeLessThanOrEqual(30),
    );
    expect(replay.revision).toBe(0);
    expect(store.state.getState().revisions.r).toBeUndefined();
    receive(2, { upserts: [row('ns/pod-5', '2')], deletes: ['ns/pod-7'], snapshotEnd: true });
    scheduler.runFrame();
    expect(replay.revision).toBe(1);
    expect(replay.rows.size).toBe(199);
    expect(replay.rows.get('ns/pod-5')?.resourceVersion).toBe('2');
  });

  it("never writes a live row over the snapshot's own, whether written before or after it came", () => {
    const { scheduler, replay, receive } = withLiveRows(10);
    receive(1, { replace: true, base: { subscriptionId: 's', seq: 1 } });
    scheduler.runFrame();
    scheduler.runFrame();
    // pod-0 is written ahead by now (the live rows in their order); pod-199 is not.
    expect(replay.rows.has('ns/pod-0')).toBe(true);
    expect(replay.rows.has('ns/pod-199')).toBe(false);
    receive(2, { upserts: [row('ns/pod-0', '2'), row('ns/pod-199', '2')], deletes: [] });
    receive(3, { deletes: ['ns/pod-1', 'ns/pod-198'], snapshotEnd: true });
    scheduler.runFrame();
    while (scheduler.pendingFrames > 0) scheduler.runFrame();
    expect(replay.rows.get('ns/pod-0')?.resourceVersion).toBe('2');
    expect(replay.rows.get('ns/pod-199')?.resourceVersion).toBe('2');
    expect(replay.rows.has('ns/pod-1')).toBe(false);
    expect(replay.rows.has('ns/pod-198')).toBe(false);
    expect(replay.rows.size).toBe(198);
  });

  it("carries the live rows' name order: its first read looks up only the keys the snapshot changed", () => {
    // More rows than the change log keeps for a reader that has not read it (as at 150,000 pods).
    const liveRows = podRows(10_000);
    const { scheduler, replay, receive } = withLiveRows(1_000, liveRows);
    receive(1, { replace: true, base: { subscriptionId: 's', seq: 1 } });
    receive(2, { upserts: [row('ns/pod-3', '2'), row('ns/extra-b'), row('ns/pod-100', '2')] });
    receive(3, { upserts: [row('ns/extra-a')], deletes: ['ns/pod-50', 'ns/pod-51'], snapshotEnd: true });
    while (scheduler.pendingFrames > 0) scheduler.runFrame();
    const moment = new Map<string, Row>(liveRows.map((each) => [each.key, each]));
    for (const each of [row('ns/pod-3', '2'), row('ns/extra-b'), row('ns/pod-100', '2'), row('ns/extra-a')])
      moment.set(each.key, each);
    moment.delete('ns/pod-50');
    moment.delete('ns/pod-51');
    const has = vi.spyOn(replay.rows, 'has');
    const get = vi.spyOn(replay.rows, 'get');
    const order = nameOrder(replay);
    // Built from the rows, the order would look up each of the 10,000 (150,000 at 150,000 pods).
    expect(has.mock.calls.length + get.mock.calls.length).toBeLessThanOrEqual(12);
    expect(order).toEqual(sortRowsByName([...moment.values()]).keys);
    // Later changes are replayed from the log as for any order.
    replay.apply({
      ...batch(4, { upserts: [row('ns/extra-c')], deletes: ['ns/pod-3'] }),
      subscriptionId: 'r',
    });
    moment.set('ns/extra-c', row('ns/extra-c'));
    moment.delete('ns/pod-3');
    expect(nameOrder(replay)).toEqual(sortRowsByName([...moment.values()]).keys);
  });

  it("never writes into the live order's keys once the view that leased them has let them go", () => {
    const { scheduler, live, replay, receive } = withLiveRows(1_000);
    // The live table leased its shown answer and returned it when the view went to the past.
    const liveKeys = nameOrder(live);
    const liveBefore = [...liveKeys];
    leaseKeys(liveKeys);
    returnKeys(liveKeys);
    receive(1, { replace: true, base: { subscriptionId: 's', seq: 1 } });
    receive(2, { upserts: [row('ns/extra-a')], snapshotEnd: true });
    while (scheduler.pendingFrames > 0) scheduler.runFrame();
    // The replay's table leases and returns each answer; keys come and go in the past it plays.
    for (let change = 0; change < 4; change++) {
      const shown = nameOrder(replay);
      leaseKeys(shown);
      returnKeys(shown);
      replay.apply({
        ...batch(3 + change, { upserts: [row(`ns/played-${change}`)], deletes: [`ns/pod-${change}`] }),
        subscriptionId: 'r',
      });
    }
    nameOrder(replay);
    // The replay's order wrote its changes into arrays of its own, never the live order's.
    expect(liveKeys).toEqual(liveBefore);
    expect(nameOrder(live)).toEqual(liveBefore);
  });
});
