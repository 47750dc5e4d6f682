// BatchStream sends one batch per turn of the event loop: a snapshot or a backlog of many batches
// never goes out in one task (eight 2,000-row batches held main 2-5 s at 150,000 pods), and nothing
// is lost or reordered for it.
import { describe, expect, it } from 'vitest';
import { BatchStream } from '../../../main/bridge/batch-stream';
import type { BatchStreamOptions } from '../../../main/bridge/batch-stream';
import { FakeClock } from '../../../main/cache/fake-clock';
import type { DeltaBatch } from '../../../shared/protocol/server-messages';
import { messageValue } from '../../../main/bridge/outgoing-message';
import { row } from './fixtures';

function stream(overrides: Partial<BatchStreamOptions> = {}) {
  const clock = new FakeClock();
  const sent: DeltaBatch[] = [];
  const batches = new BatchStream({
    subscriptionId: 's1',
    clock,
    send: (batch) => sent.push(messageValue(batch) as DeltaBatch),
    maxBatchRows: 2,
    oneBatchPerTurn: true,
    ...overrides,
  });
  return { clock, sent, batches };
}

const keys = (sent: DeltaBatch[]) => sent.map((batch) => batch.upserts.map((upsert) => upsert.key));

describe('BatchStream, one batch per turn', () => {
  it("sends a snapshot's first chunk at once and each next one in a later turn, in order", () => {
    const { clock, sent, batches } = stream();
    batches.snapshot(['a', 'b', 'c', 'd', 'e'].map((key) => row(key)));
    expect(keys(sent)).toEqual([['a', 'b']]);
    // The next turn is a timer due now, not a flush interval later.
    expect(clock.pendingDelays()).toEqual([0]);
    batches.record({ type: 'added', row: row('f') });
    clock.step(0);
    // The live change waited behind the snapshot, and goes in the turn after its end.
    expect(keys(sent)).toEqual([['a', 'b'], ['c', 'd'], ['e'], ['f']]);
    expect(sent.map((batch) => [batch.seq, batch.replace, batch.snapshotEnd])).toEqual([
      [1, true, undefined],
      [2, undefined, undefined],
      [3, undefined, true],
      [4, undefined, undefined],
    ]);
  });

  it('sends a backlog one batch per turn once the renderer acknowledges, and stops when it is behind', () => {
    const { clock, sent, batches } = stream({ maxUnacknowledgedBatches: 3 });
    for (const key of ['a', 'b', 'c', 'd', 'e', 'f']) batches.record({ type: 'added', row: row(key) });
    expect(sent).toHaveLength(3);
    // Behind: the changes coalesce; then the renderer acknowledges everything at once.
    for (const key of ['g', 'h', 'i', 'j', 'k']) batches.record({ type: 'added', row: row(key) });
    batches.record({ type: 'updated', row: row('g', '2') });
    batches.acknowledge(3);
    expect(keys(sent).slice(3)).toEqual([['g', 'h']]);
    clock.step(0);
    expect(keys(sent).slice(3)).toEqual([['g', 'h'], ['i', 'j'], ['k']]);
    expect(sent[3].upserts[0].resourceVersion).toBe('2');
    // Three unacknowledged again: nothing more goes, however many turns pass.
    batches.record({ type: 'added', row: row('l') });
    clock.step(0);
    expect(sent).toHaveLength(6);
    batches.acknowledge(6);
    clock.step(50);
    expect(keys(sent).flat()).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l']);
  });

  it('sends the rest of a backlog in the next turns, not a flush interval later, after a backoff', () => {
    let buffered = Infinity;
    const { clock, sent, batches } = stream({ bufferedBytes: () => buffered });
    for (const key of ['a', 'b', 'c']) batches.record({ type: 'added', row: row(key) });
    // Behind for a while: the retries back off to 200 ms.
    clock.step(50 + 100);
    expect(sent).toHaveLength(0);
    buffered = 0;
    batches.flush();
    expect(keys(sent)).toEqual([['a', 'b']]);
    // An acknowledgement meanwhile keeps the next turn's timer.
    batches.acknowledge(1);
    clock.step(0);
    expect(keys(sent)).toEqual([['a', 'b'], ['c']]);
  });

  it("sends a listing's synced after its last rows, however many turns they take", () => {
    const order: string[] = [];
    const { clock, batches } = stream({
      maxUnacknowledgedBatches: 100,
      send: (batch) => order.push(`batch ${batch.seq}`),
    });
    batches.snapshot(['a', 'b', 'c', 'd', 'e'].map((key) => row(key)));
    batches.afterRows(() => order.push('synced'));
    expect(order).toEqual(['batch 1']);
    clock.step(0);
    expect(order).toEqual(['batch 1', 'batch 2', 'batch 3', 'synced']);
  });
});
