// The columns `kubectl get` prints for each kind, computed the way kubectl's printers compute them
// (k8s.io/kubernetes/pkg/printers/internalversion/printers.go), and their text. Cells stay raw for
// sorting; formatRow turns a row into what kubectl would print at a given moment.

import type { KubeObject } from '../kube/object';
import type { KindInfo } from './registry';
import type { CellValue, ColumnDefinition, KindPrinter } from './columns/column-definition';
import { humanDuration } from './columns/human-duration';
import { podPrinter } from './columns/pods';
import { horizontalPodAutoscalerPrinter } from './columns/autoscaling';
import { endpointSlicePrinter } from './columns/endpoint-slices';
import {
  limitRangePrinter,
  podDisruptionBudgetPrinter,
  priorityClassPrinter,
  resourceQuotaPrinter,
  runtimeClassPrinter,
} from './columns/policy';
import {
  controllerRevisionPrinter,
  cronJobPrinter,
  daemonSetPrinter,
  deploymentPrinter,
  jobPrinter,
  replicaSetPrinter,
  statefulSetPrinter,
} from './columns/workloads';
import {
  endpointsPrinter,
  ingressClassPrinter,
  ingressPrinter,
  networkPolicyPrinter,
  servicePrinter,
} from './columns/network';
import { eventPrinter, leasePrinter, namespacePrinter, nodePrinter } from './columns/cluster';
import {
  configMapPrinter,
  persistentVolumeClaimPrinter,
  persistentVolumePrinter,
  secretPrinter,
  storageClassPrinter,
} from './columns/config-and-storage';
import { roleBindingPrinter, rolePrinter, serviceAccountPrinter } from './columns/access-control';
import {
  createdAtPrinter,
  genericPrinter,
  printerForCustomResourceDefinition,
} from './columns/custom-resources';

export type {
  CellValue,
  ColumnDefinition,
  ColumnFormat,
  ColumnType,
  KindPrinter,
} from './columns/column-definition';
export { humanDuration } from './columns/human-duration';
export { podStatusCategory } from './columns/pod-status-category';
export type { PodStatusCategory } from './columns/pod-status-category';
export { summarizePod } from './columns/pods';
export type { PodSummary } from './columns/pods';
export { jobStatus } from './columns/workloads';
export { nodeStatus, nodeRoles } from './columns/cluster';
export {
  genericPrinter,
  printerForCustomResourceDefinition,
  printerForPrinterColumns,
} from './columns/custom-resources';
export type { CustomResourceColumnDefinition } from './columns/custom-resources';

/** Built-in printers by "resource.group" ("pods" for the core group). */
const builtinPrinters: ReadonlyMap<string, KindPrinter> = new Map([
  ['pods', podPrinter],
  ['nodes', nodePrinter],
  ['namespaces', namespacePrinter],
  ['events', eventPrinter],
  ['services', servicePrinter],
  ['endpoints', endpointsPrinter],
  ['configmaps', configMapPrinter],
  ['secrets', secretPrinter],
  ['serviceaccounts', serviceAccountPrinter],
  ['persistentvolumes', persistentVolumePrinter],
  ['persistentvolumeclaims', persistentVolumeClaimPrinter],
  ['deployments.apps', deploymentPrinter],
  ['replicasets.apps', replicaSetPrinter],
  ['statefulsets.apps', statefulSetPrinter],
  ['daemonsets.apps', daemonSetPrinter],
  ['jobs.batch', jobPrinter],
  ['cronjobs.batch', cronJobPrinter],
  ['ingresses.networking.k8s.io', ingressPrinter],
  ['networkpolicies.networking.k8s.io', networkPolicyPrinter],
  ['leases.coordination.k8s.io', leasePrinter],
  ['storageclasses.storage.k8s.io', storageClassPrinter],
  ['roles.rbac.authorization.k8s.io', rolePrinter],
  ['clusterroles.rbac.authorization.k8s.io', rolePrinter],
  ['rolebindings.rbac.authorization.k8s.io', roleBindingPrinter],
  ['clusterrolebindings.rbac.authorization.k8s.io', roleBindingPrinter],
  ['customresourcedefinitions.apiextensions.k8s.io', createdAtPrinter],
  ['controllerrevisions.apps', controllerRevisionPrinter],
  ['horizontalpodautoscalers.autoscaling', horizontalPodAutoscalerPrinter],
  ['poddisruptionbudgets.policy', podDisruptionBudgetPrinter],
  ['resourcequotas', resourceQuotaPrinter],
  ['limitranges', limitRangePrinter],
  ['priorityclasses.scheduling.k8s.io', priorityClassPrinter],
  ['runtimeclasses.node.k8s.io', runtimeClassPrinter],
  ['endpointslices.discovery.k8s.io', endpointSlicePrinter],
  ['ingressclasses.networking.k8s.io', ingressClassPrinter],
]);

