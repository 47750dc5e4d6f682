// Object -> Row: the part of an object the renderer holds. Projection runs once per informer event
// per feed (not per subscriber), on main's thread, so it reads only what the row needs and copies
// nothing else: the full object stays in the informer's cache for getObject.
import type { GroupVersionResource, KubeObject } from '../../shared/kube/object';
import { objectKey } from '../../shared/protocol/row';
import type { CellValue, OwnerSummary, Row } from '../../shared/protocol/row';
import type { ColumnDefinition, KindPrinter } from '../../shared/kinds/columns/column-definition';

/** Finds the kubectl printer for a resource; undefined for kinds without one (CRDs, until they have). */
export type PrinterLookup = (gvr: GroupVersionResource) => KindPrinter | undefined;

const nameColumn: ColumnDefinition = { name: 'Name', type: 'string', priority: 0, format: 'name' };
const ageColumn: ColumnDefinition = {
  name: 'Age',
  type: 'date',
  priority: 0,
  format: 'age',
  missing: '<unknown>',
};

/** What `kubectl get` prints for a kind it has no printer for: NAME and AGE. */
export const defaultPrinter: KindPrinter = {
  columns: [nameColumn, ageColumn],
  cells: (object) => [object.metadata.name ?? '', creationTime(object) || null],
};

function creationTime(object: KubeObject): number {
  const text = object.metadata.creationTimestamp;
  const parsed = text ? Date.parse(text) : NaN;
  return Number.isNaN(parsed) ? 0 : parsed;
}

/** No owners: one array for every row without any (rows are never mutated). */
const noOwners: OwnerSummary[] = [];

/**
 * Owners by the ownerReferences array they summarize. Cached objects are never mutated, and a
 * ReplicaSet's pods share one ownerReferences array in the informers' caches (sibling-sharing.ts):
 * their rows share one owners array too, instead of each row keeping its own copies, an array and
 * an object a row, kept as long as the row (150,000 of each for a listing's pods).
 */
const ownersByReferences = new WeakMap<object, OwnerSummary[]>();

function owners(object: KubeObject): OwnerSummary[] {
  const references = object.metadata.ownerReferences;
  if (!Array.isArray(references) || references.length === 0) return noOwners;
  let summaries = ownersByReferences.get(references);
  if (summaries === undefined) {
    summaries = references.map((reference) => ({
      kind: reference.kind,
      name: reference.name,
      uid: reference.uid,
      controller: reference.controller === true,
    }));
    ownersByReferences.set(references, summaries);
  }
  return summaries;
}

/** The node an object is bound to: a Pod's spec.nodeName. */
function nodeOf(object: KubeObject): string | undefined {
  const spec = object.spec;
  if (typeof spec !== 'object' || spec === null) return undefined;
  const nodeName = (spec as { nodeName?: unknown }).nodeName;
  return typeof nodeName === 'string' && nodeName !== '' ? nodeName : undefined;
}

/** Projects objects of one kind; the printer's Status column (if any) feeds Row.status. */
export class RowProjector {
  private readonly statusColumn: number;

  constructor(readonly printer: KindPrinter = defaultPrinter) {
    this.statusColumn = printer.columns.findIndex((column) => column.name.toLowerCase() === 'status');
  }

  project(object: KubeObject, now: number): Row {
    const metadata = object.metadata;
    const name = metadata.name ?? '';
    const namespace = metadata.namespace ?? '';
    let cells: CellValue[];
    try {
      cells = this.printer.cells(object, now);
    } catch {
      // A malformed object must not take the feed down: show what the default printer can.
      cells = this.printer.columns.map((_, index) => (index === 0 ? name : null));
    }
    const status = this.statusColumn >= 0 ? cells[this.statusColumn] : undefined;
    // Every row has the same fields in the same order, node and status included even when undefined:
    // V8 then gives all rows one shape, and the renderer's index reads over 150k rows stay monomorphic.
    return {
      key: objectKey(namespace, name),
      uid: metadata.uid ?? '',
      name,
      namespace,
      resourceVersion: metadata.resourceVersion ?? '',
      labels: metadata.labels ?? {},
      owners: owners(object),
      node: nodeOf(object),
      status: typeof status === 'string' && status !== '' ? status : undefined,
      createdAt: creationTime(object),
      cells,
    };
  }
}
