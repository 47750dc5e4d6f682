import { describe, expect, it } from 'vitest';
import { packRows, unpackRows, unpackedBatch } from '../../../shared/protocol/packed-rows';
import type { Row } from '../../../shared/protocol/row';
import { pick, row, seededRandom } from '../bridge/fixtures';

function randomRows(random: () => number, count: number): Row[] {
  return Array.from({ length: count }, (_, index) =>
    row(`ns${Math.floor(random() * 3)}/p${index}`, String(Math.floor(random() * 9)), {
      labels: pick<Record<string, string>>(random, [{}, { app: 'web' }, { app: 'web', tier: 'say "hi"\n☸' }]),
      owners: pick(random, [[], [{ kind: 'ReplicaSet', name: 'web-1', uid: 'u1', controller: true }]]),
      node: pick(random, [undefined, 'node-1', 'node-2']),
      status: pick(random, [undefined, 'Running', 'Pending']),
      createdAt: pick(random, [0, 1_700_000_000_000]),
      cells: Array.from({ length: Math.floor(random() * 4) }, () =>
        pick(random, [null, 1, 1.5, '1', 'x', true, false]),
      ),
    }),
  );
}

/** What crosses: the packed rows as JSON, parsed on the other side. */
const crossed = (rows: readonly Row[]): unknown => JSON.parse(JSON.stringify(packRows(rows)));

describe('packed rows (a travel moment as columns)', () => {
  it('unpack to the rows packed, every field and cell, in order', () => {
    const random = seededRandom(21);
    for (let round = 0; round < 30; round++) {
      const rows = randomRows(random, Math.floor(random() * 40));
      const unpacked = unpackRows(crossed(rows)) as Row[];
      expect(unpacked).toEqual(rows);
      // One shape: node and status are fields of every row, undefined where the row has none.
      for (const unpackedRow of unpacked) expect(Object.keys(unpackedRow)).toContain('node');
    }
  });

  it('write a value many rows share once, and share one label map among them', () => {
    const rows = Array.from({ length: 100 }, (_, index) =>
      row(`ns/p${index}`, '1', { labels: { app: 'web' } }),
    );
    const packed = packRows(rows);
    expect(packed.values.filter((value) => JSON.stringify(value) === '{"app":"web"}')).toHaveLength(1);
    const unpacked = unpackRows(crossed(rows)) as Row[];
    expect(unpacked[0].labels).toBe(unpacked[99].labels);
  });

  it('answer why, never throwing, for malformed input', () => {
    const valid = crossed(randomRows(seededRandom(5), 10)) as Record<string, unknown[]>;
    const malformed: [string, unknown][] = [
      ['not an object', 'rows'],
      ['no values', { ...valid, values: undefined }],
      ['a short column', { ...valid, uid: valid.uid.slice(1) }],
      ['an index past the values', { ...valid, key: [valid.values.length, ...valid.key.slice(1)] }],
      ['a fractional index', { ...valid, name: [0.5, ...valid.name.slice(1)] }],
      [
        'a key that is not a string',
        { ...valid, values: [7, ...valid.values.slice(1)], key: valid.key.map(() => 0) },
      ],
      [
        'labels that are not a map of strings',
        { ...valid, values: [{ app: 1 }, ...valid.values.slice(1)], labels: valid.labels.map(() => 0) },
      ],
      [
        'a cell that is an object',
        { ...valid, values: [{}, ...valid.values.slice(1)], cells: valid.cells.map(() => 0) },
      ],
      ['cells past the end', { ...valid, cellCounts: valid.cellCounts.map(() => 99) }],
      ['cells of no row', { ...valid, cells: [...valid.cells, 0] }],
      ['a node index below -1', { ...valid, node: valid.node.map(() => -2) }],
    ];
    for (const [what, input] of malformed) {
      const result = unpackRows(input);
      expect(result, what).toHaveProperty('invalid');
    }
    // Random damage: any answer, but never an exception.
    const random = seededRandom(8);
    for (let round = 0; round < 500; round++) {
      const damaged = JSON.parse(JSON.stringify(valid)) as Record<string, unknown[]>;
      const column = pick(random, Object.keys(damaged));
      const at = Math.floor(random() * (damaged[column].length + 1));
      damaged[column][at] = pick(random, [-1, 1e9, 'x', null, {}, [], 2.5, true]);
      expect(() => unpackRows(damaged)).not.toThrow();
    }
  });

  it('drop a whole batch whose packed rows are malformed, and unpack a good one after its upserts', () => {
    const batch = { type: 'batch' as const, subscriptionId: 's', seq: 1, upserts: [row('a')], deletes: [] };
    expect(
      unpackedBatch({ ...batch, packed: [crossed([row('b')]) as never, 'junk' as never] }),
    ).toHaveProperty('invalid');
    expect(unpackedBatch({ ...batch, packed: [crossed([row('b')]) as never] })).toEqual({
      ...batch,
      upserts: [row('a'), row('b')],
    });
  });
});
