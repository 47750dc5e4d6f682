// A row frame reads back the rows it was written with, whatever its columns' dictionaries hold (one
// digit a row, two, three), as ASCII text when its values are; and a frame the writer before digits
// wrote (`codes`, one character a row past U+007F for a large dictionary, or `indexes`) still reads.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { FrameRow, StoredFrame } from '../../../main/history/row-frame-codec';
import {
  codeOffset,
  digitAlphabet,
  encodeRowFrame,
  printerSignature,
} from '../../../main/history/row-frame-codec';
import { DecodedRowFrame } from '../../../main/history/row-frame-decoder';
import { printerFor } from '../../../shared/kinds/columns';
import type { Row } from '../../../shared/protocol/row';

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
  const frame = new DecodedRowFrame(blob, signature);
  return Array.from({ length: frame.objects.length }, (_, at) => ({
    object: frame.objects[at],
    change: frame.changes[at],
    row: frame.row(at),
  }));
}

/** The stored frame of `blob`, as JSON. */
const stored = (blob: Uint8Array) => JSON.parse(inflateRawSync(blob).toString('utf8')) as StoredFrame;

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
  it('reads back dictionaries of one, two and three digits a row', () => {
    // 100 namespaces (two digits), 8,400 label sets (three: past 91 * 91), 3 nodes (one).
    const rows = frameRows(16_800, 100, 8_400, 3);
    const blob = encodeRowFrame(rows, signature);
    const frame = stored(blob);
    expect(frame.namespace).toMatchObject({ width: 2 });
    expect(frame.labels).toMatchObject({ width: 3 });
    expect(frame.node).toMatchObject({ width: 1 });
    expect(JSON.stringify(decodedRows(blob))).toBe(JSON.stringify(rows));
  });

  it('writes ASCII text when the values are ASCII, however large a dictionary', () => {
    const blob = encodeRowFrame(frameRows(5_000, 300, 2_000, 200), signature);
    const text = inflateRawSync(blob);
    expect(text.every((byte) => byte < 0x80)).toBe(true);
  });

  it("reads the older writer's frames: codes past U+007F, and indexes", () => {
    const rows = frameRows(2_000, 100, 900, 3);
    const older = asOlderWriter(encodeRowFrame(rows, signature), 'codes');
    const frame = stored(older);
    expect(frame.namespace).toHaveProperty('codes');
    expect(inflateRawSync(older).some((byte) => byte >= 0x80)).toBe(true);
    expect(JSON.stringify(decodedRows(older))).toBe(JSON.stringify(rows));
    const indexed = asOlderWriter(encodeRowFrame(rows, signature), 'indexes');
    expect(stored(indexed).labels).toHaveProperty('indexes');
    expect(JSON.stringify(decodedRows(indexed))).toBe(JSON.stringify(rows));
  });

  it('refuses digits that are not a position a row in the dictionary', () => {
    const blob = encodeRowFrame(frameRows(200, 100, 10, 3), signature);
    const frame = stored(blob) as unknown as { namespace: { dictionary: unknown[]; digits: string } };
    const damaged = (digits: string) =>
      deflateRawSync(JSON.stringify({ ...frame, namespace: { ...frame.namespace, digits } }));
    const digits = frame.namespace.digits;
    expect(() => new DecodedRowFrame(damaged(digits.slice(1)), signature)).toThrow(/value per row/);
    expect(() => new DecodedRowFrame(damaged(`\\${digits.slice(1)}`), signature)).toThrow(/value per row/);
    // 'p' twice: position 77 * 91 + 77, past the 100 namespaces.
    expect(() => new DecodedRowFrame(damaged(`pp${digits.slice(2)}`), signature)).toThrow(/value per row/);
    expect(decodedRows(damaged(digits))).toHaveLength(200);
  });
});
