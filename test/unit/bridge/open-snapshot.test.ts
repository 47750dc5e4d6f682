import { describe, expect, it } from 'vitest';
import { BatchStream } from '../../../main/bridge/batch-stream';
import { FakeClock } from '../../../main/cache/fake-clock';
import type { DeltaBatch } from '../../../shared/protocol/server-messages';
import { row } from './fixtures';

function stream(maxUnacknowledgedBatches = 8) {
  const clock = new FakeClock();
  const sent: DeltaBatch[] = [];
  const batches = new BatchStream({
    subscriptionId: 's1',
    clock,
    send: (batch) => sent.push(batch),
    maxBatchRows: 2,
    maxUnacknowledgedBatches,
  });
  return { clock, sent, batches };
}

describe('BatchStream.openSnapshot (a snapshot whose rows come over time)', () => {
  it('sends each chunk as it comes, replace first, and snapshotEnd only after end', () => {
    const { clock, sent, batches } = stream();
    const snapshot = batches.openSnapshot();
    clock.step(1_000);
    expect(sent).toEqual([]);
    snapshot.add([row('a'), row('b'), row('c')]);
    expect(
      sent.map((batch) => [batch.upserts.map((upsert) => upsert.key), batch.replace, batch.snapshotEnd]),
    ).toEqual([
      [['a', 'b'], true, undefined],
      [['c'], undefined, undefined],
    ]);
    clock.step(1_000);
    expect(sent).toHaveLength(2);
    snapshot.add([row('d')]);
    snapshot.end();
    expect(
      sent.slice(2).map((batch) => [batch.upserts.map((upsert) => upsert.key), batch.snapshotEnd]),
    ).toEqual([
      [['d'], undefined],
      [[], true],
    ]);
  });

  it('holds live changes behind it until its end, then sends them', () => {
    const { clock, sent, batches } = stream();
    const snapshot = batches.openSnapshot();
    snapshot.add([row('a')]);
    batches.record({ type: 'updated', row: row('a', '2') });
    clock.step(1_000);
    expect(sent).toHaveLength(1);
    snapshot.end();
    clock.step(1_000);
    expect(sent.map((batch) => [batch.upserts, batch.snapshotEnd])).toEqual([
      [[row('a')], undefined],
      [[], true],
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
    const { clock, sent, batches } = stream(1);
    const keysOf = (batch: DeltaBatch) => [
      batch.upserts.map((upsert) => upsert.key),
      batch.replace,
      batch.snapshotEnd,
    ];
    const first = batches.openSnapshot();
    first.add([row('a'), row('b'), row('c')]);
    expect(sent.map(keysOf)).toEqual([[['a', 'b'], true, undefined]]);
    const second = batches.openSnapshot();
    first.add([row('x')]);
    first.end();
    second.add([row('d')]);
    second.end();
    expect(sent.slice(1).map(keysOf)).toEqual([[['d'], true, undefined]]);
    batches.acknowledge(sent.at(-1)!.seq);
    clock.step(50);
    expect(sent.slice(2).map(keysOf)).toEqual([[[], undefined, true]]);
  });
});
