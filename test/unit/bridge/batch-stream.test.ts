import { describe, expect, it } from 'vitest';
import { BatchStream, batchStreamDefaults } from '../../../main/bridge/batch-stream';
import type { BatchStreamOptions } from '../../../main/bridge/batch-stream';
import { FakeClock } from '../../../main/cache/fake-clock';
import type { DeltaBatch } from '../../../shared/protocol/server-messages';
import { row } from './fixtures';
import { messageValue } from '../../../main/bridge/outgoing-message';

function stream(overrides: Partial<BatchStreamOptions> = {}) {
  const clock = new FakeClock();
  const sent: DeltaBatch[] = [];
  const batches = new BatchStream({
    subscriptionId: 's1',
    clock,
    send: (batch) => sent.push(messageValue(batch) as DeltaBatch),
    ...overrides,
  });
  return { clock, sent, batches };
}

describe('BatchStream', () => {
  it('sends nothing before the flush interval and one coalesced batch at it', () => {
    const { clock, sent, batches } = stream();
    batches.record({ type: 'added', row: row('a', '1') });
    batches.record({ type: 'updated', row: row('a', '2') });
    batches.record({ type: 'added', row: row('b') });
    clock.step(49);
    expect(sent).toEqual([]);
    clock.step(1);
    expect(sent).toEqual([
      { type: 'batch', subscriptionId: 's1', seq: 1, upserts: [row('a', '2'), row('b')], deletes: [] },
    ]);
  });

  it("sends a listing's first batch at the flush interval, the next at the listing's, and what waits when it ends", () => {
    const { clock, sent, batches } = stream();
    batches.listing(true);
    batches.record({ type: 'added', row: row('a') });
    clock.step(50);
    expect(sent.map((batch) => batch.upserts.length)).toEqual([1]);
    batches.acknowledge(1);
    batches.record({ type: 'added', row: row('b') });
    batches.record({ type: 'added', row: row('c') });
    clock.step(batchStreamDefaults.listingFlushIntervalMs - 1);
    expect(sent).toHaveLength(1);
    clock.step(1);
    expect(sent.map((batch) => batch.upserts.length)).toEqual([1, 2]);
    batches.acknowledge(2);
    batches.record({ type: 'added', row: row('d') });
    clock.step(100);
    expect(sent).toHaveLength(2);
    // The listing ends (synced): the row waiting goes at once, and live batches at the flush interval.
    batches.listing(false);
    expect(sent.map((batch) => batch.upserts.map((upsert) => upsert.key))).toEqual([
      ['a'],
      ['b', 'c'],
      ['d'],
    ]);
    batches.acknowledge(3);
    batches.record({ type: 'added', row: row('e') });
    clock.step(50);
    expect(sent).toHaveLength(4);
  });

  it('numbers batches consecutively after the resumed lastSeq', () => {
    const { clock, sent, batches } = stream({ lastSeq: 41 });
    batches.record({ type: 'added', row: row('a') });
    clock.step(50);
    batches.acknowledge(42);
    batches.record({ type: 'deleted', key: 'a' });
    clock.step(50);
    expect(sent.map((batch) => batch.seq)).toEqual([42, 43]);
    expect(sent[1].deletes).toEqual(['a']);
  });

  it('flushes at once when the size cap is reached, in batches no larger than the cap', () => {
    const { sent, batches } = stream({ maxBatchRows: 3 });
    for (const key of ['a', 'b', 'c']) batches.record({ type: 'added', row: row(key) });
    expect(sent).toHaveLength(1);
    expect(sent[0].upserts).toHaveLength(3);
  });

  it('sends an add cancelled by a delete within the window as nothing at all', () => {
    const { clock, sent, batches } = stream();
    batches.record({ type: 'added', row: row('a') });
    batches.record({ type: 'deleted', key: 'a' });
    clock.step(1_000);
    expect(sent).toEqual([]);
  });

  it('chunks a snapshot into batches, the first marked replace with its size and the last snapshotEnd', () => {
    const { sent, batches } = stream({ maxBatchRows: 2, maxUnacknowledgedBatches: 100 });
    batches.snapshot([row('a'), row('b'), row('c'), row('d'), row('e')]);
    expect(
      sent.map((batch) => [
        batch.seq,
        batch.upserts.length,
        batch.replace,
        batch.snapshotRows,
        batch.snapshotEnd,
      ]),
    ).toEqual([
      [1, 2, true, 5, undefined],
      [2, 2, undefined, undefined, undefined],
      [3, 1, undefined, undefined, true],
    ]);
    // A snapshot whose rows come over time (a past moment) has no size to tell.
    batches.openSnapshot().add([row('f'), row('g'), row('h')]);
    expect(sent.at(-1)).toMatchObject({ seq: 4, replace: true });
    expect(sent.at(-1)!.snapshotRows).toBeUndefined();
  });

  it('sends an empty snapshot as one replace batch that ends it', () => {
    const { sent, batches } = stream();
    batches.snapshot([]);
    expect(sent).toEqual([
      {
        type: 'batch',
        subscriptionId: 's1',
        seq: 1,
        upserts: [],
        deletes: [],
        replace: true,
        snapshotRows: 0,
        snapshotEnd: true,
      },
    ]);
  });

  it('drops pending changes on a snapshot, whose rows already hold their outcome', () => {
    const { clock, sent, batches } = stream();
    batches.record({ type: 'added', row: row('a') });
    batches.snapshot([row('a')]);
    clock.step(1_000);
    expect(sent).toHaveLength(1);
  });

  it('holds live changes until the snapshot has been sent', () => {
    const { clock, sent, batches } = stream({ maxBatchRows: 1, maxUnacknowledgedBatches: 1 });
    batches.snapshot([row('a'), row('b')]);
    batches.record({ type: 'added', row: row('c') });
    expect(sent.map((batch) => batch.seq)).toEqual([1]);
    batches.acknowledge(1);
    clock.step(50);
    batches.acknowledge(2);
    clock.step(50);
    expect(sent.map((batch) => [batch.replace, batch.snapshotEnd, batch.upserts[0].key])).toEqual([
      [true, undefined, 'a'],
      [undefined, true, 'b'],
      [undefined, undefined, 'c'],
    ]);
  });

  it('sends nothing to a renderer with too many unacknowledged batches, and one coarser batch once it acks', () => {
    const { clock, sent, batches } = stream({ maxUnacknowledgedBatches: 2 });
    for (let version = 1; version <= 2; version++) {
      batches.record({ type: 'updated', row: row('a', String(version)) });
      clock.step(50);
    }
    expect(sent).toHaveLength(2);
    for (let version = 3; version <= 100; version++) {
      batches.record({ type: 'updated', row: row(`k${version % 10}`, String(version)) });
      clock.step(10);
    }
    expect(sent).toHaveLength(2);
    expect(batches.pendingCount).toBe(10);
    batches.acknowledge(2);
    clock.step(50);
    expect(sent).toHaveLength(3);
    expect(sent[2].upserts).toHaveLength(10);
  });

  it("sends what follows a listing's rows only once they have gone out to a renderer that was behind", () => {
    const order: string[] = [];
    const sent: DeltaBatch[] = [];
    const { clock, batches } = stream({
      maxUnacknowledgedBatches: 1,
      maxBatchRows: 2,
      send: (batch) => {
        sent.push(messageValue(batch) as DeltaBatch);
        order.push(`batch ${batch.seq}`);
      },
    });
    batches.listing(true);
    for (const key of ['a', 'b', 'c', 'd', 'e']) batches.record({ type: 'added', row: row(key) });
    expect(sent).toHaveLength(1);
    // The LIST ends while three rows wait for the renderer's acknowledgement.
    batches.listing(false);
    batches.afterRows(() => order.push('synced'));
    clock.step(1_000);
    expect(order).toEqual(['batch 1']);
    batches.acknowledge(1);
    clock.step(50);
    expect(order).toEqual(['batch 1', 'batch 2']);
    batches.acknowledge(2);
    clock.step(50);
    expect(order).toEqual(['batch 1', 'batch 2', 'batch 3', 'synced']);
    expect(sent.flatMap((batch) => batch.upserts.map((upsert) => upsert.key))).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
    ]);
    // With nothing waiting it goes at once; a later send replaces one still waiting, undefined drops it.
    batches.afterRows(() => order.push('at once'));
    batches.record({ type: 'added', row: row('f') });
    batches.afterRows(() => order.push('replaced'));
    batches.afterRows(() => order.push('latest'));
    batches.acknowledge(3);
    clock.step(50);
    expect(order.slice(4)).toEqual(['at once', 'batch 4', 'latest']);
    batches.record({ type: 'added', row: row('g') });
    batches.afterRows(() => order.push('dropped'));
    batches.afterRows(undefined);
    batches.acknowledge(4);
    clock.step(50);
    expect(order.slice(7)).toEqual(['batch 5']);
  });

  it('awaits delivery until the renderer has acknowledged the rows sent before an afterRows message, not later ones', () => {
    const { clock, batches } = stream({ maxUnacknowledgedBatches: 1 });
    expect(batches.awaitsDelivery()).toBe(false);
    batches.listing(true);
    batches.record({ type: 'added', row: row('a') });
    clock.step(50);
    batches.record({ type: 'added', row: row('b') });
    batches.listing(false);
    batches.afterRows(() => {});
    // "synced" waits for b, which waits for the renderer's acknowledgement of a.
    expect(batches.awaitsDelivery()).toBe(true);
    batches.acknowledge(1);
    clock.step(50);
    expect(batches.lastSeq).toBe(2);
    // Sent, "synced" with it, but not yet applied.
    expect(batches.awaitsDelivery()).toBe(true);
    batches.acknowledge(2);
    expect(batches.awaitsDelivery()).toBe(false);
    // Live changes after it (churn) do not count.
    batches.record({ type: 'added', row: row('c') });
    clock.step(50);
    expect(batches.lastSeq).toBe(3);
    expect(batches.awaitsDelivery()).toBe(false);
    expect(batches.lastAcknowledgedSeq).toBe(2);
  });

  it("sends a listing's full batch as soon as the renderer acknowledges, and a partial one at the interval", () => {
    const { clock, sent, batches } = stream({ maxBatchRows: 2, maxUnacknowledgedBatches: 1 });
    batches.listing(true);
    for (const key of ['a', 'b', 'c', 'd', 'e']) batches.record({ type: 'added', row: row(key) });
    expect(sent).toHaveLength(1);
    // c and d fill a batch: it goes with the acknowledgement, not a listing interval later.
    batches.acknowledge(1);
    expect(sent.map((batch) => batch.upserts.map((upsert) => upsert.key))).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    // e alone waits for the interval.
    batches.acknowledge(2);
    expect(sent).toHaveLength(2);
    clock.step(batchStreamDefaults.listingFlushIntervalMs);
    expect(sent.map((batch) => batch.upserts.map((upsert) => upsert.key))).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['e'],
    ]);
  });

  it('restarts the ack count on a snapshot, so a renderer that discarded its batches is not stalled', () => {
    const { clock, sent, batches } = stream({ maxUnacknowledgedBatches: 1 });
    batches.record({ type: 'added', row: row('a') });
    clock.step(50);
    batches.snapshot([row('a')]);
    expect(sent.map((batch) => batch.seq)).toEqual([1, 2]);
  });

  it('treats a transport with too many buffered bytes as behind', () => {
    let buffered = 10_000_000;
    const { clock, sent, batches } = stream({ bufferedBytes: () => buffered, maxBufferedBytes: 1_000 });
    batches.record({ type: 'added', row: row('a') });
    clock.step(5_000);
    expect(sent).toEqual([]);
    buffered = 0;
    clock.step(1_000);
    expect(sent).toHaveLength(1);
  });

  it('backs off its retries while the renderer is behind, up to the maximum interval', () => {
    const { clock, batches } = stream({ bufferedBytes: () => Infinity });
    batches.record({ type: 'added', row: row('a') });
    const delays: number[] = [];
    for (let attempt = 0; attempt < 7; attempt++) {
      delays.push(clock.pendingDelays()[0]);
      clock.step(clock.pendingDelays()[0]);
    }
    expect(delays).toEqual([50, 100, 200, 400, 800, 1_000, 1_000]);
  });

  it('sends nothing and leaves no timer after close', () => {
    const { clock, sent, batches } = stream();
    batches.record({ type: 'added', row: row('a') });
    batches.close();
    batches.record({ type: 'added', row: row('b') });
    clock.step(1_000);
    expect(sent).toEqual([]);
    expect(clock.hasWaiters()).toBe(false);
  });
});
