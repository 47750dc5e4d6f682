// Policy columns as kubectl's printers compute them: printPodDisruptionBudget, printResourceQuota and
// printPriorityClass; LimitRange has no printer, so the API server's default table (NAME, CREATED AT).

import type { CellValue, KindPrinter } from './column-definition';
import {
  ageColumn,
  count,
  createdAt,
  field,
  integerColumn,
  nameColumn,
  stringColumn,
  text,
} from './column-definition';

export { createdAtPrinter as limitRangePrinter } from './custom-resources';

/** An IntOrString as intstr.String() prints it ("1", "50%"); "N/A" when the budget leaves it out. */
function intOrString(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return value;
  return 'N/A';
}

export const podDisruptionBudgetPrinter: KindPrinter = {
  columns: [
    nameColumn,
    stringColumn('Min Available'),
    stringColumn('Max Unavailable'),
    integerColumn('Allowed Disruptions'),
    ageColumn,
  ],
  cells(budget): CellValue[] {
    const spec = field(budget, 'spec');
    return [
      budget.metadata.name ?? '',
      intOrString(spec['minAvailable']),
      intOrString(spec['maxUnavailable']),
      count(field(budget, 'status')['disruptionsAllowed']),
      createdAt(budget),
    ];
  },
};

/**
 * REQUEST and LIMIT: each resource of status.hard, sorted by name, as "name: used/hard" (used "0"
 * when not yet counted); "limits.*" resources go to LIMIT, every other one to REQUEST.
 */
function quotaColumns(quota: Record<string, unknown>): [string, string] {
  const status = field(quota, 'status');
  const hard = field(status, 'hard');
  const used = field(status, 'used');
  const requests: string[] = [];
  const limits: string[] = [];
  for (const resource of Object.keys(hard).sort()) {
    const entry = `${resource}: ${text(used[resource]) ?? '0'}/${text(hard[resource]) ?? '0'}`;
    const pieces = resource.split('.');
    (pieces.length > 1 && pieces[0] === 'limits' ? limits : requests).push(entry);
  }
  return [requests.join(', '), limits.join(', ')];
}

export const resourceQuotaPrinter: KindPrinter = {
  columns: [nameColumn, ageColumn, stringColumn('Request'), stringColumn('Limit')],
  cells(quota): CellValue[] {
    return [quota.metadata.name ?? '', createdAt(quota), ...quotaColumns(quota)];
  },
};

export const priorityClassPrinter: KindPrinter = {
  columns: [
    nameColumn,
    integerColumn('Value'),
    stringColumn('Global-Default'),
    ageColumn,
    stringColumn('PreemptionPolicy'),
  ],
  cells(priorityClass): CellValue[] {
    return [
      priorityClass.metadata.name ?? '',
      count(priorityClass['value']),
      String(priorityClass['globalDefault'] === true),
      createdAt(priorityClass),
      text(priorityClass['preemptionPolicy']) ?? '',
    ];
  },
};

export const runtimeClassPrinter: KindPrinter = {
  columns: [nameColumn, stringColumn('Handler'), ageColumn],
  cells(runtimeClass): CellValue[] {
    return [runtimeClass.metadata.name ?? '', text(runtimeClass['handler']) ?? '', createdAt(runtimeClass)];
  },
};
