// Reads a row frame back (see row-frame-codec.ts for how it is stored): which changes it holds rows
// of, each row's text (as a travel sends it) and row when asked for. Frames written since session 32
// hold the texts (TupleRowFrame); older ones hold columns, from which both are built (ColumnRowFrame).
import { inflateRawSync } from 'node:zlib';
import type { CellValue, OwnerSummary, Row } from '../../shared/protocol/row';
import type { RowLayout } from '../../shared/protocol/row-tuples';
import type { StoredFrame, StoredTupleFrame } from './row-frame-codec';
import type { ColumnReader } from './row-frame-columns';
import { reader } from './row-frame-columns';
import { rowText } from './replay-layout';
import { TupleRowFrame } from './tuple-row-frame';

/**
 * A frame read back: which changes it holds rows of (a delta frame holds rows that later changes
 * replaced, which a moment never needs), each row's key and namespace, and its text or row when asked
 * for.
 */
export interface DecodedRowFrame {
  /** Row by row: the object and the change whose version the row projects. */
  readonly objects: readonly number[];
  readonly changes: readonly number[];
  /** The key of the row at `index` ("namespace/name", or "name"). */
  key(index: number): string;
  /** The namespace of the row at `index` ("" for an object of no namespace). */
  namespace(index: number): string;
  /**
   * The text of the row at `index` as a travel sends it: rowText(row, layout). Undefined when the
   * frame cannot tell (a damaged row): its version is decoded instead, as for a row no frame holds.
   */
  text(index: number, layout: RowLayout): string | undefined;
  /** The row at `index`, built anew at each call; undefined as for text. */
  row(index: number): Row | undefined;
}

/** Throws when `blob` is not a frame of rows printed by `printer` (see printerSignature). */
export function decodeRowFrame(blob: Uint8Array, printer: string): DecodedRowFrame {
  const text = inflateRawSync(blob).toString('utf8');
  // A frame of texts has its rows' lines after its header's; an older frame is one JSON text, one line.
  const headerEnd = text.indexOf('\n');
  const stored = JSON.parse(headerEnd < 0 ? text : text.slice(0, headerEnd)) as
    StoredFrame | StoredTupleFrame;
  if (!Array.isArray(stored.objects) || !Array.isArray(stored.changes))
    throw new Error('row frame: not a row frame');
  if (stored.printer !== printer) throw new Error('row frame: printed by another printer');
  if (stored.objects.length !== stored.changes.length) throw new Error('row frame: columns differ in length');
  return headerEnd < 0
    ? new ColumnRowFrame(stored as StoredFrame)
    : new TupleRowFrame(stored as StoredTupleFrame, text, headerEnd + 1);
}

/** A frame written before session 32: every field of its rows a column, each row built when asked for. */
class ColumnRowFrame implements DecodedRowFrame {
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

  constructor(stored: StoredFrame) {
    if (!Array.isArray(stored.cells)) throw new Error('row frame: not a row frame');
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

  key(index: number): string {
    return this.columns.key(index) as string;
  }

  namespace(index: number): string {
    return this.columns.namespace(index) as string;
  }

  text(index: number, layout: RowLayout): string {
    return rowText(this.row(index), layout);
  }

  /**
   * Built anew at each call: a moment keeps what it needs of a row (its text, see MomentRows), and
   * rows kept here for every frame of a chain were only more for the garbage collector to walk.
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
