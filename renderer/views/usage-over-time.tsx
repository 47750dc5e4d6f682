// A workload's, pod's or node's CPU and memory over the recording (issue 14: usage kept with
// history), from the samples recorded at the metrics API's resolution: one line each, the viewed
// moment marked (the travel time, else now), and a click on the chart travels to the poll under the
// pointer. Above the History tab, so a change's version list and the usage around it read together.
import { useEffect, useState, type ReactNode } from 'react';
import type { GroupVersionResource } from '../../shared/kube/object';
import { formatCpu, formatMemory } from '../../shared/kube/quantity';
import type { RecordedUsage, UsagePoint, UsageSubject } from '../../shared/protocol';
import { useServices } from './app-context';
import { formatClock } from './timeline-format';

const width = 320;
const height = 40;
/** One point per poll up to ~this many, then evenly spread polls: about one per 2 px. */
const points = 160;
/** New samples come once per metrics window: the chart catches up at that pace while live. */
const liveRefreshMs = 15_000;

const kindsByResource: Record<string, UsageSubject['kind']> = {
  '/pods': 'Pod',
  '/nodes': 'Node',
  'apps/deployments': 'Deployment',
  'apps/statefulsets': 'StatefulSet',
  'apps/daemonsets': 'DaemonSet',
};

/** The usage subject for an object of `gvr`, when the recording keeps its usage; else undefined. */
export function usageSubjectOf(
  gvr: GroupVersionResource,
  namespace: string | undefined,
  name: string,
): UsageSubject | undefined {
  const kind = kindsByResource[`${gvr.group}/${gvr.resource}`];
  if (!kind) return undefined;
  return { kind, namespace: kind === 'Node' ? '' : (namespace ?? ''), name };
}

type Loaded =
  { state: 'loading' } | { state: 'loaded'; usage: RecordedUsage } | { state: 'failed'; message: string };

/** `subject`'s recorded usage over [from, to] (default: all), asked again every window while `live`. */
export function useRecordedUsage(
  subject: UsageSubject,
  count: number,
  range: { readonly from?: number; readonly to?: number },
  live: boolean,
): Loaded {
  const { bridge } = useServices();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const { kind, namespace, name } = subject;
  const { from, to } = range;
  useEffect(() => {
    let cancelled = false;
    const ask = () =>
      bridge
        .history<RecordedUsage>({
          type: 'historyUsage',
          subject: { kind, namespace, name },
          points: count,
          ...(from !== undefined ? { from } : {}),
          ...(to !== undefined ? { to } : {}),
        })
        .then(
          (usage) => !cancelled && setLoaded({ state: 'loaded', usage }),
          (error: unknown) =>
            !cancelled &&
            setLoaded({ state: 'failed', message: error instanceof Error ? error.message : String(error) }),
        );
    void ask();
    const timer = live ? setInterval(() => void ask(), liveRefreshMs) : undefined;
    return () => {
      cancelled = true;
      clearInterval(timer);
    };
  }, [bridge, kind, namespace, name, count, from, to, live]);
  return loaded;
}

function UsageLine(props: {
  readonly label: string;
  readonly points: readonly UsagePoint[];
  readonly value: (point: UsagePoint) => number;
  readonly format: (value: number) => string;
  readonly marked: number;
  readonly onTravel: (time: number) => void;
}): ReactNode {
  const { points: line, value } = props;
  const first = line[0]!.time;
  const span = Math.max(1, line[line.length - 1]!.time - first);
  const peak = Math.max(...line.map(value)) * 1.2 || 1;
  const x = (time: number) => ((time - first) / span) * width;
  const y = (amount: number) => height - 2 - (amount / peak) * (height - 4);
  // The poll shown at the marked moment: the last at or before it (the columns' rule).
  const shown = [...line].reverse().find((point) => point.time <= props.marked);
  const markedX = Math.min(width, Math.max(0, x(props.marked)));
  return (
    <div className="metrics-chart-row">
      <span className="metrics-chart-label">{props.label}</span>
      <svg
        className="metrics-chart usage-chart"
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={`${props.label} from ${formatClock(first)} to ${formatClock(first + span)}`}
        onClick={(event) => {
          const box = event.currentTarget.getBoundingClientRect();
          const time = first + ((event.clientX - box.left) / box.width) * span;
          const nearest = line.reduce((best, point) =>
            Math.abs(point.time - time) < Math.abs(best.time - time) ? point : best,
          );
          props.onTravel(nearest.time);
        }}
      >
        <polyline
          className="metrics-chart-line"
          points={line.map((point) => `${x(point.time).toFixed(1)},${y(value(point)).toFixed(1)}`).join(' ')}
        />
        <line className="usage-chart-marker" x1={markedX} x2={markedX} y1={0} y2={height} />
      </svg>
      <span className="metrics-chart-value cell-mono" title={shown ? formatClock(shown.time) : undefined}>
        {shown ? props.format(value(shown)) : '–'}
      </span>
    </div>
  );
}

export function UsageOverTime(props: {
  readonly subject: UsageSubject;
  /** The viewed moment (travel time); undefined while live. */
  readonly travelTime: number | undefined;
  readonly onTravel: (time: number) => void;
}): ReactNode {
  const loaded = useRecordedUsage(props.subject, points, {}, props.travelTime === undefined);
  if (loaded.state === 'loading') return null;
  if (loaded.state === 'failed')
    return (
      <div className="usage-over-time detail-message error">
        Cannot read the recorded usage: {loaded.message}
      </div>
    );
  const line = loaded.usage.points;
  if (line.length < 2)
    return (
      <div className="usage-over-time muted" data-testid="usage-over-time">
        No CPU or memory recorded for this {props.subject.kind.toLowerCase()} yet.
      </div>
    );
  const marked = props.travelTime ?? line[line.length - 1]!.time;
  const last = line[line.length - 1]!;
  const pods = props.subject.kind === 'Pod' || props.subject.kind === 'Node' ? '' : `, ${last.objects} pods`;
  return (
    <div className="usage-over-time metrics-charts" data-testid="usage-over-time">
      <div className="usage-over-time-title muted">
        Usage {formatClock(line[0]!.time)} – {formatClock(last.time)}
        {pods} · click to travel
      </div>
      <UsageLine
        label="CPU"
        points={line}
        value={(point) => point.cpu}
        format={formatCpu}
        marked={marked}
        onTravel={props.onTravel}
      />
      <UsageLine
        label="MEM"
        points={line}
        value={(point) => point.memory}
        format={formatMemory}
        marked={marked}
        onTravel={props.onTravel}
      />
    </div>
  );
}
