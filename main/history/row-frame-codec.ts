// How a row frame is stored: the table rows of a set of changes (each row the projection of the
// version its change holds), deflated once for the frame. Each row is stored as the text a travel
// sends it as (its tuple under its kind's replay layout, see replay-layout.ts), a line a row after a
// JSON header of what a moment reads without it (objects, changes, namespaces; a row's key is its
// text's first value): a cold moment takes its rows' texts as they are, where rows built from
// columns and stringified again were a quarter of its time at 150,000 pods (session 32). The header's
// columns (a dictionary of the values a column repeats, or lines) are the older frames' forms: until
// session 32 every field of a row was a column (StoredFrame, still read, never written).
import { deflateRawSync } from 'node:zlib';
import type { KindPrinter } from '../../shared/kinds/columns';
import type { Row } from '../../shared/protocol/row';
import { objectKey } from '../../shared/protocol/row';
import type { RowLayout } from '../../shared/protocol/row-tuples';

/**
 * One row of a frame as stored: the change whose version it projects, that change's object, and the
 * row's text under the frame's layout (rowText), key and namespace.
 */
export interface FrameText {
  readonly object: number;
  readonly change: number;
  readonly key: string;
  readonly namespace: string;
  readonly text: string;
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

/**
 * A frame as written since session 32: this header as JSON on the frame's first line, then each row's
 * text on a line of its own (JSON writes no line break), outside the header so that reading it back
 * is a split, not a parse that unescapes every quote of every row.
 */
export interface StoredTupleFrame {
  /** The printer's signature (printerSignature): rows of another printer are not this build's rows. */
  readonly printer: string;
  /** The layout the texts are written under (replayLayout of the printer, as this build made it). */
  readonly layout: RowLayout;
  readonly objects: number[];
  readonly changes: number[];
  /** Each row's key is its text's first value (a tuple's), read from there: see TupleRowFrame.key. */
  readonly namespace: Column;
}

/** A frame as written before session 32: every field of the rows a column. Read, never written. */
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
 * Whether `row` reads back from its text under `layout` as it is: a number JSON cannot hold (NaN, an
 * infinity, -0) would come back as another value, and a fixed layout boxes as many cells as it names
 * (see rowTuple), so such a row is left out of the frame (its version is decoded instead).
 */
export function storable(row: Row, layout: RowLayout): boolean {
  if (row.key !== objectKey(row.namespace, row.name)) return false;
  if (layout.cellFields.length > 0 && row.cells.length !== layout.cellFields.length) return false;
  if (!Number.isFinite(row.createdAt) || Object.is(row.createdAt, -0)) return false;
  for (const cell of row.cells)
    if (typeof cell === 'number' && (!Number.isFinite(cell) || Object.is(cell, -0))) return false;
  return true;
}

/** Rows whose values repeat at most this often are stored as they are, not through a dictionary. */
const dictionaryRatio = 0.5;

/** `values` as a column: a dictionary of the values and each row's position in it, unless they seldom repeat. */
export function column(
  values: readonly unknown[],
  keyOf: (value: unknown) => unknown = (value) => value,
): Column {
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
export function distinct(values: readonly unknown[]): Column {
  const lines = values.every((value) => typeof value === 'string' && !value.includes('\n'));
  return lines && values.length > 0 ? { lines: values.join('\n') } : { values: [...values] };
}

/**
 * What names a kind's printer in a frame: its columns. A build whose printer prints other columns
 * projects other rows, so its reader ignores the frames (and decodes versions, as for an older file).
 */
export function printerSignature(printer: KindPrinter): string {
  return JSON.stringify(printer.columns);
}

/** `rows`, written as texts under `layout`, as a frame of `printer`'s rows (its signature). */
export function encodeRowFrame(rows: readonly FrameText[], printer: string, layout: RowLayout): Buffer {
  const header: StoredTupleFrame = {
    printer,
    layout,
    objects: rows.map((entry) => entry.object),
    changes: rows.map((entry) => entry.change),
    namespace: column(rows.map((entry) => entry.namespace)),
  };
  // The header's line ends with a line break even when no row follows: that is what tells this frame
  // from an older one, which is one JSON text without any.
  return deflateRawSync(`${JSON.stringify(header)}\n${rows.map((entry) => entry.text).join('\n')}`);
}
