// How a row frame is stored: the table rows of a set of changes (each row the projection of the
// version its change holds), as columns rather than rows, one JSON text deflated once for the frame.
// Columns keep alike values together (namespaces, labels, node names, a status word) so that a value
// many rows share is written, parsed and held once: the reader parses a few bytes per row where the
// rows' own JSON is about 500, and rows it does not need are never built (see row-frame-decoder.ts).
import { deflateRawSync } from 'node:zlib';
import type { KindPrinter } from '../../shared/kinds/columns';
import type { CellValue, Row } from '../../shared/protocol/row';
import { objectKey } from '../../shared/protocol/row';

/** One row of a frame: the change whose version it projects, and that change's object. */
export interface FrameRow {
  readonly object: number;
  readonly change: number;
  readonly row: Row;
}

/**
 * A column: `values` row by row, or `lines` (strings that hold no line break, one per line), or
 * `dictionary` and each row's index into it (a column whose values repeat), as `digits` (`width`
 * digits a row, see digitAlphabet), or `sameAsName` (a printer's Name cell: the row's name, stored
 * once). JSON.parse builds each string or number of an array anew, where a split makes slices of one
 * string and digits are read off one: 150,000 uids cost 100-200 ms parsed, a few split.
 *
 * Read, never written any more (frames of older recordings): `codes`, one character a row (its code
 * minus codeOffset), and `indexes`. A code past U+007F made the frame's whole text a two-byte string:
 * UTF-8 decoded at half the speed of ASCII, parsed slower, and every string cut from it twice the size
 * (a hundred namespaces, or 500 label sets, were enough).
 */
export type Column =
  | { readonly values: unknown[] }
  | { readonly lines: string }
  | { readonly dictionary: unknown[]; readonly digits: string; readonly width: number }
  | { readonly dictionary: unknown[]; readonly codes: string }
  | { readonly dictionary: unknown[]; readonly indexes: number[] }
  | { readonly sameAsName: true };

/** The first code of the older `codes` columns: past the characters JSON escapes (controls, '"'). */
export const codeOffset = 0x23;

/**
 * The digits of a `digits` column, most significant first: the ASCII characters JSON writes as they
 * are ('#' to '~' but the backslash), so a frame of ASCII values is ASCII text, decoded and parsed as
 * one-byte strings.
 */
export const digitAlphabet = Array.from({ length: 0x7f - codeOffset }, (_, index) =>
  String.fromCharCode(codeOffset + index),
)
  .filter((digit) => digit !== '\\')
  .join('');

export interface StoredFrame {
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
  return { dictionary, ...digitsOf(indexes, dictionary.length) };
}

/** `indexes` (each below `count`) as digits, each `width` of them (the fewest that count them). */
function digitsOf(indexes: readonly number[], count: number): { digits: string; width: number } {
  const base = digitAlphabet.length;
  let width = 1;
  for (let reach = base; reach < count; reach *= base) width++;
  const codes: number[] = [];
  let digits = '';
  for (const index of indexes) {
    for (let place = width - 1; place >= 0; place--)
      codes.push(digitAlphabet.charCodeAt(Math.floor(index / base ** place) % base));
    if (codes.length >= 4096) {
      digits += String.fromCharCode(...codes);
      codes.length = 0;
    }
  }
  return { digits: digits + String.fromCharCode(...codes), width };
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
