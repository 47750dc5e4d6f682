// A row frame holds each row as the text a travel sends (its tuple under the kind's layout), one line
// a row, and reads back that text and the row exactly, under its own layout or another; as ASCII
// text when the values are. Frames of older recordings, every field a column, still read: whatever
// their dictionaries hold (one digit a row, two, three), and as the writer before digits wrote them
// (`codes`, one character a row past U+007F for a large dictionary, or `indexes`).
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { StoredFrame, StoredTupleFrame } from '../../../main/history/row-frame-codec';
import {
  codeOffset,
  digitAlphabet,
  encodeRowFrame,
  printerSignature,
  storable,
} from '../../../main/history/row-frame-codec';
import { decodeRowFrame } from '../../../main/history/row-frame-decoder';
import { rowText } from '../../../main/history/replay-layout';
import { printerFor } from '../../../shared/kinds/columns';
import type { Row } from '../../../shared/protocol/row';
import type { RowLayout } from '../../../shared/protocol/row-tuples';
import type { FrameRow } from './column-frames';
import { encodeColumnFrame } from './column-frames';

const printer = printerFor({ group: '', resource: 'pods' });
const signature = printerSignature(printer);

/**
 * `count` rows in `namespaces` namespaces, with `labelSets` label sets among them (each used by two
 * rows or more, so the labels column is a dictionary) and `nodes` nodes, in the fields' order of
 * RowProjector (its rows, built here: projecting 16,800 pods took seconds of a loaded machine).
 */
function frameRows(count: number, namespaces: number, labelSets: number, nodes: number): FrameRow[] {
  return Array.from({ length: count }, (_, index) => {
    const namespace = `ns-${index % namespaces}`;
    const name = `app${index % 50}-7d9f8c6b5-${index}`;
    const row: Row = {
      key: `${namespace}/${name}`,
      uid: `uid-${index}`,
      name,
      namespace,
      resourceVersion: String(index + 7),
      labels: { app: `app${index % 50}`, set: `s${index % labelSets}` },
      owners: [
        {
          kind: 'ReplicaSet',
          name: `app${index % 50}-7d9f8c6b5`,
          uid: `owner-${index % 50}`,
          controller: true,
        },
      ],
      node: index % 10 === 0 ? undefined : `node-${index % nodes}`,
      status: index % 3 === 0 ? 'Pending' : 'Running',
      createdAt: 1_700_000_000_000 + (index % 7),
      cells: index % 5 === 0 ? [name, index % 4] : [name, index % 4, `${index % 9}m`],
    };
    return { object: index + 1, change: 1000 + index, row };
  });
}

function decodedRows(blob: Uint8Array) {
  const frame = decodeRowFrame(blob, signature);
  return Array.from({ length: frame.objects.length }, (_, at) => ({
    object: frame.objects[at],
    change: frame.changes[at],
    row: frame.row(at),
  }));
}

/** The stored frame of `blob` (an older writer's), as JSON. */
const stored = (blob: Uint8Array) => JSON.parse(inflateRawSync(blob).toString('utf8')) as StoredFrame;

/** The lines of the frame `blob` (a header, then a row a line). */
const lines = (blob: Uint8Array) => inflateRawSync(blob).toString('utf8').split('\n');

/** A layout of frameRows' three cells: the name repeats the row's; no others. */
const layout: RowLayout = { cellFields: ['name', null, null] };

/** `rows` as a frame of them under `layout` is written (see RowFrameWriter). */
function encoded(rows: readonly FrameRow[], layout: RowLayout): Buffer {
  const texts = rows.map(({ object, change, row }) => ({
    object,
    change,
    key: row.key,
    namespace: row.namespace,
    text: rowText(row, layout),
  }));
  return encodeRowFrame(texts, signature, layout);
}

/** frameRows with three cells each, as a printer's rows have as many cells as it has columns. */
const threeCells = (rows: FrameRow[]) => rows.filter(({ row }) => row.cells.length === 3);

/**
 * `blob` as the writer before digits wrote it: each `digits` column as `codes` (one character a row,
 * its position plus codeOffset), or as `indexes` (which it wrote past 65,500 values, here for any).
 */
function asOlderWriter(blob: Uint8Array, as: 'codes' | 'indexes'): Buffer {
  const frame = stored(blob) as unknown as Record<string, unknown>;
  const older = (column: Record<string, unknown>) => {
    if (!('digits' in column)) return column;
    const { dictionary, digits, width } = column as { dictionary: unknown[]; digits: string; width: number };
    const positions: number[] = [];
    for (let at = 0; at < digits.length; at += width) {
      let position = 0;
      for (let digit = 0; digit < width; digit++)
        position = position * digitAlphabet.length + digitAlphabet.indexOf(digits[at + digit]);
      positions.push(position);
    }
    if (as === 'indexes') return { dictionary, indexes: positions };
    return {
      dictionary,
      codes: positions.map((position) => String.fromCharCode(position + codeOffset)).join(''),
    };
  };
  for (const [name, column] of Object.entries(frame))
    if (column !== null && typeof column === 'object' && !Array.isArray(column))
      frame[name] = older(column as Record<string, unknown>);
  frame.cells = (frame.cells as Record<string, unknown>[]).map(older);
  return deflateRawSync(JSON.stringify(frame));
}

