// The metrics columns of pods and nodes, k9s's set: for pods CPU, %CPU/R, %CPU/L, MEM, %MEM/R, %MEM/L
// (percentages of the pod's summed requests and limits); for nodes CPU, %CPU, MEM, %MEM (of
// allocatable, as kubectl top node computes them). Values come from the MetricsStore, the references
// from the row's hidden cells, so a refresh of the samples touches no row.
import type { ColumnDefinition } from '../../shared/kinds/columns/column-definition';
import { percentOf } from '../../shared/kube/quantity';
import type { MetricsResource } from '../../shared/protocol/metrics-messages';
import type { Row } from '../../shared/protocol/row';
import type { MetricSample } from '../store/sample-history';

export type MetricUnit = 'cpu' | 'memory';

/** Where a metrics column's value comes from: a sample, or a sample over a reference cell of the row. */
export interface MetricColumnSource {
  readonly resource: MetricsResource;
  readonly unit: MetricUnit;
  /** The row cell holding the reference (a request, a limit, allocatable) for a percentage column. */
  readonly referenceCell?: number;
}

export interface MetricColumnSpec {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly source: MetricColumnSource;
}

/** Every metrics column id starts with this, so the view store's sort keeps working across kinds. */
export const metricColumnPrefix = 'metrics:';

function column(
  id: string,
  title: string,
  description: string,
  resource: MetricsResource,
  unit: MetricUnit,
  referenceCell?: number,
): MetricColumnSpec {
  return {
    id: metricColumnPrefix + id,
    title,
    description,
    source: { resource, unit, ...(referenceCell !== undefined ? { referenceCell } : {}) },
  };
}

/** The metrics columns for a kind's printer columns: pods' and nodes' (core/v1) only. */
export function metricColumnSpecs(
  definitions: readonly ColumnDefinition[],
  kind: string,
): MetricColumnSpec[] {
  const cell = (name: string) => {
    const index = definitions.findIndex((definition) => definition.hidden && definition.name === name);
    return index >= 0 ? index : undefined;
  };
  if (kind === 'Pod') {
    return [
      column('cpu', 'CPU', 'CPU used, all containers (millicores)', 'pods', 'cpu'),
      column('cpu-request', '%CPU/R', 'CPU used, % of requests', 'pods', 'cpu', cell('CPU Requests')),
      column('cpu-limit', '%CPU/L', 'CPU used, % of limits', 'pods', 'cpu', cell('CPU Limits')),
      column('memory', 'MEM', 'Memory used, all containers (MiB)', 'pods', 'memory'),
      column(
        'memory-request',
        '%MEM/R',
        'Memory used, % of requests',
        'pods',
        'memory',
        cell('Memory Requests'),
      ),
      column('memory-limit', '%MEM/L', 'Memory used, % of limits', 'pods', 'memory', cell('Memory Limits')),
    ].filter((spec) => !spec.id.includes('-') || spec.source.referenceCell !== undefined);
  }
  if (kind === 'Node') {
    return [
      column('cpu', 'CPU', 'CPU used (millicores)', 'nodes', 'cpu'),
      column(
        'cpu-allocatable',
        '%CPU',
        'CPU used, % of allocatable',
        'nodes',
        'cpu',
        cell('CPU Allocatable'),
      ),
      column('memory', 'MEM', 'Memory used (MiB)', 'nodes', 'memory'),
      column(
        'memory-allocatable',
        '%MEM',
        'Memory used, % of allocatable',
        'nodes',
        'memory',
        cell('Memory Allocatable'),
      ),
    ].filter((spec) => !spec.id.includes('-') || spec.source.referenceCell !== undefined);
  }
  return [];
}

/**
 * The column's raw value for a row: cores or bytes, or a whole percentage; undefined without a sample,
 * or for a percentage without a reference (no request or limit set).
 */
export function metricValue(
  source: MetricColumnSource,
  row: Row,
  sample: MetricSample | undefined,
): number | undefined {
  if (!sample) return undefined;
  const used = source.unit === 'cpu' ? sample.cpu : sample.memory;
  if (source.referenceCell === undefined) return used;
  const reference = row.cells[source.referenceCell];
  return percentOf(used, typeof reference === 'number' ? reference : undefined);
}
