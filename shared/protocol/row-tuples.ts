// A batch's rows as the WebSocket carries them: each row an array of values in fixed slots (a tuple)
// rather than an object, and the values a row holds twice (a pod's name, status, node and age are also
// its cells; its key is namespace/name) written once. As objects a pod row was ~480 bytes of JSON, ~40%
// of it member names and repeated values; as a tuple ~210. The page's intake pays for every byte
// (inflate, the socket's receive, JSON.parse) and the backend for every character it stringifies and
// deflates.
//
// What may be left out is decided per batch and only when it holds for every row of the batch (see
// RowLayout), so decoding gives back rows equal to the ones encoded, whatever they hold. The renderer
// validates every tuple as it decodes it (rowsFromTuples): a message from main is still input.
import { objectKey } from './row';
import type { CellValue, OwnerSummary, Row } from './row';
import type { DeltaBatch } from './server-messages';

/** The row fields a cell may repeat (every row of a batch holds the field's value in that cell). */
export type RepeatedField = 'name' | 'node' | 'status' | 'createdAt';

const repeatedFields: readonly RepeatedField[] = ['name', 'node', 'status', 'createdAt'];

/** How one batch's tuples are written. */
export interface RowLayout {
  /** Every row's key is objectKey(namespace, name): the tuples' key slot holds 0. */
  readonly keysFromNames: boolean;
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
 * A row's slots: key (0 when derived), uid, name, namespace, resourceVersion, labels, owners (kind,
 * name, uid, controller of each, one after another), node (null: none), status (null: none),
 * createdAt, then its cells (0 where the layout names a field).
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
const firstCellSlot = 10;
const ownerSlots = 4;

/** The layout that leaves out of `rows` every value that is repeated in all of them. */
export function rowLayoutOf(rows: readonly Row[]): RowLayout {
  let keysFromNames = true;
  for (const row of rows)
    if (row.key !== objectKey(row.namespace, row.name)) {
      keysFromNames = false;
      break;
    }
  const cellCount = rows.length > 0 ? rows[0].cells.length : 0;
  for (const row of rows) if (row.cells.length !== cellCount) return { keysFromNames, cellFields: [] };
  const cellFields: (RepeatedField | null)[] = [];
  for (let cell = 0; cell < cellCount; cell++) cellFields.push(repeatedFieldOf(rows, cell));
  return { keysFromNames, cellFields };
}

/** The first field every row holds in `cell` (strictly equal), or null. */
function repeatedFieldOf(rows: readonly Row[], cell: number): RepeatedField | null {
  for (const field of repeatedFields)
    if (rows.every((row) => row[field] !== undefined && row.cells[cell] === row[field])) return field;
  return null;
}

/** `row` as its tuple under `layout` (which rowLayoutOf chose for rows that include it). */
export function rowTuple(row: Row, layout: RowLayout): unknown[] {
  const owners: unknown[] = [];
  for (const owner of row.owners) owners.push(owner.kind, owner.name, owner.uid, owner.controller);
  const tuple: unknown[] = [
    layout.keysFromNames ? 0 : row.key,
    row.uid,
    row.name,
    row.namespace,
    row.resourceVersion,
    row.labels,
    owners,
    row.node ?? null,
    row.status ?? null,
    row.createdAt,
  ];
  const cellFields = layout.cellFields;
  const cells = row.cells;
  for (let cell = 0; cell < cells.length; cell++)
    tuple.push(cell < cellFields.length && cellFields[cell] !== null ? 0 : cells[cell]);
  return tuple;
}

/**
 * The rows `tuples` stand for under `layout`, or undefined when any of them (or the layout) is not
 * what rowTuple writes: wrong slots, types or cell count.
 */
export function rowsFromTuples(tuples: unknown, layout: unknown): Row[] | undefined {
  if (!Array.isArray(tuples) || !isLayout(layout)) return undefined;
  const cellFields = layout.cellFields;
  const rows = new Array<Row>(tuples.length);
  for (let index = 0; index < tuples.length; index++) {
    const row = rowFromTuple(tuples[index], layout.keysFromNames, cellFields);
    if (row === undefined) return undefined;
    rows[index] = row;
  }
  return rows;
}

function rowFromTuple(
  tuple: unknown,
  keysFromNames: boolean,
  cellFields: readonly (RepeatedField | null)[],
): Row | undefined {
  if (!Array.isArray(tuple) || tuple.length < firstCellSlot) return undefined;
  const uid: unknown = tuple[uidSlot];
  const name: unknown = tuple[nameSlot];
  const namespace: unknown = tuple[namespaceSlot];
  const resourceVersion: unknown = tuple[resourceVersionSlot];
  const node: unknown = tuple[nodeSlot];
  const status: unknown = tuple[statusSlot];
  const createdAt: unknown = tuple[createdAtSlot];
  if (
    typeof uid !== 'string' ||
    typeof name !== 'string' ||
    typeof namespace !== 'string' ||
    typeof resourceVersion !== 'string' ||
    (node !== null && typeof node !== 'string') ||
    (status !== null && typeof status !== 'string') ||
    typeof createdAt !== 'number'
  )
    return undefined;
  // A slot left out holds 0, and nothing else: what main writes.
  if (keysFromNames && tuple[keySlot] !== 0) return undefined;
  const key: unknown = keysFromNames ? objectKey(namespace, name) : tuple[keySlot];
  const labels = labelsOf(tuple[labelsSlot]);
  const owners = ownersOf(tuple[ownersSlot]);
  if (typeof key !== 'string' || labels === undefined || owners === undefined) return undefined;
  const cellCount = tuple.length - firstCellSlot;
  if (cellFields.length > 0 && cellCount !== cellFields.length) return undefined;
  const row: Row = {
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
    cells: new Array<CellValue>(cellCount),
  };
  for (let cell = 0; cell < cellCount; cell++) {
    const field = cell < cellFields.length ? cellFields[cell] : null;
    const written: unknown = tuple[firstCellSlot + cell];
    const value: unknown = field === null ? written : row[field];
    if (!isCellValue(value) || (field !== null && written !== 0)) return undefined;
    row.cells[cell] = value;
  }
  return row;
}

function labelsOf(value: unknown): Record<string, string> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const labels = value as Record<string, unknown>;
  for (const label in labels) if (typeof labels[label] !== 'string') return undefined;
  return labels as Record<string, string>;
}

function ownersOf(value: unknown): OwnerSummary[] | undefined {
  if (!Array.isArray(value) || value.length % ownerSlots !== 0) return undefined;
  const owners: OwnerSummary[] = [];
  for (let slot = 0; slot < value.length; slot += ownerSlots) {
    const kind: unknown = value[slot];
    const name: unknown = value[slot + 1];
    const uid: unknown = value[slot + 2];
    const controller: unknown = value[slot + 3];
    if (
      typeof kind !== 'string' ||
      typeof name !== 'string' ||
      typeof uid !== 'string' ||
      typeof controller !== 'boolean'
    )
      return undefined;
    owners.push({ kind, name, uid, controller });
  }
  return owners;
}

function isCellValue(value: unknown): value is CellValue {
  return (
    value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
  );
}

function isLayout(value: unknown): value is RowLayout {
  if (typeof value !== 'object' || value === null) return false;
  const { keysFromNames, cellFields } = value as Partial<Record<keyof RowLayout, unknown>>;
  return (
    typeof keysFromNames === 'boolean' &&
    Array.isArray(cellFields) &&
    cellFields.every((field) => field === null || repeatedFields.includes(field as RepeatedField))
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
