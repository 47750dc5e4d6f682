// Row frames as recordings made before session 32 hold them (every field of the rows a column, see
// StoredFrame): the writer of that time, kept to check that such frames still read. Recordings are
// kept and imported for long; the product reads these frames but no longer writes them.
import { deflateRawSync } from 'node:zlib';
import type { Column, StoredFrame } from '../../../main/history/row-frame-codec';
import { column, distinct } from '../../../main/history/row-frame-codec';
import type { CellValue, Row } from '../../../shared/protocol/row';

/** One row of a frame: the change whose version it projects, and that change's object. */
export interface FrameRow {
  readonly object: number;
  readonly change: number;
  readonly row: Row;
}

/** A column of JSON objects (labels, owners): alike by their JSON text. */
function objectColumn(values: readonly unknown[]): Column {
  return column(values, (value) => JSON.stringify(value));
}

/** `rows` as the writer before session 32 wrote a frame of `printer`'s rows (its signature). */
export function encodeColumnFrame(rows: readonly FrameRow[], printer: string): Buffer {
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
