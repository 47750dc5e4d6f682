import { describe, expect, it } from 'vitest';
import { ManualFrameScheduler } from '../../../renderer/store/frame-scheduler';
import { MirrorStore } from '../../../renderer/store/mirror-store';
import { SubscriptionMirror } from '../../../renderer/store/subscription-mirror';
import { nameOrder } from '../../../renderer/store/name-order';
import type { DeltaBatch } from '../../../shared/protocol/server-messages';
import { deltaBatch as batch, pick, row, seededRandom } from '../bridge/fixtures';
import { keysByName } from './random-churn';

const keysOf = (mirror: SubscriptionMirror) => [...mirror.rows.keys()].sort();

describe('a mirror that applies snapshots whole (a replay)', () => {
  it('holds the chunks of a snapshot, leaving rows and revision as they were, until its end', () => {
    const mirror = new SubscriptionMirror(0, undefined, { wholeSnapshots: true });
    mirror.apply(batch(1, { upserts: [row('a'), row('z')] }));
    expect(mirror.apply(batch(2, { replace: true, upserts: [row('a', '2'), row('b')] }))).toBe('held');
    expect(mirror.apply(batch(3, { upserts: [row('c')] }))).toBe('held');
    expect(keysOf(mirror)).toEqual(['a', 'z']);
    expect(mirror.rows.get('a')?.resourceVersion).toBe('1');
    expect(mirror.revision).toBe(1);
    expect(mirror.heldRows).toBe(3);
    expect(mirror.apply(batch(4, { upserts: [row('d')], snapshotEnd: true }))).toBe('applied');
    expect(keysOf(mirror)).toEqual(['a', 'b', 'c', 'd']);
    expect(mirror.rows.get('a')?.resourceVersion).toBe('2');
    expect(mirror.revision).toBe(2);
    expect(mirror.heldRows).toBe(0);
    expect(mirror.hasSnapshot).toBe(true);
    // Live batches after it apply as they come.
    expect(mirror.apply(batch(5, { deletes: ['b'] }))).toBe('applied');
    expect(keysOf(mirror)).toEqual(['a', 'c', 'd']);
  });

  it('drops a snapshot cut by a sequence gap, and applies the resnapshot that follows', () => {
    const mirror = new SubscriptionMirror(0, undefined, { wholeSnapshots: true });
    mirror.apply(batch(1, { replace: true, snapshotEnd: true, upserts: [row('a')] }));
    expect(mirror.hasSnapshot).toBe(true);
    mirror.apply(batch(2, { replace: true, upserts: [row('x')] }));
    expect(mirror.apply(batch(4, { upserts: [row('y')], snapshotEnd: true }))).toBe('gap');
    expect(mirror.heldRows).toBe(0);
    expect(keysOf(mirror)).toEqual(['a']);
    expect(mirror.apply(batch(5, { replace: true, upserts: [row('b')] }))).toBe('held');
    expect(mirror.apply(batch(6, { snapshotEnd: true }))).toBe('applied');
    expect(keysOf(mirror)).toEqual(['b']);
  });

  it('ends with the same rows, order and indexes as a mirror applying each chunk (random snapshots)', () => {
    const random = seededRandom(12);
    for (let round = 0; round < 40; round++) {
      const whole = new SubscriptionMirror(0, undefined, { wholeSnapshots: true });
      const chunked = new SubscriptionMirror();
      const batches: DeltaBatch[] = [];
      let seq = 0;
      const key = () => `ns${Math.floor(random() * 3)}/p${Math.floor(random() * 40)}`;
      const randomRow = () =>
        row(key(), String(Math.floor(random() * 5)), { labels: { app: pick(random, ['a', 'b']) } });
      for (let step = 0; step < 6; step++) {
        if (random() < 0.5) {
          // Live changes: a batch never holds an upsert and a delete of one key.
          const upserts = new Map<string, ReturnType<typeof row>>();
          for (let count = Math.floor(random() * 6); count > 0; count--) {
            const next = randomRow();
            upserts.set(next.key, next);
          }
          const deletes = [...new Set(Array.from({ length: Math.floor(random() * 4) }, key))].filter(
            (deleted) => !upserts.has(deleted),
          );
          batches.push(batch(++seq, { upserts: [...upserts.values()], deletes }));
        } else {
          const chunks = 1 + Math.floor(random() * 4);
          for (let chunk = 0; chunk < chunks; chunk++)
            batches.push(
              batch(++seq, {
                upserts: Array.from({ length: Math.floor(random() * 8) }, randomRow),
                ...(chunk === 0 ? { replace: true } : {}),
                ...(chunk === chunks - 1 ? { snapshotEnd: true } : {}),
              }),
            );
        }
      }
      for (const next of batches) {
        whole.apply(next);
        chunked.apply(next);
      }
      expect([...whole.rows.entries()].sort()).toEqual([...chunked.rows.entries()].sort());
      expect(nameOrder(whole)).toEqual(nameOrder(chunked));
      expect(whole.indexes.labelValues('app')).toEqual(chunked.indexes.labelValues('app'));
    }
  });

  it('gives the name order its snapshot in name order, read at any point (random snapshots and playback)', () => {
    const random = seededRandom(29);
    for (let round = 0; round < 40; round++) {
      const mirror = new SubscriptionMirror(0, round % 3 === 0 ? 16 : undefined, { wholeSnapshots: true });
      let seq = 0;
      const key = () => `ns${Math.floor(random() * 3)}/p-${Math.floor(random() * 60)}`;
      for (let step = 0; step < 8; step++) {
        if (random() < 0.5) {
          const upserts = new Map(
            Array.from({ length: Math.floor(random() * 5) }, () => [key(), 0] as const),
          );
          const deletes = [...new Set(Array.from({ length: Math.floor(random() * 3) }, key))].filter(
            (deleted) => !upserts.has(deleted),
          );
          mirror.apply(batch(++seq, { upserts: [...upserts.keys()].map((each) => row(each)), deletes }));
        } else {
          const chunks = 1 + Math.floor(random() * 4);
          for (let chunk = 0; chunk < chunks; chunk++)
            mirror.apply(
              batch(++seq, {
                upserts: Array.from({ length: Math.floor(random() * 30) }, () => row(key())),
                ...(chunk === 0 ? { replace: true } : {}),
                ...(chunk === chunks - 1 ? { snapshotEnd: true } : {}),
              }),
            );
        }
        if (random() < 0.6) expect(nameOrder(mirror)).toEqual(keysByName(mirror.rows.values()));
      }
      expect(nameOrder(mirror)).toEqual(keysByName(mirror.rows.values()));
    }
  });

  it("leaves the snapshot's name order to the name order's next read, which takes it", () => {
    const mirror = new SubscriptionMirror(0, undefined, { wholeSnapshots: true });
    mirror.apply(batch(1, { replace: true, upserts: [row('a/x-10'), row('a/x-2')] }));
    mirror.apply(batch(2, { upserts: [row('a/x-1')], snapshotEnd: true }));
    expect(nameOrder(mirror)).toEqual(['a/x-1', 'a/x-2', 'a/x-10']);
    expect(mirror.takeSnapshotOrder()).toBeUndefined();
  });

  it('in the store, takes and acknowledges any number of held chunks in one frame, notifying once at the end', () => {
    const scheduler = new ManualFrameScheduler();
    const acks: number[] = [];
    const store = new MirrorStore({ scheduler, maxRowsPerFrame: 4, onApplied: (_id, seq) => acks.push(seq) });
    store.open('replay1', 0, { wholeSnapshots: true });
    const chunk = (seq: number, changes: Partial<DeltaBatch>) =>
      store.receive({ ...batch(seq, changes), subscriptionId: 'replay1' });
    // A moment shown: the next one is held until its end.
    chunk(1, { replace: true, snapshotEnd: true, upserts: [row('old')] });
    scheduler.runFrame();
    let notifications = 0;
    store.state.subscribe(() => notifications++);
    chunk(2, { replace: true, upserts: [row('a'), row('b'), row('c')] });
    for (let seq = 3; seq <= 6; seq++) chunk(seq, { upserts: [row(`k${seq}a`), row(`k${seq}b`)] });
    scheduler.runFrame();
    // Eleven rows held, past the frame's four: holding costs a push, and main is told to send on.
    expect(acks).toEqual([1, 6]);
    expect([...store.mirror('replay1')!.rows.keys()]).toEqual(['old']);
    expect(store.state.getState().revisions).toEqual({ replay1: 1 });
    expect(notifications).toBe(0);
    chunk(7, { upserts: [row('z')], snapshotEnd: true });
    chunk(8, { upserts: [row('y')] });
    scheduler.runFrame();
    // The end applies the whole snapshot, which uses up the frame: the live batch after it waits.
    expect(store.mirror('replay1')!.rows.size).toBe(12);
    expect(acks).toEqual([1, 6, 7]);
    expect(store.state.getState().revisions).toEqual({ replay1: 2 });
    scheduler.runFrame();
    expect(store.mirror('replay1')!.rows.size).toBe(13);
    expect(acks).toEqual([1, 6, 7, 8]);
  });

  it('writes the chunks of a first snapshot as they come, leaving the revision until its end', () => {
    const mirror = new SubscriptionMirror(0, undefined, { wholeSnapshots: true });
    expect(mirror.apply(batch(1, { replace: true, upserts: [row('a/x-10'), row('a/x-2')] }))).toBe('held');
    expect(mirror.writesHeld).toBe(true);
    expect(mirror.apply(batch(2, { upserts: [row('a/x-1'), row('a/x-2', '2')], deletes: ['a/x-10'] }))).toBe(
      'held',
    );
    // Written, though nobody is told: the revision moves only at the end, and nothing is held.
    expect(keysOf(mirror)).toEqual(['a/x-1', 'a/x-2']);
    expect(mirror.revision).toBe(0);
    expect(mirror.heldRows).toBe(0);
    expect(mirror.hasSnapshot).toBe(false);
    expect(mirror.holdsWhole(2)).toBe(false);
    expect(mirror.apply(batch(3, { upserts: [row('a/x-3')], snapshotEnd: true }))).toBe('applied');
    expect(mirror.writesHeld).toBe(false);
    expect(mirror.revision).toBe(1);
    expect(mirror.hasSnapshot).toBe(true);
    expect(mirror.rows.get('a/x-2')?.resourceVersion).toBe('2');
    expect(nameOrder(mirror)).toEqual(['a/x-1', 'a/x-2', 'a/x-3']);
    // The next snapshot, into a mirror that shows a moment, is held whole again.
    expect(mirror.apply(batch(4, { replace: true, upserts: [row('b/y')] }))).toBe('held');
    expect(mirror.writesHeld).toBe(false);
    expect(keysOf(mirror)).toEqual(['a/x-1', 'a/x-2', 'a/x-3']);
    expect(mirror.apply(batch(5, { snapshotEnd: true }))).toBe('applied');
    expect(keysOf(mirror)).toEqual(['b/y']);
  });

  it('sweeps the written chunks of a first snapshot cut by a gap when the resnapshot ends', () => {
    const mirror = new SubscriptionMirror(0, undefined, { wholeSnapshots: true });
    mirror.apply(batch(1, { replace: true, upserts: [row('a'), row('b')] }));
    expect(mirror.apply(batch(3, { upserts: [row('c')], snapshotEnd: true }))).toBe('gap');
    expect(mirror.writesHeld).toBe(false);
    expect(mirror.apply(batch(4, { replace: true, upserts: [row('b', '2')] }))).toBe('held');
    expect(mirror.apply(batch(5, { upserts: [row('d')], snapshotEnd: true }))).toBe('applied');
    expect(keysOf(mirror)).toEqual(['b', 'd']);
    expect(nameOrder(mirror)).toEqual(['b', 'd']);
  });

  it("in the store, charges a first snapshot's chunks their rows as they are written", () => {
    const scheduler = new ManualFrameScheduler();
    const acks: number[] = [];
    const store = new MirrorStore({ scheduler, maxRowsPerFrame: 4, onApplied: (_id, seq) => acks.push(seq) });
    store.open('replay1', 0, { wholeSnapshots: true });
    let notifications = 0;
    store.state.subscribe(() => notifications++);
    const chunk = (seq: number, changes: Partial<DeltaBatch>) =>
      store.receive({ ...batch(seq, changes), subscriptionId: 'replay1' });
    chunk(1, { replace: true, upserts: [row('a'), row('b'), row('c')] });
    for (let seq = 2; seq <= 5; seq++) chunk(seq, { upserts: [row(`k${seq}a`), row(`k${seq}b`)] });
    chunk(6, { upserts: [row('z')], snapshotEnd: true });
    scheduler.runFrame();
    // Three rows and then two: the frame's four are used up by the second chunk.
    expect(acks).toEqual([2]);
    expect(store.mirror('replay1')!.rows.size).toBe(5);
    expect(notifications).toBe(0);
    scheduler.runFrame();
    scheduler.runFrame();
    expect(acks).toEqual([2, 4, 6]);
    expect(store.mirror('replay1')!.rows.size).toBe(12);
    // One notification: the end's revision (held chunks tell nobody).
    expect(store.state.getState().revisions).toEqual({ replay1: 1 });
    expect(notifications).toBe(1);
  });
});
