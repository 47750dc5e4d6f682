// Rows as columns: how a travel's moment crosses to the renderer. As plain JSON rows a 150,000-pod
// moment is about 75 MB of text, each label map and owner list written (and parsed, and held) once per
// row, though a few hundred distinct ones serve every row. Packed, each distinct value is written once
// in `values` and every field of every row is an index into it: a third of the text, parsed as arrays
// of small integers, and rows that share labels share one object. The renderer must not trust the
// text: unpackRows checks every index and every value's type and answers a reason instead of rows
// when anything is off, never throwing.
import type { CellValue, OwnerSummary, Row } from './row';
import type { DeltaBatch } from './server-messages';

export interface PackedRows {
  /** Every distinct value the columns name, each once. */
  readonly values: unknown[];
  /** Per row, the index in `values` of its field (node and status: -1 when the row has none). */
  readonly key: number[];
  readonly uid: number[];
  readonly name: number[];
  readonly namespace: number[];
  readonly resourceVersion: number[];
  readonly labels: number[];
  readonly owners: number[];
  readonly node: number[];
  readonly status: number[];
  readonly createdAt: number[];
  /** Per row, how many cells it has; `cells` holds every row's cells' indexes, row after row. */
  readonly cellCounts: number[];
  readonly cells: number[];
}

const columnNames = [
  'key',
  'uid',
  'name',
  'namespace',
  'resourceVersion',
  'labels',
  'owners',
  'node',
  'status',
  'createdAt',
  'cellCounts',
] as const;

/** Packs `rows` (in order). Values are told apart as JSON would write them. */
export function packRows(rows: readonly Row[]): PackedRows {
  const values: unknown[] = [];
  const byValue = new Map<unknown, number>();
  // Label maps and owner lists are objects: the same object is found by identity (rows projected
  // from one frame share them), an equal one by its JSON text.
  const byObject = new Map<object, number>();
  const byText = new Map<string, number>();
  const index = (value: unknown): number => {
    let at = byValue.get(value);
    if (at === undefined) {
      at = values.push(value) - 1;
      byValue.set(value, at);
    }
    return at;
  };
  const objectIndex = (value: object): number => {
    let at = byObject.get(value);
    if (at !== undefined) return at;
    const text = JSON.stringify(value);
    at = byText.get(text);
    if (at === undefined) {
      at = values.push(value) - 1;
      byText.set(text, at);
    }
    byObject.set(value, at);
    return at;
  };
  const packed: PackedRows = {
    values,
    key: [],
    uid: [],
    name: [],
    namespace: [],
    resourceVersion: [],
    labels: [],
    owners: [],
    node: [],
    status: [],
    createdAt: [],
    cellCounts: [],
    cells: [],
  };
  for (const row of rows) {
    packed.key.push(index(row.key));
    packed.uid.push(index(row.uid));
    packed.name.push(index(row.name));
    packed.namespace.push(index(row.namespace));
    packed.resourceVersion.push(index(row.resourceVersion));
    packed.labels.push(objectIndex(row.labels));
    packed.owners.push(objectIndex(row.owners));
    packed.node.push(row.node === undefined ? -1 : index(row.node));
    packed.status.push(row.status === undefined ? -1 : index(row.status));
    packed.createdAt.push(index(row.createdAt));
    packed.cellCounts.push(row.cells.length);
    for (const cell of row.cells) packed.cells.push(index(cell));
  }
  return packed;
}

/** What a value was checked to be (bits), so a value many rows share is checked once per use. */
const isString = 1;
const isNumber = 2;
const isCell = 4;
const isLabels = 8;
const isOwners = 16;

/**
 * The rows `packed` holds, or why it holds none: a malformed column, an index out of range, or a value
 * of the wrong type for its field.
 */
export function unpackRows(packed: unknown): Row[] | { readonly invalid: string } {
  try {
    return unpack(packed);
  } catch (error) {
    // unpack throws only its own reasons (PackedRowsError); anything else would be a bug here, and
    // is still an answer, not an exception past the boundary.
    return { invalid: error instanceof Error ? error.message : String(error) };
  }
}

class PackedRowsError extends Error {}

