// metav1.Table for `kubectl get`: column definitions and per-object cells. CRD kinds use their
// additionalPrinterColumns (JSONPath subset: dotted fields, [n] indexes); other kinds use the
// shared/kinds printers, so the sim prints exactly what the Kubetide tables show.
import type { KubeObject } from '../../shared/kube/object';
import type { ResourceType } from './resource-type';

export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

export interface TableConverter {
  columnDefinitions(type: ResourceType): TableColumnDefinition[];
  cells(type: ResourceType, object: KubeObject, now: number): unknown[];
}

const nameDefinition: TableColumnDefinition = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description: 'Name must be unique within a namespace. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
  priority: 0,
};

const ageDefinition: TableColumnDefinition = {
  name: 'Age',
  type: 'string',
  format: '',
  description: 'CreationTimestamp is a timestamp representing the server time when this object was created.',
  priority: 0,
};

/** kubectl's duration.HumanDuration (the AGE column). */
export function humanAge(milliseconds: number): string {
  const seconds = Math.max(0, Math.floor(milliseconds / 1000));
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (days < 8) return hours % 24 === 0 ? `${days}d` : `${days}d${hours % 24}h`;
  if (days < 365 * 2) return `${days}d`;
  const years = Math.floor(days / 365);
  if (years < 8) return days % 365 === 0 ? `${years}y` : `${years}y${days % 365}d`;
  return `${years}y`;
}

function age(object: KubeObject, now: number): string {
  const created = Date.parse(object.metadata.creationTimestamp ?? '');
  return Number.isNaN(created) ? '<unknown>' : humanAge(now - created);
}

/** Evaluates the JSONPath forms CRDs use for printer columns: ".spec.size", ".status.conditions[0].type". */
export function evaluateJsonPath(object: unknown, path: string): unknown {
  const trimmed = path.replace(/^\{?\$?/, '').replace(/\}$/, '');
  let node: unknown = object;
  for (const part of trimmed.split('.').filter(Boolean)) {
    const match = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (!match) return undefined;
    if (match[1]) node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[match[1]] : undefined;
    for (const index of match[2].match(/\d+/g) ?? []) node = Array.isArray(node) ? node[Number(index)] : undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

function customCell(type: string, value: unknown, now: number): unknown {
  if (value === undefined || value === null) return null;
  if (type === 'date' && typeof value === 'string') {
    const time = Date.parse(value);
    return Number.isNaN(time) ? value : humanAge(now - time);
  }
  if (typeof value === 'object') return JSON.stringify(value);
  return value;
}

export const tableConverter: TableConverter = {
  columnDefinitions(type) {
    if (type.printerColumns) {
      const custom = type.printerColumns.map((column) => ({
        name: column.name,
        type: column.type === 'date' ? 'date' : column.type,
        format: column.format ?? '',
        description: column.description ?? '',
        priority: column.priority ?? 0,
      }));
      return custom.length ? [nameDefinition, ...custom] : [nameDefinition, ageDefinition];
    }
    return [nameDefinition, ageDefinition];
  },
  cells(type, object, now) {
    if (type.printerColumns?.length)
      return [object.metadata.name ?? '', ...type.printerColumns.map((column) => customCell(column.type, evaluateJsonPath(object, column.jsonPath), now))];
    return [object.metadata.name ?? '', age(object, now)];
  },
};
