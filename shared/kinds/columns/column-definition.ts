// The shape of a kind's `kubectl get` columns and the helpers its printers share. Cells stay raw so tables
// sort them correctly (counts as numbers, times as epoch milliseconds); text comes from formatCell.

import type { KubeObject } from '../../kube/object';
import type { CellValue } from '../../protocol/row';
import { selectorFromLabelSelector } from '../../selectors/label-selector';
import type { MetaLabelSelector } from '../../selectors/label-selector';

export type { CellValue } from '../../protocol/row';

export type ColumnType = 'string' | 'integer' | 'date' | 'number';

/**
 * How a raw cell reads as text. 'age': a date shown as time elapsed until now; 'timestamp': a date in
 * RFC 3339; 'duration': milliseconds shown as humanDuration; 'restarts': a count followed by
 * "(5m ago)" taken from the row's 'lastRestart' cell; 'name': the object's name (as metav1 marks it).
 */
export type ColumnFormat = 'name' | 'age' | 'timestamp' | 'duration' | 'restarts' | 'lastRestart';

export interface ColumnDefinition {
  /** As the API server's Table names it ("Nominated Node"); kubectl prints it upper-cased. */
  name: string;
  type: ColumnType;
  /** 0: always printed; 1: printed with `-o wide` only. */
  priority: 0 | 1;
  format?: ColumnFormat;
  /** Text for a null cell; "<none>" when not given, as kubectl prints a missing value. */
  missing?: string;
  /** A value other columns read (the pod's last restart time), never shown as a column of its own. */
  hidden?: boolean;
}

/** A kind's columns and the projection of an object onto them, cell i belonging to column i. */
export interface KindPrinter {
  readonly columns: readonly ColumnDefinition[];
  /** `now` (epoch ms) is read only by cells kubectl computes from the clock, e.g. a running Job's duration. */
  cells(object: KubeObject, now: number): CellValue[];
}

/** A text column (kubectl's "string" cells), always printed unless `priority` is 1 (-o wide). */
export function stringColumn(name: string, priority: 0 | 1 = 0): ColumnDefinition {
  return { name, type: 'string', priority };
}

/** A count column, always printed. */
export function integerColumn(name: string): ColumnDefinition {
  return { name, type: 'integer', priority: 0 };
}

export const nameColumn: ColumnDefinition = { name: 'Name', type: 'string', priority: 0, format: 'name' };
export const ageColumn: ColumnDefinition = {
  name: 'Age',
  type: 'date',
  priority: 0,
  format: 'age',
  missing: '<unknown>',
};

/** Wide columns of controllers: their pod template's containers and images, and their selector. */
export const containersColumn: ColumnDefinition = { name: 'Containers', type: 'string', priority: 1 };
export const imagesColumn: ColumnDefinition = { name: 'Images', type: 'string', priority: 1 };
export const selectorColumn: ColumnDefinition = { name: 'Selector', type: 'string', priority: 1 };

/** A string field of loosely typed JSON, or undefined. */
export function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A numeric field of loosely typed JSON, or `fallback` (Go's zero value) when omitted. */
export function count(value: unknown, fallback = 0): number {
  return typeof value === 'number' ? value : fallback;
}

/** An RFC 3339 time of the JSON as epoch ms; null when absent or unreadable (Go's zero time). */
export function timestamp(value: unknown): number | null {
  if (typeof value !== 'string' || value === '') return null;
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? null : parsed;
}

/** A nested object field of loosely typed JSON ({} when absent), for reading paths without checks. */
export function field(value: unknown, name: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return {};
  const nested = (value as Record<string, unknown>)[name];
  return typeof nested === 'object' && nested !== null && !Array.isArray(nested)
    ? (nested as Record<string, unknown>)
    : {};
}

/** An array field of loosely typed JSON ([] when absent). */
export function list(value: unknown, name: string): Record<string, unknown>[] {
  if (typeof value !== 'object' || value === null) return [];
  const nested = (value as Record<string, unknown>)[name];
  return Array.isArray(nested) ? (nested as Record<string, unknown>[]) : [];
}

export function createdAt(object: KubeObject): number | null {
  return timestamp(object.metadata.creationTimestamp);
}

/** labels.FormatLabels: "k=v,k2=v2" sorted by key, "<none>" when empty. */
export function formatLabels(labels: unknown): string {
  if (typeof labels !== 'object' || labels === null) return '<none>';
  const entries = Object.entries(labels as Record<string, string>).sort(([left], [right]) =>
    left < right ? -1 : left > right ? 1 : 0,
  );
  return entries.length === 0 ? '<none>' : entries.map(([key, value]) => `${key}=${value}`).join(',');
}

/** metav1.LabelSelectorAsSelector(...).String(); "<error>" for a selector the API server would reject. */
export function formatLabelSelector(selector: unknown): string {
  try {
    return selectorFromLabelSelector(selector as MetaLabelSelector | undefined).toString();
  } catch {
    return '<error>';
  }
}

/** layoutContainerCells: names and images of a pod template's containers, comma-separated. */
export function containerCells(podTemplate: unknown): [string, string] {
  const containers = list(field(podTemplate, 'spec'), 'containers');
  return [
    containers.map((container) => text(container['name']) ?? '').join(','),
    containers.map((container) => text(container['image']) ?? '').join(','),
  ];
}
