import { describe, expect, it } from 'vitest';
import { BatchStream } from '../../../main/bridge/batch-stream';
import { decodeRows, encodeRows, joinedRows } from '../../../main/bridge/encoded-rows';
import { messageText, messageValue } from '../../../main/bridge/outgoing-message';
import { serverMessageOf } from '../../../renderer/transport/websocket-link';
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

  it('joins chunks written under other layouts by writing them again under one', () => {
    const scheduled = [row('ns/a', '1', { node: 'n1', cells: ['n1'] })];
    const pending = [row('ns/b', '1', { cells: ['<none>'] })];
    const parts = [encodeRows(scheduled), encodeRows(pending)];
    expect(parts[0].layout).not.toEqual(parts[1].layout);
    const joined = joinedRows(parts);
    expect(decodeRows(joined)).toEqual([...scheduled, ...pending]);
    expect(joined.keys).toEqual(['ns/a', 'ns/b']);
  });

  it('writes a cell that does not repeat the field its fixed layout names there boxed', () => {
    const layout = { cellFields: ['name' as const, 'node' as const] };
    const rows = [
      row('ns/a', '1', { name: 'a', node: 'n1', cells: ['a', 'n1'] }),
      row('ns/b', '1', { name: 'b', cells: ['b', '<none>'] }),
    ];
    const encoded = encodeRows(rows, layout);
    expect(JSON.parse(encoded.json)).toEqual([
      expect.arrayContaining([[0, 0]]),
      expect.arrayContaining([[0, ['<none>']]]),
    ]);
    expect(decodeRows(encoded)).toEqual(rows);
    expect(() => decodeRows({ ...encoded, json: encoded.json.replace('["<none>"]', '{}') })).toThrow();
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
      // The page decodes what it is sent (a batch of tuples, validated): the encoded message reads
      // back as the batch of rows, as does the value a MessagePort carries.
      const text = messageText(encoded);
      expect(JSON.parse(text)).toHaveProperty('tuples');
      expect(serverMessageOf(text)).toEqual(value);
      expect(value).toEqual({ ...encoded, upserts: rows });
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
