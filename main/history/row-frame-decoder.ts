// Reads a row frame back (see row-frame-codec.ts for how it is stored): which changes it holds rows
// of, each row built when asked for.
import { inflateRawSync } from 'node:zlib';
import type { CellValue, OwnerSummary, Row } from '../../shared/protocol/row';
import type { Column, StoredFrame } from './row-frame-codec';
import { codeOffset, digitAlphabet } from './row-frame-codec';

/** A column's reader: row index -> value (values shared through a dictionary are one object). */
type ColumnReader = (index: number) => unknown;

/**
 * A reader of the column `stored` of `length` values; throws when it does not hold as many (a frame
 * damaged past what deflate and JSON notice is still never read as rows).
 */
function reader(stored: Column, length: number): ColumnReader {
  const fail = () => new Error('row frame: a column does not hold a value per row');
  if ('sameAsName' in stored) throw new Error('row frame: only a cell can be the name');
  if ('lines' in stored) {
    if (typeof stored.lines !== 'string') throw fail();
    const lines = stored.lines.split('\n');
    if (lines.length !== length) throw fail();
    return (index) => lines[index];
  }
  if ('values' in stored) {
    if (!Array.isArray(stored.values) || stored.values.length !== length) throw fail();
    return (index) => stored.values[index];
  }
  if (!Array.isArray(stored.dictionary)) throw fail();
  const dictionary = stored.dictionary;
  if ('digits' in stored) {
    const positions = digitPositions(stored.digits, stored.width, length, dictionary.length);
    if (positions === undefined) throw fail();
    return (index) => dictionary[positions[index]];
  }
  if ('codes' in stored) {
    const codes = stored.codes;
    if (typeof codes !== 'string' || codes.length !== length) throw fail();
    for (let index = 0; index < length; index++) {
      const position = codes.charCodeAt(index) - codeOffset;
      if (position < 0 || position >= dictionary.length) throw fail();
    }
    return (index) => dictionary[codes.charCodeAt(index) - codeOffset];
  }
  const indexes = stored.indexes;
  if (!Array.isArray(indexes) || indexes.length !== length) throw fail();
  for (const index of indexes)
    if (!Number.isInteger(index) || index < 0 || index >= dictionary.length) throw fail();
  return (index) => dictionary[indexes[index]];
}

/** Character code -> its value as a digit (see digitAlphabet), -1 for a character that is none. */
const digitValues = new Int8Array(128).fill(-1);
for (let value = 0; value < digitAlphabet.length; value++)
  digitValues[digitAlphabet.charCodeAt(value)] = value;

/**
 * The dictionary position of each of `length` rows, read once off `digits` (`width` digits a row), or
 * undefined when they are not that many positions below `count`.
 */
function digitPositions(
  digits: unknown,
  width: unknown,
  length: number,
  count: number,
): Uint32Array | undefined {
  if (typeof digits !== 'string' || !Number.isInteger(width) || (width as number) < 1) return undefined;
  if (digits.length !== length * (width as number)) return undefined;
  const base = digitAlphabet.length;
  const positions = new Uint32Array(length);
  for (let row = 0, at = 0; row < length; row++) {
    let position = 0;
    for (const end = at + (width as number); at < end; at++) {
      const code = digits.charCodeAt(at);
      const value = code < 128 ? digitValues[code] : -1;
      if (value < 0) return undefined;
      position = position * base + value;
    }
    if (position >= count) return undefined;
    positions[row] = position;
  }
  return positions;
}

/**
 * A frame read back: which changes it holds rows of, each row built when asked for (a delta frame
 * holds rows that later changes replaced, which a moment never needs).
 */
export class DecodedRowFrame {
  /** Row by row: the object and the change whose version the row projects. */
  readonly objects: readonly number[];
  readonly changes: readonly number[];
  private readonly columns: {
    readonly uid: ColumnReader;
    readonly key: ColumnReader;
    readonly namespace: ColumnReader;
    readonly resourceVersion: ColumnReader;
    readonly labels: ColumnReader;
    readonly owners: ColumnReader;
    readonly node: ColumnReader;
    readonly status: ColumnReader;
    readonly createdAt: ColumnReader;
    readonly cellCount: ColumnReader;
    /** 'name': the cell is the row's name. */
    readonly cells: (ColumnReader | 'name')[];
    /** Per cell column: row index -> its index in that column (rows may have fewer cells). */
    readonly cellRows: (number[] | undefined)[];
  };

