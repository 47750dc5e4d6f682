// A batch's rows as the WebSocket carries them: each row an array of values in fixed slots (a tuple)
// rather than an object, and a cell that repeats one of the row's fields (a pod's name, status, node
// and age are also its cells) written as 0. As objects a pod row was ~480 bytes of JSON, ~40% of it
// member names and repeated values; as a tuple ~290. The page's intake pays for every byte (inflate,
// the socket's receive, JSON.parse) and the backend for every character it stringifies and deflates.
//
// The page keeps what JSON.parse made of a tuple wherever it can, so decoding makes little garbage
// (the rows are kept, and every object made beside them is collected while they are copied): the
// labels object, the owners' objects and the cells array (its left-out cells filled in place) become
// the row's own; only the tuple's array is dropped. The key is written although namespace and name
// are too: a key joined on the page is a cons string, which every Map it keys flattens into a copy.
//
// What may be left out is decided per batch and only when it holds for every row of the batch (see
// RowLayout), so decoding gives back rows equal to the ones encoded, whatever they hold. A layout may
// also be fixed ahead of the rows (a travel's rows, made in the history query worker and kept there
// from one moment to the next, see replay-layout.ts): a row whose cell differs from the field its
// layout names there writes that cell boxed, as [value] (no cell value is an array, so 0 and a box
// never mean one another). The renderer validates every tuple as it decodes it (rowsFromTuples): a
// message from main is still input.
import type { CellValue, OwnerSummary, Row } from './row';
import type { DeltaBatch } from './server-messages';

/** The row fields a cell may repeat (every row of a batch holds the field's value in that cell). */
export type RepeatedField = 'name' | 'node' | 'status' | 'createdAt';

const repeatedFields: readonly RepeatedField[] = ['name', 'node', 'status', 'createdAt'];

/** How one batch's tuples are written. */
export interface RowLayout {
  /**
   * One entry per cell when every row of the batch has that many cells (else empty): the field each
   * row holds in that cell, whose slot there then holds 0, or null when the cell is written.
   */
  readonly cellFields: readonly (RepeatedField | null)[];
}

/** A DeltaBatch on the WebSocket: `tuples` (the last member) stands for `upserts`. */
export interface TupleBatch extends Omit<DeltaBatch, 'upserts'> {
  readonly rowLayout: RowLayout;
  readonly tuples: readonly unknown[][];
}

/**
 * A row's slots: key, uid, name, namespace, resourceVersion, labels, owners (as Row has them), node
 * (null: none), status (null: none), createdAt, cells (where the layout names a field: 0, or the
 * cell boxed when it does not repeat it).
 */
const keySlot = 0;
const uidSlot = 1;
const nameSlot = 2;
const namespaceSlot = 3;
const resourceVersionSlot = 4;
const labelsSlot = 5;
const ownersSlot = 6;
const nodeSlot = 7;
const statusSlot = 8;
const createdAtSlot = 9;
const cellsSlot = 10;
const tupleSlots = 11;

/** The layout that leaves out of `rows` every value that is repeated in all of them. */
export function rowLayoutOf(rows: readonly Row[]): RowLayout {
  const cellCount = rows.length > 0 ? rows[0].cells.length : 0;
  for (const row of rows) if (row.cells.length !== cellCount) return { cellFields: [] };
  const cellFields: (RepeatedField | null)[] = [];
  for (let cell = 0; cell < cellCount; cell++) cellFields.push(repeatedFieldOf(rows, cell));
  return { cellFields };
}

/** The first field every row holds in `cell` (strictly equal), or null. */
function repeatedFieldOf(rows: readonly Row[], cell: number): RepeatedField | null {
  for (const field of repeatedFields)
    if (rows.every((row) => row[field] !== undefined && row.cells[cell] === row[field])) return field;
  return null;
}

/**
 * `row` as its tuple under `layout`: one rowLayoutOf chose for rows that include it, or one fixed for
 * the row's kind, whose cell count it has (a cell that does not repeat its field is then boxed).
 */
export function rowTuple(row: Row, layout: RowLayout): unknown[] {
  const cellFields = layout.cellFields;
  let cells: unknown[] = row.cells;
  if (cellFields.length > 0) {
    cells = [...cells];
    for (let cell = 0; cell < cellFields.length; cell++) {
      const field = cellFields[cell];
      if (field === null) continue;
      const value = row[field];
      cells[cell] = value !== undefined && cells[cell] === value ? 0 : [cells[cell]];
    }
  }
  return [
    row.key,
    row.uid,
    row.name,
    row.namespace,
    row.resourceVersion,
    row.labels,
    row.owners,
    row.node ?? null,
    row.status ?? null,
    row.createdAt,
    cells,
  ];
}

/** The tuple slot of each field a cell may repeat. */
const fieldSlots: Readonly<Record<RepeatedField, number>> = {
  name: nameSlot,
  node: nodeSlot,
  status: statusSlot,
  createdAt: createdAtSlot,
};

/**
 * The rows `tuples` stand for under `layout`, or undefined when any of them (or the layout) is not
 * what rowTuple writes: wrong slots, types or cell count.
 */
