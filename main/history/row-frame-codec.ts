// How a row frame is stored: the table rows of a set of changes (each row the projection of the
// version its change holds), as columns rather than rows, one JSON text deflated once for the frame.
// Columns keep alike values together (namespaces, labels, node names, a status word) so that a value
// many rows share is written, parsed and held once: the reader parses a few bytes per row where the
// rows' own JSON is about 500, and rows it does not need are never built (see DecodedRowFrame).
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { KindPrinter } from '../../shared/kinds/columns';
import type { CellValue, OwnerSummary, Row } from '../../shared/protocol/row';
import { objectKey } from '../../shared/protocol/row';

/** One row of a frame: the change whose version it projects, and that change's object. */
export interface FrameRow {
  readonly object: number;
  readonly change: number;
  readonly row: Row;
}

/**
 * A column: `values` row by row, or `lines` (strings that hold no line break, one per line), or
 * `dictionary` and each row's index into it (a column whose values repeat), as `codes` (one character
 * a row, its code minus codeOffset) or `indexes`, or `sameAsName` (a printer's Name cell: the row's
 * name, stored once). JSON.parse builds each string or number of an array anew, where a split makes
 * slices of one string and codes are read off one: 150,000 uids cost 100-200 ms parsed, a few split.
 */
type Column =
  | { readonly values: unknown[] }
  | { readonly lines: string }
  | { readonly dictionary: unknown[]; readonly codes: string }
  | { readonly dictionary: unknown[]; readonly indexes: number[] }
  | { readonly sameAsName: true };

/**
 * Codes start past the characters JSON escapes (controls, '"'), so a column of a few values is a
 * plain ASCII string. Any code reads back (JSON escapes a lone surrogate as \udxxx).
 */
const codeOffset = 0x23;
const maximumCode = 0xffff;

interface StoredFrame {
  /** The printer's signature (printerSignature): rows of another printer are not this build's rows. */
  readonly printer: string;
  readonly objects: number[];
  readonly changes: number[];
  readonly uid: Column;
  /** The rows' keys ("namespace/name" or "name"): the name is the key past its namespace. */
  readonly key: Column;
  readonly namespace: Column;
  readonly resourceVersion: Column;
  readonly labels: Column;
  readonly owners: Column;
  /** null for undefined. */
  readonly node: Column;
  /** null for undefined. */
  readonly status: Column;
  readonly createdAt: Column;
  readonly cellCount: Column;
  /** Column i holds cell i of every row that has one (cellCount says how many each row has). */
  readonly cells: Column[];
}

/**
 * Whether `row` reads back from JSON as it is: a number JSON cannot hold (NaN, an infinity, -0) would
 * come back as another value, so such a row is left out of the frame (its version is decoded instead).
 */
export function storable(row: Row): boolean {
  if (row.key !== objectKey(row.namespace, row.name)) return false;
  if (!Number.isFinite(row.createdAt) || Object.is(row.createdAt, -0)) return false;
  for (const cell of row.cells)
    if (typeof cell === 'number' && (!Number.isFinite(cell) || Object.is(cell, -0))) return false;
  return true;
}

/** Rows whose values repeat at most this often are stored as they are, not through a dictionary. */
const dictionaryRatio = 0.5;

function column(values: readonly unknown[], keyOf: (value: unknown) => unknown = (value) => value): Column {
  const positions = new Map<unknown, number>();
  const dictionary: unknown[] = [];
  const indexes: number[] = new Array<number>(values.length);
  for (let index = 0; index < values.length; index++) {
    const value = values[index];
    const key = keyOf(value);
    let position = positions.get(key);
    if (position === undefined) {
      position = dictionary.length;
      positions.set(key, position);
      dictionary.push(value);
      // Mostly distinct values (names, uids): the dictionary would only add indexes.
      if (dictionary.length > values.length * dictionaryRatio + 16) return distinct(values);
    }
    indexes[index] = position;
  }
  if (dictionary.length > maximumCode - codeOffset) return { dictionary, indexes };
  let codes = '';
  for (let index = 0; index < indexes.length; index += 4096) {
    const chunk = indexes.slice(index, index + 4096).map((position) => position + codeOffset);
    codes += String.fromCharCode(...chunk);
  }
  return { dictionary, codes };
}

/** A column of values that seldom repeat: as lines when they are strings that allow it. */
function distinct(values: readonly unknown[]): Column {
  const lines = values.every((value) => typeof value === 'string' && !value.includes('\n'));
  return lines && values.length > 0 ? { lines: values.join('\n') } : { values: [...values] };
}

/** A column of JSON objects (labels, owners): alike by their JSON text. */
function objectColumn(values: readonly unknown[]): Column {
  return column(values, (value) => JSON.stringify(value));
}

/**
 * What names a kind's printer in a frame: its columns. A build whose printer prints other columns
 * projects other rows, so its reader ignores the frames (and decodes versions, as for an older file).
 */
export function printerSignature(printer: KindPrinter): string {
  return JSON.stringify(printer.columns);
}

export function encodeRowFrame(rows: readonly FrameRow[], printer: string): Buffer {
  const pick = <T>(read: (row: Row) => T): T[] => rows.map((entry) => read(entry.row));
  const names = pick((row) => row.name);
  const cellColumns: Column[] = [];
  const widest = rows.reduce((most, entry) => Math.max(most, entry.row.cells.length), 0);
  for (let cell = 0; cell < widest; cell++) {
    const values: CellValue[] = [];
    let sameAsName = true;
    for (const [index, { row }] of rows.entries()) {
      if (cell >= row.cells.length) continue;
      values.push(row.cells[cell]);
      sameAsName &&= row.cells[cell] === names[index];
    }
    cellColumns.push(sameAsName && values.length === rows.length ? { sameAsName: true } : column(values));
  }
  const stored: StoredFrame = {
    printer,
    objects: rows.map((entry) => entry.object),
    changes: rows.map((entry) => entry.change),
    // One object's uid and key each, and resourceVersions that seldom repeat: a dictionary would be
    // built for half the rows and dropped (see column).
    uid: distinct(pick((row) => row.uid)),
    key: distinct(pick((row) => row.key)),
    namespace: column(pick((row) => row.namespace)),
    resourceVersion: distinct(pick((row) => row.resourceVersion)),
    labels: objectColumn(pick((row) => row.labels)),
    owners: objectColumn(pick((row) => row.owners)),
    node: column(pick((row) => row.node ?? null)),
    status: column(pick((row) => row.status ?? null)),
    createdAt: column(pick((row) => row.createdAt)),
    cellCount: column(pick((row) => row.cells.length)),
    cells: cellColumns,
  };
  return deflateRawSync(JSON.stringify(stored));
}

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

/**
 * A frame read back: which changes it holds rows of, each row built when first asked for (a delta
 * frame holds rows that later changes replaced, which a moment never needs).
 */
export class DecodedRowFrame {
  /** Row by row: the object and the change whose version the row projects. */
  readonly objects: readonly number[];
  readonly changes: readonly number[];
  private readonly built: (Row | undefined)[];
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
    this.built = new Array<Row | undefined>(length);
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

  /** The row at `index`, built once. */
  row(index: number): Row {
    const known = this.built[index];
    if (known !== undefined) return known;
    const columns = this.columns;
    const key = columns.key(index) as string;
    const namespace = columns.namespace(index) as string;
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
    const row: Row = {
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
    this.built[index] = row;
    return row;
  }
}