  /** Throws when `blob` is not a frame of rows printed by `printer` (see printerSignature). */
  constructor(blob: Uint8Array, printer: string) {
    const stored = JSON.parse(inflateRawSync(blob).toString('utf8')) as StoredFrame;
    if (!Array.isArray(stored.objects) || !Array.isArray(stored.changes) || !Array.isArray(stored.cells))
      throw new Error('row frame: not a row frame');
    if (stored.printer !== printer) throw new Error('row frame: printed by another printer');
    if (stored.objects.length !== stored.changes.length)
      throw new Error('row frame: columns differ in length');
    this.objects = stored.objects;
    this.changes = stored.changes;
    const length = stored.changes.length;
    const cellCount = reader(stored.cellCount, length);
    // A row with fewer cells than the widest leaves no value in the columns past its last cell.
    let cellRows: (number[] | undefined)[] = stored.cells.map(() => undefined);
    const counts = stored.changes.map((_, index) => cellCount(index) as number);
    if (counts.some((count) => !Number.isInteger(count) || count < 0 || count > stored.cells.length))
      throw new Error('row frame: a row has more cells than the frame');
    const cellLengths = stored.cells.map(() => length);
    if (counts.some((count) => count !== stored.cells.length)) {
      for (const [cell] of cellLengths.entries())
        cellLengths[cell] = counts.reduce((rows, count) => rows + (count > cell ? 1 : 0), 0);
      cellRows = stored.cells.map((_, cell) => {
        const positions: number[] = [];
        let next = 0;
        for (const count of counts) positions.push(cell < count ? next++ : -1);
        return positions;
      });
    }
    this.columns = {
      uid: reader(stored.uid, length),
      key: reader(stored.key, length),
      namespace: reader(stored.namespace, length),
      resourceVersion: reader(stored.resourceVersion, length),
      labels: reader(stored.labels, length),
      owners: reader(stored.owners, length),
      node: reader(stored.node, length),
      status: reader(stored.status, length),
      createdAt: reader(stored.createdAt, length),
      cellCount,
      cells: stored.cells.map((cell, at) => ('sameAsName' in cell ? 'name' : reader(cell, cellLengths[at]))),
      cellRows,
    };
  }

  /** The key of the row at `index` ("namespace/name", or "name"). */
  key(index: number): string {
    return this.columns.key(index) as string;
  }

  /** The uid of the row at `index`: with its resourceVersion, which version of which object it is. */
  uid(index: number): string {
    return this.columns.uid(index) as string;
  }

  /** The resourceVersion of the row at `index`. */
  resourceVersion(index: number): string {
    return this.columns.resourceVersion(index) as string;
  }

  /** The namespace of the row at `index` ("" for an object of no namespace). */
  namespace(index: number): string {
    return this.columns.namespace(index) as string;
  }

  /**
   * The row at `index`, built anew at each call: a moment keeps what it needs of a row (its text, see
   * MomentRows), and rows kept here for every frame of a chain were only more for the garbage
   * collector to walk.
   */
  row(index: number): Row {
    const columns = this.columns;
    const key = this.key(index);
    const namespace = this.namespace(index);
    // The key is objectKey(namespace, name) (see storable).
    const name = namespace === '' ? key : key.slice(namespace.length + 1);
    const count = columns.cellCount(index) as number;
    // Pushed, not assigned into a sized array: a holey array is structured-cloned element by
    // element as a sparse one, where a packed one (as a printer's literal is) goes dense.
    const cells: CellValue[] = [];
    for (let cell = 0; cell < count; cell++) {
      const read = columns.cells[cell];
      const positions = columns.cellRows[cell];
      cells.push(read === 'name' ? name : (read(positions ? positions[index] : index) as CellValue));
    }
    const node = columns.node(index) as string | null;
    const status = columns.status(index) as string | null;
    // The fields in RowProjector's order, node and status present even when undefined: every row has
    // one shape (see RowProjector.project).
    return {
      key,
      uid: columns.uid(index) as string,
      name,
      namespace,
      resourceVersion: columns.resourceVersion(index) as string,
      labels: columns.labels(index) as Record<string, string>,
      owners: columns.owners(index) as OwnerSummary[],
      node: node ?? undefined,
      status: status ?? undefined,
      createdAt: columns.createdAt(index) as number,
      cells,
    };
  }
}
