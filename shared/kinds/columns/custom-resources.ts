// Columns of custom resources, as apiextensions-apiserver's table convertor builds them from a CRD
// version's additionalPrinterColumns (NAME first; AGE alone when the version declares none), and the
// fallbacks for kinds without a printer of their own.

import type { KubeObject } from '../../kube/object';
import type { CellValue, ColumnDefinition, ColumnType, KindPrinter } from './column-definition';
import { ageColumn, createdAt, field, list, nameColumn, text } from './column-definition';
import { createdAtColumn } from './access-control';
import { evaluateParsedJsonPath, parseJsonPath } from './json-path';
import type { ParsedJsonPath } from './json-path';

/** NAME AGE: what a custom resource without printer columns shows. */
export const genericPrinter: KindPrinter = {
  columns: [nameColumn, ageColumn],
  cells(object): CellValue[] {
    return [object.metadata.name ?? '', createdAt(object)];
  },
};

/** NAME CREATED AT: the API server's default table for built-ins without a printer, CRDs among them. */
export const createdAtPrinter: KindPrinter = {
  columns: [nameColumn, createdAtColumn],
  cells(object): CellValue[] {
    return [object.metadata.name ?? '', createdAt(object)];
  },
};

/** One entry of a CRD version's additionalPrinterColumns. */
export interface CustomResourceColumnDefinition {
  name: string;
  type: string;
  jsonPath: string;
  format?: string;
  description?: string;
  priority?: number;
}

const columnTypes: Readonly<Record<string, ColumnType>> = {
  integer: 'integer',
  number: 'number',
  date: 'date',
};

/** cellForJSONValue: the first value the path reaches, kept only if it fits the declared type. */
function cellFor(type: string, value: unknown): CellValue {
  if (value === undefined || value === null) return null;
  switch (type) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? String(value) : null;
    case 'date': {
      if (typeof value !== 'string') return null;
      const parsed = Date.parse(value);
      return Number.isNaN(parsed) ? '<invalid>' : parsed;
    }
    case 'string':
      // PrintResults renders whatever the path reaches; non-strings print as JSON.
      return typeof value === 'string' ? value : JSON.stringify(value);
    default:
      return null;
  }
}

/** A printer for `columns` as a CRD version declares them; a column with a bad path always reads null. */
export function printerForPrinterColumns(columns: readonly CustomResourceColumnDefinition[]): KindPrinter {
  const declared =
    columns.length > 0 ? columns : [{ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' }];
  const compiled = declared.map((column) => {
    let path: ParsedJsonPath | undefined;
    try {
      path = parseJsonPath(column.jsonPath);
    } catch {
      path = undefined;
    }
    const definition: ColumnDefinition = {
      name: column.name,
      type: columnTypes[column.type] ?? 'string',
      priority: (column.priority ?? 0) > 0 ? 1 : 0,
      ...(column.type === 'date' ? { format: 'age' as const } : {}),
    };
    return { column, path, definition };
  });
  return {
    columns: [nameColumn, ...compiled.map(({ definition }) => definition)],
    cells(object): CellValue[] {
      return [
        object.metadata.name ?? '',
        ...compiled.map(({ column, path }) =>
          path === undefined ? null : cellFor(column.type, evaluateParsedJsonPath(object, path)[0]),
        ),
      ];
    },
  };
}

/**
 * The printer of one served version of a CRD (by name; the storage version, else the first served one,
 * when `version` is not given). Columns declared at spec level (apiextensions v1beta1) apply to every
 * version that declares none.
 */
export function printerForCustomResourceDefinition(definition: KubeObject, version?: string): KindPrinter {
  const spec = field(definition, 'spec');
  const versions = list(spec, 'versions');
  const chosen =
    versions.find((candidate) => candidate['name'] === version) ??
    versions.find((candidate) => candidate['storage'] === true && candidate['served'] !== false) ??
    versions.find((candidate) => candidate['served'] !== false);
  const ofVersion = chosen?.['additionalPrinterColumns'];
  const ofSpec = spec['additionalPrinterColumns'];
  const columns = Array.isArray(ofVersion) ? ofVersion : Array.isArray(ofSpec) ? ofSpec : [];
  return printerForPrinterColumns(
    (columns as Record<string, unknown>[]).map((column) => ({
      name: text(column['name']) ?? '',
      type: text(column['type']) ?? 'string',
      jsonPath: text(column['jsonPath']) ?? text(column['JSONPath']) ?? '',
      priority: typeof column['priority'] === 'number' ? column['priority'] : 0,
    })),
  );
}