export function rowsFromTuples(tuples: unknown, layout: unknown): Row[] | undefined {
  if (!Array.isArray(tuples) || !isLayout(layout)) return undefined;
  // Per cell, the slot its value is read from: its own, or the field's it repeats (read by index, not
  // by the field's name: a keyed read of four names is a megamorphic load per cell).
  const sources = layout.cellFields.map((field) => (field === null ? -1 : fieldSlots[field]));
  const rows = new Array<Row>(tuples.length);
  for (let index = 0; index < tuples.length; index++) {
    const row = rowFromTuple(tuples[index], sources);
    if (row === undefined) return undefined;
    rows[index] = row;
  }
  return rows;
}

/** `sources`: see rowsFromTuples (empty: every cell is written, as many as there are). */
function rowFromTuple(tuple: unknown, sources: readonly number[]): Row | undefined {
  if (!Array.isArray(tuple) || tuple.length !== tupleSlots) return undefined;
  const key: unknown = tuple[keySlot];
  const uid: unknown = tuple[uidSlot];
  const name: unknown = tuple[nameSlot];
  const namespace: unknown = tuple[namespaceSlot];
  const resourceVersion: unknown = tuple[resourceVersionSlot];
  const node: unknown = tuple[nodeSlot];
  const status: unknown = tuple[statusSlot];
  const createdAt: unknown = tuple[createdAtSlot];
  const cells: unknown = tuple[cellsSlot];
  if (
    typeof key !== 'string' ||
    typeof uid !== 'string' ||
    typeof name !== 'string' ||
    typeof namespace !== 'string' ||
    typeof resourceVersion !== 'string' ||
    (node !== null && typeof node !== 'string') ||
    (status !== null && typeof status !== 'string') ||
    typeof createdAt !== 'number' ||
    !Array.isArray(cells) ||
    (sources.length > 0 && cells.length !== sources.length)
  )
    return undefined;
  const labels = labelsOf(tuple[labelsSlot]);
  const owners = ownersOf(tuple[ownersSlot]);
  if (labels === undefined || owners === undefined) return undefined;
  for (let cell = 0; cell < cells.length; cell++) {
    const source = cell < sources.length ? sources[cell] : -1;
    const written: unknown = cells[cell];
    if (source < 0) {
      if (!isCellValue(written)) return undefined;
    } else if (written === 0) {
      // A cell left out holds 0, and repeats a field the row has: what main writes. Filled in place:
      // the array JSON.parse made becomes the row's.
      const value: unknown = tuple[source];
      if (value === null) return undefined;
      cells[cell] = value;
    } else {
      // A cell that does not repeat its field, under a layout fixed ahead of the rows: boxed.
      if (!Array.isArray(written) || written.length !== 1 || !isCellValue(written[0])) return undefined;
      cells[cell] = written[0];
    }
  }
  return {
    key,
    uid,
    name,
    namespace,
    resourceVersion,
    labels,
    owners,
    node: node ?? undefined,
    status: status ?? undefined,
    createdAt,
    cells: cells as CellValue[],
  };
}

function labelsOf(value: unknown): Record<string, string> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const labels = value as Record<string, unknown>;
  for (const label in labels) if (typeof labels[label] !== 'string') return undefined;
  return labels as Record<string, string>;
}

/** The owners JSON.parse made, kept as they are when each is exactly an OwnerSummary. */
function ownersOf(value: unknown): OwnerSummary[] | undefined {
  if (!Array.isArray(value)) return undefined;
  for (const owner of value as unknown[]) {
    if (typeof owner !== 'object' || owner === null) return undefined;
    const { kind, name, uid, controller } = owner as Partial<Record<keyof OwnerSummary, unknown>>;
    if (
      typeof kind !== 'string' ||
      typeof name !== 'string' ||
      typeof uid !== 'string' ||
      typeof controller !== 'boolean'
    )
      return undefined;
  }
  return value as OwnerSummary[];
}

function isCellValue(value: unknown): value is CellValue {
  return (
    value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
  );
}

/** Whether `value` is a RowLayout: its cell fields each null or a field a cell may repeat. */
export function isLayout(value: unknown): value is RowLayout {
  if (typeof value !== 'object' || value === null) return false;
  const { cellFields } = value as Partial<Record<keyof RowLayout, unknown>>;
  return (
    Array.isArray(cellFields) &&
    cellFields.every((field) => field === null || repeatedFields.includes(field as RepeatedField))
  );
}

/** Whether two layouts box the same cells: rows written under one read back under the other. */
export function sameLayout(left: RowLayout, right: RowLayout): boolean {
  if (left === right) return true;
  const { cellFields } = left;
  return (
    cellFields.length === right.cellFields.length &&
    cellFields.every((field, cell) => field === right.cellFields[cell])
  );
}

/**
 * The DeltaBatch a TupleBatch stands for (its other members as they are), or undefined when its rows,
 * subscription, seq or deletes are not what main writes.
 */
export function batchFromTuples(message: Readonly<Record<string, unknown>>): DeltaBatch | undefined {
  const { rowLayout, tuples, ...envelope } = message;
  const upserts = rowsFromTuples(tuples, rowLayout);
  const { subscriptionId, seq, deletes } = envelope;
  if (
    upserts === undefined ||
    typeof subscriptionId !== 'string' ||
    typeof seq !== 'number' ||
    !Array.isArray(deletes) ||
    !deletes.every((key) => typeof key === 'string')
  )
    return undefined;
  return { ...(envelope as Omit<DeltaBatch, 'upserts'>), upserts };
}
