// One metrics cell, formatted as kubectl top prints it (millicores, MiB, whole percentages). The table
// reads the MetricsStore once (TableMetrics) and its cells take the metrics from context, so a new
// sample re-renders the visible metrics cells and nothing else; while travelling, the sample recorded
// for that moment. Each cell reading the store itself subscribed twice and ran an effect: at 60
// visible pods, 120 cells and 360 hooks mounted, unmounted and notified whenever a filter changed how
// many rows the window holds. A percentage without a reference reads "n/a" as in k9s; no sample yet
// (or metrics not served) is blank, because the table header says once why (MetricsNote), not every
// row.
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { formatCpu, formatMemory } from '../../shared/kube/quantity';
import type { MetricsResource } from '../../shared/protocol/metrics-messages';
import type { Row } from '../../shared/protocol/row';
import type { MetricColumnSource } from './metric-columns';
import type { ResourceMetrics } from '../store/metrics-store';
import { metricValue } from './metric-columns';
import { useView } from './app-context';
import { useMetrics, useMetricsOf } from './use-metrics';
import { fittedCell } from '../components/cell-fit';
import { gridCell } from '../components/grid-cell';

interface ShownMetrics {
  readonly resource: MetricsResource;
  readonly metrics: ResourceMetrics;
}

const ShownMetricsContext = createContext<ShownMetrics | undefined>(undefined);

/**
 * Reads `resource`'s metrics once for every MetricCell inside it (see useMetrics); none for a kind the
 * metrics API does not cover, with the same element tree, so a kind switch keeps the table mounted.
 */
export function TableMetrics(props: {
  readonly resource: MetricsResource | undefined;
  readonly children: ReactNode;
}): ReactNode {
  const { resource } = props;
  // While travelling: the samples the recording kept for that moment.
  const metrics = useMetricsOf(resource);
  const shown = useMemo(
    () => (resource !== undefined && metrics !== undefined ? { resource, metrics } : undefined),
    [resource, metrics],
  );
  return <ShownMetricsContext.Provider value={shown}>{props.children}</ShownMetricsContext.Provider>;
}

export function MetricCell(props: {
  /** The class the table gives the cell (VirtualTable's renderCell). */
  readonly cell: string;
  readonly row: Row;
  readonly source: MetricColumnSource;
  /** The least width of the cell's text (px): longer text is clipped by the cell (see fittedCell). */
  readonly leastWidth: number;
}): ReactNode {
  const { cell, row, source, leastWidth } = props;
  const shown = useContext(ShownMetricsContext);
  const sample = shown?.resource === source.resource ? shown.metrics.latest.get(row.key) : undefined;
  if (!sample) return gridCell(`${cell} fits`, null);
  const value = metricValue(source, row, sample);
  if (value === undefined)
    return gridCell(fittedCell(cell, 'n/a', leastWidth), 'n/a', { className: 'cell-faint' });
  if (source.referenceCell !== undefined) {
    const level = value >= 90 ? 'metric-hot' : value >= 70 ? 'metric-warm' : undefined;
    return gridCell(fittedCell(cell, `${value}%`, leastWidth), `${value}%`, { className: level });
  }
  const text = source.unit === 'cpu' ? formatCpu(value) : formatMemory(value);
  return gridCell(fittedCell(cell, text, leastWidth), text, { className: 'cell-mono' });
}

/** The one line saying why the metrics columns are empty (or stale), beside the kind's title. */
export function MetricsNote(props: { readonly resource: MetricsResource }): ReactNode {
  const metrics = useMetrics(props.resource);
  const travelling = useView((state) => state.travel !== undefined);
  const text = travelling
    ? metrics.availability === 'absent'
      ? 'no metrics recorded at this moment'
      : metrics.availability === 'failing'
        ? 'recorded metrics unreadable'
        : undefined
    : metrics.availability === 'absent'
      ? 'metrics API not served'
      : metrics.availability === 'forbidden'
        ? 'no access to metrics'
        : metrics.availability === 'failing'
          ? 'metrics stale'
          : undefined;
  if (!text) return null;
  return (
    <span
      className="content-subtitle muted"
      data-testid="metrics-note"
      title={metrics.reason ?? 'CPU and memory need metrics.k8s.io (metrics-server) on the cluster.'}
    >
      {text}
    </span>
  );
}