/**
 * The printer of a kind: a built-in's own; for a custom resource, its CRD's printer columns when the
 * CustomResourceDefinition object is given (build it once per CRD change: paths are compiled); else
 * NAME AGE.
 */
export function printerFor(
  kind: Pick<KindInfo, 'group' | 'resource'>,
  customResourceDefinition?: KubeObject,
): KindPrinter {
  const key = kind.group === '' ? kind.resource : `${kind.resource}.${kind.group}`;
  const builtin = builtinPrinters.get(key);
  if (builtin !== undefined) return builtin;
  if (customResourceDefinition !== undefined)
    return printerForCustomResourceDefinition(customResourceDefinition);
  return genericPrinter;
}

/** The header kubectl prints for a column: its name upper-cased ("NOMINATED NODE", "PORT(S)"). */
export function columnHeader(column: ColumnDefinition): string {
  return column.name.toUpperCase();
}

/** The columns `kubectl get` shows: priority 0, plus priority 1 with -o wide; hidden ones never. */
export function visibleColumns(columns: readonly ColumnDefinition[], wide: boolean): ColumnDefinition[] {
  return columns.filter((column) => !column.hidden && (wide || column.priority === 0));
}

/** RFC 3339 in UTC to the second, as Go's time.RFC3339 prints a metav1.Time. */
function rfc3339(epochMilliseconds: number): string {
  return new Date(epochMilliseconds).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The text of one raw cell at time `now` (epoch ms). A 'restarts' cell alone prints just its count. */
export function formatCell(column: ColumnDefinition, value: CellValue, now: number): string {
  if (value === null) return column.missing ?? '<none>';
  if (typeof value !== 'number') return String(value);
  switch (column.format) {
    case 'age':
    case 'lastRestart':
      return humanDuration(now - value);
    case 'timestamp':
      return rfc3339(value);
    case 'duration':
      return humanDuration(value);
    default:
      return String(value);
  }
}

/**
 * The texts of a whole row, hidden columns included (callers pick with visibleColumns' indexes). A
 * 'restarts' count is followed by "(5m ago)" from the row's 'lastRestart' cell, as kubectl prints it.
 */
export function formatRow(
  columns: readonly ColumnDefinition[],
  cells: readonly CellValue[],
  now: number,
): string[] {
  const lastRestartIndex = columns.findIndex((column) => column.format === 'lastRestart');
  return columns.map((column, index) => {
    const value = cells[index] ?? null;
    const text = formatCell(column, value, now);
    if (column.format !== 'restarts' || lastRestartIndex === -1 || value === 0) return text;
    const lastRestart = cells[lastRestartIndex];
    return typeof lastRestart === 'number' ? `${text} (${humanDuration(now - lastRestart)} ago)` : text;
  });
}

/** A meta.k8s.io/v1 Table column definition. */
export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

/** A meta.k8s.io/v1 Table row; `object` is whatever the request's includeObject asks for. */
export interface TableRow {
  cells: (string | number)[];
  object?: unknown;
}

/**
 * The columns and cells of a meta.k8s.io/v1 Table, as the API server answers `kubectl get`: every
 * column but the hidden ones, in kubectl's types (integer counts stay numbers, everything else is the
 * text kubectl prints, since that is what the server's printers put in cells).
 */
export function tableColumnsAndRows(
  printer: KindPrinter,
  objects: readonly KubeObject[],
  now: number,
  rowObject: (object: KubeObject) => unknown = () => undefined,
): { columnDefinitions: TableColumnDefinition[]; rows: TableRow[] } {
  const shown = printer.columns.flatMap((column, index) => (column.hidden ? [] : [{ column, index }]));
  const isInteger = (column: ColumnDefinition) => column.type === 'integer' && column.format !== 'restarts';
  const columnDefinitions = shown.map(({ column }) => ({
    name: column.name,
    type: isInteger(column) ? 'integer' : column.format === 'timestamp' ? 'date' : 'string',
    format: column.format === 'name' ? 'name' : '',
    description: '',
    priority: column.priority,
  }));
  const rows = objects.map((object) => {
    const cells = printer.cells(object, now);
    const texts = formatRow(printer.columns, cells, now);
    const row: TableRow = {
      cells: shown.map(({ column, index }) => {
        const value = cells[index] ?? null;
        return isInteger(column) && typeof value === 'number' ? value : texts[index]!;
      }),
    };
    const attached = rowObject(object);
    if (attached !== undefined) row.object = attached;
    return row;
  });
  return { columnDefinitions, rows };
}
