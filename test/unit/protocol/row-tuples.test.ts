import { describe, expect, it } from 'vitest';
import { batchFromTuples, rowLayoutOf, rowTuple, rowsFromTuples } from '../../../shared/protocol/row-tuples';
import type { Row } from '../../../shared/protocol/row';
import { row } from '../bridge/fixtures';

const pod = (name: string, node: string | undefined, status: string): Row =>
  row(`ns/${name}`, '7', {
    labels: { app: 'web' },
    owners: [{ kind: 'ReplicaSet', name: 'web-1', uid: 'rs', controller: true }],
    node,
    status,
    createdAt: 1_000,
    cells: [name, status, 1_000, node ?? '<none>'],
  });

/** `rows` through JSON as the WebSocket carries them. */
const carried = (rows: Row[]) => {
  const layout = rowLayoutOf(rows);
  return JSON.parse(JSON.stringify({ layout, tuples: rows.map((each) => rowTuple(each, layout)) })) as {
    layout: unknown;
    tuples: unknown[][];
  };
};

describe('rows as tuples', () => {
  it('leaves a cell out only when every row of the batch repeats the same field there', () => {
    const scheduled = [pod('a', 'node-1', 'Running'), pod('b', 'node-2', 'Pending')];
    expect(rowLayoutOf(scheduled)).toEqual({ cellFields: ['name', 'status', 'createdAt', 'node'] });
    // One pod not yet on a node shows "<none>" where the others show their node: the cell is written.
    const mixed = [...scheduled, pod('c', undefined, 'Pending')];
    expect(rowLayoutOf(mixed).cellFields).toEqual(['name', 'status', 'createdAt', null]);
    const { layout, tuples } = carried(mixed);
    expect(rowsFromTuples(tuples, layout)).toEqual(mixed);
  });

  it('writes the cells of rows whose cell counts differ, and keys whatever they are', () => {
    const rows = [row('ns/a', '1', { cells: ['a'] }), row('odd-key', '1', { name: 'b', cells: ['b', 2] })];
    const layout = rowLayoutOf(rows);
    expect(layout).toEqual({ cellFields: [] });
    const { tuples } = carried(rows);
    expect(rowsFromTuples(tuples, layout)).toEqual(rows);
  });

  it('boxes, under a layout fixed ahead of the rows, a cell that does not repeat its field', () => {
    // A travel's rows are written under their kind's layout whatever they hold (replay-layout.ts).
    const layout = { cellFields: ['name', 'status', 'createdAt', 'node'] as const };
    const rows = [
      pod('a', 'node-1', 'Running'),
      pod('b', undefined, 'Pending'),
      { ...pod('c', 'node-2', 'Running'), status: undefined },
    ];
    // A cell whose own value is 0 (what a cell left out holds) is boxed too.
    rows[1].cells[1] = 0;
    // The decoder fills the cells it is given in place: every read parses tuples of its own.
    const text = JSON.stringify(rows.map((each) => rowTuple(each, layout)));
    const tuples = JSON.parse(text) as unknown[][];
    expect(tuples.map((tuple) => tuple[10])).toEqual([
      [0, 0, 0, 0],
      [0, [0], 0, ['<none>']],
      [0, ['Running'], 0, 0],
    ]);
    expect(rowsFromTuples(tuples, layout)).toEqual(rows);
    const boxed = (value: unknown) => {
      const copy = (JSON.parse(text) as unknown[][])[1];
      (copy[10] as unknown[])[3] = value;
      return copy;
    };
    expect(rowsFromTuples([boxed(['n'])], layout)?.[0].cells[3]).toBe('n');
    for (const bad of [[], ['a', 'b'], [{ x: 1 }], [['n']], 1, 'n'])
      expect(rowsFromTuples([boxed(bad)], layout), JSON.stringify(bad)).toBeUndefined();
  });

  it('refuses tuples that are not what main writes', () => {
    const { layout, tuples } = carried([pod('a', 'node-1', 'Running')]);
    // The decoder fills the cells it is given in place: every case gets tuples of its own.
    const good = () => carried([pod('a', 'node-1', 'Running')]).tuples[0];
    const spoiled = (slot: number, value: unknown) =>
      good().map((each, index) => (index === slot ? value : each));
    const owner = { kind: 'ReplicaSet', name: 'web-1', uid: 'rs', controller: true };
    expect(rowsFromTuples(tuples, layout)).toEqual([pod('a', 'node-1', 'Running')]);
    for (const bad of [
      spoiled(0, 0), // the key
      spoiled(1, 5), // uid
      spoiled(2, null), // name
      spoiled(5, { app: 3 }), // a label value
      spoiled(5, ['app']), // labels
      spoiled(6, [{ ...owner, controller: 'yes' }]),
      spoiled(6, [{ kind: 'ReplicaSet', name: 'web-1', uid: 'rs' }]),
      spoiled(6, [null]),
      spoiled(6, owner), // not a list
      spoiled(7, 1), // node
      spoiled(9, '1000'), // createdAt
      spoiled(10, [0, 'Running', 0, 0]), // a cell left out (it repeats the row's status) written
      spoiled(10, [0, 0, 0]), // a cell missing
      spoiled(10, '0000'),
      good().slice(0, 10), // no cells
      [...good(), 1],
    ])
      expect(rowsFromTuples([bad], layout)).toBeUndefined();
    expect(rowsFromTuples({}, layout)).toBeUndefined();
    expect(rowsFromTuples([good()], { cellFields: 'name' })).toBeUndefined();
    expect(rowsFromTuples([good()], { cellFields: ['uid', null, null, null] })).toBeUndefined();
    // A written cell that is no cell value.
    const written = carried([pod('a', 'node-1', 'Running'), pod('b', undefined, 'Running')]);
    const withCell = written.tuples[0];
    withCell[10] = [0, 0, 0, { x: 1 }];
    expect(rowsFromTuples([withCell], written.layout)).toBeUndefined();
    // A cell said to repeat the node of a row that has none.
    expect(rowsFromTuples([spoiled(7, null)], layout)).toBeUndefined();
  });

  it('gives back a batch only when its subscription, seq and deletes are as main writes them', () => {
    const { layout, tuples } = carried([pod('a', 'node-1', 'Running')]);
    const message = { type: 'batch', subscriptionId: 's', seq: 4, replace: true, deletes: ['ns/x'] };
    expect(batchFromTuples({ ...message, rowLayout: layout, tuples })).toEqual({
      ...message,
      upserts: [pod('a', 'node-1', 'Running')],
    });
    expect(batchFromTuples({ ...message, seq: '4', rowLayout: layout, tuples })).toBeUndefined();
    expect(batchFromTuples({ ...message, deletes: [1], rowLayout: layout, tuples })).toBeUndefined();
    expect(batchFromTuples({ ...message, subscriptionId: 1, rowLayout: layout, tuples })).toBeUndefined();
    expect(batchFromTuples({ ...message, rowLayout: layout, tuples: [[]] })).toBeUndefined();
  });
});
