import { describe, expect, it } from 'vitest';
import { BatchStream } from '../../../main/bridge/batch-stream';
import { FakeClock } from '../../../main/cache/fake-clock';
import type { DeltaBatch } from '../../../shared/protocol/server-messages';
import { row } from './fixtures';
import { messageValue } from '../../../main/bridge/outgoing-message';

function stream(maxUnacknowledgedBatches = 8) {
  const clock = new FakeClock();
  const sent: DeltaBatch[] = [];
  const batches = new BatchStream({
    subscriptionId: 's1',
    clock,
    send: (batch) => sent.push(messageValue(batch) as DeltaBatch),
    maxBatchRows: 2,
    maxUnacknowledgedBatches,
  });
  return { clock, sent, batches };
}

describe('BatchStream.openSnapshot (a snapshot whose rows come over time)', () => {
  it('sends full batches as rows come, replace first, and the last rows only with snapshotEnd', () => {
    const { clock, sent, batches } = stream();
    const snapshot = batches.openSnapshot();
    clock.step(1_000);
    expect(sent).toEqual([]);
    snapshot.add([row('a'), row('b'), row('c')]);
    expect(
      sent.map((batch) => [batch.upserts.map((upsert) => upsert.key), batch.replace, batch.snapshotEnd]),
    ).toEqual([[['a', 'b'], true, undefined]]);
    // A full batch whose rows may be the snapshot's last waits for the end: a renderer counting rows
    // against the moment's total never reaches it before the batch that ends the snapshot.
    snapshot.add([row('d')]);
    clock.step(1_000);
    expect(sent).toHaveLength(1);
    snapshot.end();
    expect(
      sent.slice(1).map((batch) => [batch.upserts.map((upsert) => upsert.key), batch.snapshotEnd]),
    ).toEqual([[['c', 'd'], true]]);
  });

  it('holds live changes behind it until its end, then sends them', () => {
    const { clock, sent, batches } = stream();
    const snapshot = batches.openSnapshot();
    snapshot.add([row('a')]);
    batches.record({ type: 'updated', row: row('a', '2') });
    clock.step(1_000);
    expect(sent).toHaveLength(0);
    snapshot.end();
    clock.step(1_000);
    expect(sent.map((batch) => [batch.upserts, batch.snapshotEnd])).toEqual([
      [[row('a')], true],
      [[row('a', '2')], undefined],
    ]);
  });

  it('sends an empty moment as one batch that replaces and ends', () => {
    const { sent, batches } = stream();
    batches.openSnapshot().end();
    expect(sent).toEqual([
      {
        type: 'batch',
        subscriptionId: 's1',
        seq: 1,
        upserts: [],
        deletes: [],
        replace: true,
        snapshotEnd: true,
      },
    ]);
  });

  it('waits for a renderer behind, and ignores a snapshot replaced by a later one', () => {
    const { sent, batches } = stream(1);
    const keysOf = (batch: DeltaBatch) => [
      batch.upserts.map((upsert) => upsert.key),
      batch.replace,
      batch.snapshotEnd,
    ];
    const first = batches.openSnapshot();
    first.add([row('a'), row('b'), row('c')]);
    expect(sent.map(keysOf)).toEqual([[['a', 'b'], true, undefined]]);
    // The renderer has not acknowledged it, but a new snapshot does not wait for that (see
    // startSnapshot).
    const second = batches.openSnapshot();
    first.add([row('x')]);
    first.end();
    second.add([row('d')]);
    second.end();
    expect(sent.slice(1).map(keysOf)).toEqual([[['d'], true, true]]);
  });
});
