import { describe, expect, it } from 'vitest';
import { BatchStream } from '../../../main/bridge/batch-stream';
import { decodeRows, encodeRows, joinedRows } from '../../../main/bridge/encoded-rows';
import { messageText, messageValue } from '../../../main/bridge/outgoing-message';
import type { OutgoingBatch } from '../../../main/bridge/outgoing-message';
import { FakeClock } from '../../../main/cache/fake-clock';
import type { Row } from '../../../shared/protocol/row';
import { pick, row, seededRandom } from './fixtures';

const rowsNamed = (...keys: string[]) => keys.map((key) => row(key, '1', { labels: { app: key } }));

describe('encoded rows (a travel moment passed through main as text)', () => {
  it('joins chunks into one array without parsing them, empty ones included', () => {
    const parts = [encodeRows(rowsNamed('a', 'b')), encodeRows([]), encodeRows(rowsNamed('c'))];
    const joined = joinedRows(parts);
    expect(decodeRows(joined)).toEqual(rowsNamed('a', 'b', 'c'));
    expect(joined.keys).toEqual(['a', 'b', 'c']);
    expect(JSON.parse(joinedRows([encodeRows([]), encodeRows([])]).json)).toEqual([]);
  });

  it('is written into a batch message as the very text of the batch it stands for', () => {
    const random = seededRandom(9);
    for (let round = 0; round < 50; round++) {
      const rows: Row[] = Array.from({ length: Math.floor(random() * 5) }, (_, index) =>
        row(`ns/p${index}`, String(round), {
          labels: { quote: 'say "hi"\n', emoji: '☸' },
          node: pick(random, [undefined, 'node-1']),
          cells: [pick(random, [null, 1.5, 'x', true])],
        }),
      );
      const encoded = {
        type: 'batch' as const,
        subscriptionId: 'replay1',
        seq: round + 1,
        ...(random() < 0.5 ? { replace: true } : {}),
        ...(random() < 0.5 ? { snapshotEnd: true } : {}),
        upserts: encodeRows(rows),
        deletes: [],
      };
      const value = messageValue(encoded);
      // The renderer parses what it is sent: the encoded message reads back as the batch of rows.
      expect(JSON.parse(messageText(encoded))).toEqual(JSON.parse(JSON.stringify(value)));
      expect(value).toEqual({ ...encoded, upserts: JSON.parse(JSON.stringify(rows)) });
    }
  });

  it('goes out of a BatchStream in whole chunks joined up to a batch, the last with the snapshot end', () => {
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
      const value = messageValue(batch);
      return [
        value.type === 'batch' && value.upserts.map((upsert) => upsert.key).join(''),
        batch.replace,
        batch.snapshotEnd,
      ];
    });
    // A chunk larger than a batch is not cut.
    expect(shapes).toEqual([
      ['abcd', true, undefined],
      ['efghi', undefined, undefined],
      ['j', undefined, true],
    ]);
  });
});