function unpack(packed: unknown): Row[] {
  if (typeof packed !== 'object' || packed === null) throw new PackedRowsError('not an object');
  const fields = packed as Record<string, unknown>;
  const values = fields.values;
  if (!Array.isArray(values)) throw new PackedRowsError('values is not an array');
  const columns = {} as Record<(typeof columnNames)[number] | 'cells', number[]>;
  let count: number | undefined;
  for (const name of [...columnNames, 'cells' as const]) {
    const column = fields[name];
    if (!Array.isArray(column)) throw new PackedRowsError(`${name} is not an array`);
    if (name !== 'cells') {
      if (count === undefined) count = column.length;
      else if (column.length !== count)
        throw new PackedRowsError(`${name} has ${column.length} rows, not ${count}`);
    }
    columns[name] = column as number[];
  }
  const checked = new Uint8Array(values.length);
  /** The value at `at` in `values`, checked to be `kind` (see the bits above). */
  const value = (at: unknown, kind: number, field: string): unknown => {
    if (typeof at !== 'number' || !Number.isInteger(at) || at < 0 || at >= values.length)
      throw new PackedRowsError(`${field}: ${String(at)} is not an index of values`);
    if ((checked[at] & kind) === 0) {
      if (!valueIs(values[at], kind))
        throw new PackedRowsError(`${field}: value ${at} is not a ${kindName(kind)}`);
      checked[at] |= kind;
    }
    return values[at];
  };
  const optional = (at: unknown, field: string): string | undefined =>
    at === -1 ? undefined : (value(at, isString, field) as string);
  const cells = columns.cells;
  let cell = 0;
  const rows: Row[] = new Array<Row>(count ?? 0);
  for (let index = 0; index < (count ?? 0); index++) {
    const cellCount = columns.cellCounts[index];
    if (
      typeof cellCount !== 'number' ||
      !Number.isInteger(cellCount) ||
      cellCount < 0 ||
      cell + cellCount > cells.length
    )
      throw new PackedRowsError(`cellCounts: row ${index} names cells past the end`);
    const rowCells: CellValue[] = [];
    for (const end = cell + cellCount; cell < end; cell++)
      rowCells.push(value(cells[cell], isCell, 'cells') as CellValue);
    // The fields in RowProjector's order, node and status present even when undefined: every row
    // has one shape.
    rows[index] = {
      key: value(columns.key[index], isString, 'key') as string,
      uid: value(columns.uid[index], isString, 'uid') as string,
      name: value(columns.name[index], isString, 'name') as string,
      namespace: value(columns.namespace[index], isString, 'namespace') as string,
      resourceVersion: value(columns.resourceVersion[index], isString, 'resourceVersion') as string,
      labels: value(columns.labels[index], isLabels, 'labels') as Record<string, string>,
      owners: value(columns.owners[index], isOwners, 'owners') as OwnerSummary[],
      node: optional(columns.node[index], 'node'),
      status: optional(columns.status[index], 'status'),
      createdAt: value(columns.createdAt[index], isNumber, 'createdAt') as number,
      cells: rowCells,
    };
  }
  if (cell !== cells.length) throw new PackedRowsError(`cells holds ${cells.length - cell} cells of no row`);
  return rows;
}

function valueIs(value: unknown, kind: number): boolean {
  switch (kind) {
    case isString:
      return typeof value === 'string';
    case isNumber:
      // null: a time JSON could not write (NaN), as the rows' own JSON would carry it.
      return typeof value === 'number' || value === null;
    case isCell:
      return value === null || ['string', 'number', 'boolean'].includes(typeof value);
    case isLabels:
      return (
        typeof value === 'object' &&
        value !== null &&
        !Array.isArray(value) &&
        Object.values(value).every((label) => typeof label === 'string')
      );
    default:
      return (
        Array.isArray(value) &&
        value.every(
          (owner: unknown) =>
            typeof owner === 'object' &&
            owner !== null &&
            typeof (owner as OwnerSummary).kind === 'string' &&
            typeof (owner as OwnerSummary).name === 'string' &&
            typeof (owner as OwnerSummary).uid === 'string' &&
            typeof (owner as OwnerSummary).controller === 'boolean',
        )
      );
  }
}

function kindName(kind: number): string {
  return (
    { [isString]: 'string', [isNumber]: 'number', [isCell]: 'cell', [isLabels]: 'label map' }[kind] ??
    'owner list'
  );
}

/**
 * `batch` with its packed rows checked and unpacked after its upserts (and no `packed`), or why they
 * cannot be: then none of the batch may be applied.
 */
export function unpackedBatch(batch: DeltaBatch): DeltaBatch | { readonly invalid: string } {
  if (batch.packed === undefined) return batch;
  if (!Array.isArray(batch.packed)) return { invalid: 'packed is not an array' };
  const upserts = [...batch.upserts];
  for (const part of batch.packed) {
    const rows = unpackRows(part);
    if ('invalid' in rows) return rows;
    for (const row of rows) upserts.push(row);
  }
  const { packed: _packed, ...rest } = batch;
  return { ...rest, upserts };
}