describe('row frame codec', () => {
  it('stores each row as its text under the layout, a line a row, and reads back texts and rows', () => {
    const rows = threeCells(frameRows(2_000, 100, 40, 3));
    // A pending pod's node is "<none>" in its cell where the field is undefined: written boxed.
    rows[1] = { ...rows[1], row: { ...rows[1].row, cells: ['other', 1, '2m'] } };
    // A key with characters JSON escapes (no API server accepts such a name, a recording may hold one).
    const name = 'we"ird\\na\nme';
    rows[2] = { ...rows[2], row: { ...rows[2].row, name, key: `ns-2/${name}`, cells: [name, 0, '1m'] } };
    const blob = encoded(rows, layout);
    const [header, ...texts] = lines(blob);
    expect((JSON.parse(header) as StoredTupleFrame).layout).toEqual(layout);
    expect(texts).toEqual(rows.map(({ row }) => rowText(row, layout)));
    expect(texts[1]).toContain('[["other"],');
    const frame = decodeRowFrame(blob, signature);
    expect(frame.objects).toEqual(rows.map(({ object }) => object));
    expect(frame.changes).toEqual(rows.map(({ change }) => change));
    for (const [at, { row }] of rows.entries()) {
      expect(frame.key(at)).toBe(row.key);
      expect(frame.namespace(at)).toBe(row.namespace);
      expect(frame.text(at, layout)).toBe(texts[at]);
      expect(frame.row(at)).toEqual(row);
    }
    // Asked under another layout (another build's), each row is written again under it.
    const free: RowLayout = { cellFields: [] };
    for (const [at, { row }] of rows.entries()) expect(frame.text(at, free)).toBe(rowText(row, free));
    expect(JSON.stringify(frame.row(5))).toBe(JSON.stringify(rows[5].row));
  });

  it('leaves out a row its layout cannot write back as it is', () => {
    const [two] = frameRows(1, 1, 1, 1);
    expect(two.row.cells).toHaveLength(2);
    expect(storable(two.row, layout)).toBe(false);
    expect(storable(two.row, { cellFields: [] })).toBe(true);
    expect(storable({ ...two.row, cells: [two.row.name, Number.NaN, 'x'] }, layout)).toBe(false);
    expect(storable({ ...two.row, cells: [two.row.name, 1, 'x'] }, layout)).toBe(true);
  });

  it('tells no text or row of a damaged line, and refuses a frame of too few lines', () => {
    const rows = threeCells(frameRows(100, 10, 10, 3));
    const [header, ...texts] = lines(encoded(rows, layout));
    texts[3] = texts[3].slice(0, -2);
    const frame = decodeRowFrame(deflateRawSync([header, ...texts].join('\n')), signature);
    expect(frame.row(3)).toBeUndefined();
    expect(frame.text(3, { cellFields: [] })).toBeUndefined();
    expect(frame.row(4)).toEqual(rows[4].row);
    const short = deflateRawSync([header, ...texts.slice(1)].join('\n'));
    expect(() => decodeRowFrame(short, signature)).toThrow(/value per row/);
    expect(() => decodeRowFrame(deflateRawSync(header), 'another printer')).toThrow(/another printer/);
    const empty = decodeRowFrame(encoded([], layout), signature);
    expect(empty.objects).toEqual([]);
  });

  it('reads back the older frames of one, two and three digits a row', () => {
    // 100 namespaces (two digits), 8,400 label sets (three: past 91 * 91), 3 nodes (one).
    const rows = frameRows(16_800, 100, 8_400, 3);
    const blob = encodeColumnFrame(rows, signature);
    const frame = stored(blob);
    expect(frame.namespace).toMatchObject({ width: 2 });
    expect(frame.labels).toMatchObject({ width: 3 });
    expect(frame.node).toMatchObject({ width: 1 });
    expect(JSON.stringify(decodedRows(blob))).toBe(JSON.stringify(rows));
  });

  it('writes ASCII text when the values are ASCII, however large a dictionary', () => {
    const blob = encoded(threeCells(frameRows(5_000, 300, 2_000, 200)), layout);
    expect(inflateRawSync(blob).every((byte) => byte < 0x80)).toBe(true);
    const older = encodeColumnFrame(frameRows(5_000, 300, 2_000, 200), signature);
    expect(inflateRawSync(older).every((byte) => byte < 0x80)).toBe(true);
  });

  it("reads the older writer's frames: codes past U+007F, and indexes", () => {
    const rows = frameRows(2_000, 100, 900, 3);
    const older = asOlderWriter(encodeColumnFrame(rows, signature), 'codes');
    const frame = stored(older);
    expect(frame.namespace).toHaveProperty('codes');
    expect(inflateRawSync(older).some((byte) => byte >= 0x80)).toBe(true);
    expect(JSON.stringify(decodedRows(older))).toBe(JSON.stringify(rows));
    const indexed = asOlderWriter(encodeColumnFrame(rows, signature), 'indexes');
    expect(stored(indexed).labels).toHaveProperty('indexes');
    expect(JSON.stringify(decodedRows(indexed))).toBe(JSON.stringify(rows));
  });

  it('refuses digits that are not a position a row in the dictionary', () => {
    const blob = encodeColumnFrame(frameRows(200, 100, 10, 3), signature);
    const frame = stored(blob) as unknown as { namespace: { dictionary: unknown[]; digits: string } };
    const damaged = (digits: string) =>
      deflateRawSync(JSON.stringify({ ...frame, namespace: { ...frame.namespace, digits } }));
    const digits = frame.namespace.digits;
    expect(() => decodeRowFrame(damaged(digits.slice(1)), signature)).toThrow(/value per row/);
    expect(() => decodeRowFrame(damaged(`\\${digits.slice(1)}`), signature)).toThrow(/value per row/);
    // 'p' twice: position 77 * 91 + 77, past the 100 namespaces.
    expect(() => decodeRowFrame(damaged(`pp${digits.slice(2)}`), signature)).toThrow(/value per row/);
    expect(decodedRows(damaged(digits))).toHaveLength(200);
  });
});
