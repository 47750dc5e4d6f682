import { describe, expect, it } from 'vitest';
import { batchBytes } from '../../../main/bridge/batch-bytes';
import { messageText } from '../../../main/bridge/outgoing-message';
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

describe('a batch as the bytes of its JSON (what the WebSocket sends)', () => {
  it('parses to the very message messageText writes, whatever the rows hold', () => {
    const random = seededRandom(11);
    for (let round = 0; round < 60; round++) {
      const rows: Row[] = Array.from({ length: Math.floor(random() * 6) }, (_, index) =>
        row(`ns/p${index}`, String(round), {
          labels: pick<Record<string, string>>(random, [
            { app: 'a' },
            { quote: 'say "hi"\n', emoji: '☸ 😀', accent: 'é' },
          ]),
          node: pick(random, [undefined, 'node-1']),
          cells: [pick(random, [null, 1.5, 'x', true, '\u2028', 'lone \ud800'])],
        }),
      );
      const batch = batchOf(
        rows,
        pick(random, [{}, { replace: true }, { snapshotEnd: true, base: { subscriptionId: 'b', seq: 2 } }]),
      );
      const bytes = batchBytes(batch);
      expect(JSON.parse(bytes.toString('utf8'))).toEqual(JSON.parse(messageText(batch)));
      // Byte for byte the UTF-8 of JSON.stringify's text with the upserts member last.
      const { upserts, ...envelope } = batch;
      expect(bytes.equals(Buffer.from(JSON.stringify({ ...envelope, upserts })))).toBe(true);
    }
  });

  it('grows past its first guess when rows are mostly characters of several bytes', () => {
    // 64 KiB of slack would hold a few such rows; 200 rows of 1,000 three-byte characters need 600 KB.
    const wide = '☸'.repeat(1_000);
    const rows = Array.from({ length: 200 }, (_, index) => row(`ns/p${index}`, '1', { labels: { wide } }));
    const batch = batchOf(rows);
    const bytes = batchBytes(batch);
    expect(bytes.length).toBe(Buffer.byteLength(messageText(batch)));
    expect(JSON.parse(bytes.toString('utf8'))).toEqual(JSON.parse(messageText(batch)));
  });
});
