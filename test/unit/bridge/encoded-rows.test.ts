import { describe, expect, it } from 'vitest';
import { BatchStream } from '../../../main/bridge/batch-stream';
import { encodeRows } from '../../../main/bridge/encoded-rows';
import { messageText, messageValue } from '../../../main/bridge/outgoing-message';
import type { OutgoingBatch } from '../../../main/bridge/outgoing-message';
import { FakeClock } from '../../../main/cache/fake-clock';
import { unpackedBatch } from '../../../shared/protocol/packed-rows';
import type { DeltaBatch } from '../../../shared/protocol/server-messages';
import { row } from './fixtures';

const rowsNamed = (...keys: string[]) => keys.map((key) => row(key, '1', { labels: { app: key } }));

describe('encoded rows (a travel moment passed through main as text)', () => {
  it('are written into a batch message as the text of the batch it stands for', () => {
    const chunks = [encodeRows(rowsNamed('a', 'b')), encodeRows([]), encodeRows(rowsNamed('c'))];
    const batch = { type: 'batch' as const, subscriptionId: 'replay1', seq: 3, replace: true, deletes: [] };
    const message = { ...batch, encoded: chunks };
    const value = messageValue(message);
    // The socket's text parses to the value a port would carry, and the renderer unpacks it into the
    // rows themselves, in order.
    expect(JSON.parse(messageText(message))).toEqual(JSON.parse(JSON.stringify(value)));
    expect(unpackedBatch(JSON.parse(messageText(message)) as DeltaBatch)).toEqual({
      ...batch,
      upserts: rowsNamed('a', 'b', 'c'),
    });
  });

  it('go out of a BatchStream in whole chunks, as many as fit a batch, the last with the snapshot end', () => {
    const sent: OutgoingBatch[] = [];
    const batches = new BatchStream({
      subscriptionId: 'replay1',
      clock: new FakeClock(),
      send: (batch) => sent.push(batch),
      maxBatchRows: 4,
    });
    const snapshot = batches.openSnapshot();
    snapshot.add(encodeRows(rowsNamed('a', 'b')));
    snapshot.add(encodeRows(rowsNamed('c', 'd')));
    // Four rows fit one batch, but they may be the moment's last: they wait.
    expect(sent).toHaveLength(0);
    snapshot.add(encodeRows(rowsNamed('e', 'f', 'g', 'h', 'i')));
    snapshot.add(encodeRows(rowsNamed('j')));
    snapshot.end();
    const shapes = sent.map((batch) => {
      const value = unpackedBatch(messageValue(batch) as DeltaBatch) as DeltaBatch;
      return [value.upserts.map((upsert) => upsert.key).join(''), batch.replace, batch.snapshotEnd];
    });
    // A chunk larger than a batch is not cut.
    expect(shapes).toEqual([
      ['abcd', true, undefined],
      ['efghi', undefined, undefined],
      ['j', undefined, true],
    ]);
  });
});
