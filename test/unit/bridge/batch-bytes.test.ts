import { describe, expect, it } from 'vitest';
import { batchBytes } from '../../../main/bridge/batch-bytes';
import { messageText } from '../../../main/bridge/outgoing-message';
import { serverMessageOf } from '../../../renderer/transport/websocket-link';
import type { Row } from '../../../shared/protocol/row';
import type { DeltaBatch } from '../../../shared/protocol/server-messages';
import { pick, row, seededRandom } from './fixtures';

const batchOf = (upserts: Row[], extra: Partial<DeltaBatch> = {}): DeltaBatch => ({
  type: 'batch',
  subscriptionId: 's1',
  seq: 3,
  ...extra,
  upserts,
  deletes: ['ns/gone'],
});

/** A pod's row as main projects it: name, status, age and node again in its cells. */
function podRow(index: number): Row {
  const name = `api-${index}-7f9c-x${index}`;
  return row(`team-${index % 3}/${name}`, String(100 + index), {
    labels: { app: `api-${index}` },
    owners: [{ kind: 'ReplicaSet', name: `api-${index}-7f9c`, uid: `rs-${index}`, controller: true }],
    node: `node-${index % 7}`,
    status: 'Running',
    createdAt: 1_700_000_000_000 + index,
    cells: [name, '1/1', 'Running', 0, 1_700_000_000_000 + index, '10.0.0.1', `node-${index % 7}`, '<none>'],
  });
}

describe('a batch as the bytes of its JSON, rows as tuples (what the WebSocket sends)', () => {
  it('decodes in the renderer to the very batch main sent, whatever the rows hold', () => {
    const random = seededRandom(11);
    for (let round = 0; round < 80; round++) {
      const rows: Row[] = Array.from({ length: Math.floor(random() * 6) }, (_, index) => {
        const name = pick(random, [`p${index}`, 'node-1', 'Running']);
        return row(pick(random, [`ns/${name}`, name, `other/${name}`]), String(round), {
          name,
          namespace: pick(random, ['ns', '']),
          labels: pick<Record<string, string>>(random, [
            {},
            { app: 'a' },
            { quote: 'say "hi"\n', emoji: '☸ 😀', accent: 'é' },
          ]),
          owners: pick(random, [
            [],
            [{ kind: 'Job', name: 'j', uid: 'u1', controller: false }],
            [
              { kind: 'ReplicaSet', name: 'r', uid: 'u2', controller: true },
              { kind: 'Node', name: 'n', uid: 'u3', controller: false },
            ],
          ]),
          node: pick(random, [undefined, 'node-1']),
          status: pick(random, [undefined, 'Running', 'Pending']),
          createdAt: pick(random, [0, 1_700_000_000_000]),
          // Cells that repeat a field in some rows and not others, of several lengths.
          cells: pick(random, [
            [name],
            [name, pick(random, ['node-1', 'Running', null])],
            [pick(random, [null, 1.5, 'x', true, '\u2028', 'lone \ud800', 0, 1_700_000_000_000]), name],
          ]),
        });
      });
      const batch = batchOf(
        rows,
        pick(random, [{}, { replace: true }, { snapshotEnd: true, base: { subscriptionId: 'b', seq: 2 } }]),
      );
      expect(serverMessageOf(batchBytes(batch).toString('utf8'))).toEqual(batch);
    }
  });

  it('writes a pod without member names, and its cells without the fields they repeat', () => {
    const batch = batchOf(Array.from({ length: 100 }, (_, index) => podRow(index)));
    const bytes = batchBytes(batch);
    const text = bytes.toString('utf8');
    expect(serverMessageOf(text)).toEqual(batch);
    expect(JSON.parse(text)).toMatchObject({
      rowLayout: {
        cellFields: ['name', null, 'status', null, 'createdAt', null, 'node', null],
      },
    });
    // The same batch as objects (what the WebSocket carried before) is ~1.6 times as long.
    expect(bytes.length).toBeLessThan(Buffer.byteLength(messageText(batch)) * 0.7);
  });

  it('is dropped by the page when a tuple is not what main writes; other messages pass as they are', () => {
    const text = batchBytes(batchOf([podRow(1), podRow(2)])).toString('utf8');
    expect(serverMessageOf(text.replace('"Running"', '7'))).toBeUndefined();
    expect(serverMessageOf(text.slice(0, -2))).toBeUndefined();
    expect(serverMessageOf('{"type":"rejected","reason":"r"}')).toEqual({ type: 'rejected', reason: 'r' });
    // A travel's encoded rows still come as objects (messageText).
    const objects = batchOf([podRow(3)]);
    expect(serverMessageOf(messageText(objects))).toEqual(objects);
  });

  it('grows past its first guess when rows are mostly characters of several bytes', () => {
    // 64 KiB of slack would hold a few such rows; 200 rows of 1,000 three-byte characters need 600 KB.
    const wide = '☸'.repeat(1_000);
    const rows = Array.from({ length: 200 }, (_, index) => row(`ns/p${index}`, '1', { labels: { wide } }));
    const batch = batchOf(rows);
    const bytes = batchBytes(batch);
    expect(bytes.length).toBeGreaterThan(600_000);
    expect(serverMessageOf(bytes.toString('utf8'))).toEqual(batch);
  });
});
