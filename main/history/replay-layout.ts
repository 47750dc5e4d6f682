// How a travel's rows are written: as tuples (shared/protocol/row-tuples.ts), the live stream's compact
// form, rather than JSON objects. As objects a pod row was ~575 bytes, most of it member names and
// cells that repeat the row's fields; the page's intake, main's deflate and the chunks' joins pay for
// every byte.
//
// The live stream chooses what to leave out per batch, from its rows. A travel's row text is made once
// in the query worker and kept from one moment to the next, sent in whatever chunk a later moment puts
// it: so its layout is fixed per kind, from the printer's columns (the name, the status, the node and
// the age repeat the row's fields), and a row whose cell does not repeat its field there (a pod not yet
// on a node shows "<none>") writes that cell boxed. Every row of a kind has the printer's cell count
// (RowProjector falls back to one cell per column), which a fixed layout needs.
import type { ColumnDefinition, KindPrinter } from '../../shared/kinds/columns/column-definition';
import { printerFor } from '../../shared/kinds/columns';
import { parseGvrKey } from '../../shared/kube/object';
import type { Row } from '../../shared/protocol/row';
import type { RepeatedField, RowLayout } from '../../shared/protocol/row-tuples';
import { rowTuple } from '../../shared/protocol/row-tuples';

/** The layout of every travel row of `printer`'s kind. */
export function replayLayout(printer: KindPrinter): RowLayout {
  return { cellFields: printer.columns.map(repeatedField) };
}

/** The layout of every travel row of the kind `gvr` names (a gvrKey), as its printer prints it. */
export function replayLayoutOf(gvr: string): RowLayout {
  return replayLayout(printerFor(parseGvrKey(gvr)));
}

/** The row field a column's cell shows, as RowProjector fills the fields, or null. */
function repeatedField(column: ColumnDefinition): RepeatedField | null {
  if (column.format === 'name') return 'name';
  if (column.format === 'age') return 'createdAt';
  // RowProjector reads the status from the first column so named; pods' "Node" is spec.nodeName.
  const name = column.name.toLowerCase();
  if (name === 'status') return 'status';
  if (name === 'node') return 'node';
  return null;
}

/** `row`'s text as a travel sends it: its tuple's JSON under its kind's `layout`. */
export function rowText(row: Row, layout: RowLayout): string {
  return JSON.stringify(rowTuple(row, layout));
}
