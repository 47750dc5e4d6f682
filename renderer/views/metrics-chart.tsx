// The detail pane's chart of an object's recent CPU and memory: one sparkline each over the samples
// the MetricsStore's ring holds (the last ~15 minutes; while travelling, the recorded ones), in plain SVG. Each line is scaled to its own
// peak (and to the request when one is set, drawn dashed), so the shape reads at a glance.
import type { ReactNode } from 'react';
import { formatCpu, formatMemory } from '../../shared/kube/quantity';
import type { MetricsResource } from '../../shared/protocol/metrics-messages';
import type { MetricSample } from '../store/sample-history';
import { useServices, useView } from './app-context';
import { printerFor } from '../../shared/kinds/columns';
import type { Row } from '../../shared/protocol/row';
import type { CatalogKind } from './kind-catalog';
import { metricsResourceOfKind, useMetrics } from './use-metrics';
import { useRecordedUsage } from './usage-over-time';

const width = 240;
const height = 36;
/** What the ring holds at metrics-server's resolution (defaultSampleCapacity × 15 s). */
const chartWindowMs = 15 * 60_000;
/** The recorded polls of that span, at most (a poll per 15 s). */
const chartPoints = 60;

function Sparkline(props: {
  readonly label: string;
  readonly samples: readonly MetricSample[];
  readonly value: (sample: MetricSample) => number;
  readonly format: (value: number) => string;
  readonly reference?: number;
}): ReactNode {
  const { samples, value } = props;
  const values = samples.map(value);
  // Headroom above the peak keeps the line off the frame; the x axis is always the last 15 minutes,
  // ending at the newest sample, so a young pod's line grows from the right.
  const peak = Math.max(...values, props.reference ?? 0) * 1.2 || 1;
  const last = samples[samples.length - 1]!.time;
  const span = last - samples[0]!.time;
  const x = (time: number) => width - ((last - time) / chartWindowMs) * width;
  const y = (amount: number) => height - 2 - (amount / peak) * (height - 4);
  const points = samples.map(
    (sample, index) => `${x(sample.time).toFixed(1)},${y(values[index]!).toFixed(1)}`,
  );
  const latest = values[values.length - 1]!;
  return (
    <div className="metrics-chart-row">
      <span className="metrics-chart-label">{props.label}</span>
      <svg
        className="metrics-chart"
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={`${props.label} over the last ${Math.max(1, Math.round(span / 60_000))} minutes`}
      >
        {props.reference !== undefined && (
          <line
            className="metrics-chart-reference"
            x1={0}
            x2={width}
            y1={y(props.reference)}
            y2={y(props.reference)}
          >
            <title>{`requests ${props.format(props.reference)}`}</title>
          </line>
        )}
        <polyline className="metrics-chart-line" points={points.join(' ')} />
      </svg>
      <span className="metrics-chart-value cell-mono">{props.format(latest)}</span>
    </div>
  );
}

/**
 * CPU and memory of the object `rowKey`; nothing until a sample arrived. While travelling: the samples
 * recorded in the 15 minutes up to the moment shown.
 */
export function MetricsChart(props: {
  readonly resource: MetricsResource;
  readonly rowKey: string;
  readonly cpuReference?: number;
  readonly memoryReference?: number;
}): ReactNode {
  const travelTime = useView((state) => state.travel?.time);
  if (travelTime !== undefined) return <PastMetricsChart {...props} time={travelTime} />;
  return <LiveMetricsChart {...props} />;
}

type MetricsChartProps = Parameters<typeof MetricsChart>[0];

function LiveMetricsChart(props: MetricsChartProps): ReactNode {
  const { metrics } = useServices().bridge;
  // Subscribed for the re-render on every new sample; the ring is read from the store.
  const current = useMetrics(props.resource);
  if (!current.latest.has(props.rowKey)) return null;
  return <Sparklines {...props} samples={metrics.history(props.resource, props.rowKey)} />;
}

/** While travelling: the object's samples recorded in the chart's span up to the moment shown. */
function PastMetricsChart(props: MetricsChartProps & { readonly time: number }): ReactNode {
  const [namespace, name] = props.rowKey.includes('/') ? props.rowKey.split('/') : ['', props.rowKey];
  const subject = { kind: props.resource === 'pods' ? 'Pod' : 'Node', namespace, name: name! } as const;
  // Asked again per 5 s of travel, not per frame of playback; the line may end up to 5 s early.
  const to = Math.floor(props.time / 5_000) * 5_000;
  const loaded = useRecordedUsage(subject, chartPoints, { from: to - chartWindowMs, to }, false);
  if (loaded.state !== 'loaded' || loaded.usage.points.length === 0) return null;
  return <Sparklines {...props} samples={loaded.usage.points} />;
}

function Sparklines(props: MetricsChartProps & { readonly samples: readonly MetricSample[] }): ReactNode {
  const { samples } = props;
  return (
    <div className="metrics-charts" data-testid="metrics-chart">
      <Sparkline
        label="CPU"
        samples={samples}
        value={(sample) => sample.cpu}
        format={formatCpu}
        {...(props.cpuReference !== undefined ? { reference: props.cpuReference } : {})}
      />
      <Sparkline
        label="MEM"
        samples={samples}
        value={(sample) => sample.memory}
        format={formatMemory}
        {...(props.memoryReference !== undefined ? { reference: props.memoryReference } : {})}
      />
    </div>
  );
}

/** The chart for the detail pane's object, when its kind has metrics; requests drawn as references. */
export function DetailMetrics(props: {
  readonly kind: CatalogKind;
  readonly row: Row | undefined;
  readonly rowKey: string;
}): ReactNode {
  const resource = metricsResourceOfKind(props.kind.gvr);
  if (!resource || !props.row) return null;
  const definitions = props.kind.columns ?? printerFor(props.kind.gvr).columns;
  const reference = (name: string) => {
    const index = definitions.findIndex((definition) => definition.hidden && definition.name === name);
    const value = index >= 0 ? props.row!.cells[index] : undefined;
    return typeof value === 'number' ? value : undefined;
  };
  const cpuReference = reference('CPU Requests');
  const memoryReference = reference('Memory Requests');
  return (
    <MetricsChart
      resource={resource}
      rowKey={props.rowKey}
      {...(cpuReference !== undefined ? { cpuReference } : {})}
      {...(memoryReference !== undefined ? { memoryReference } : {})}
    />
  );
}
