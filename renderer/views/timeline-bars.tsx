// The timeline's chart: how busy each kind was in each slice of the recording, as stacked bars. It
// changes only when a new timeline arrives (every 2 s while live), while the window around it renders
// on every keystroke and every re-query under churn: kept apart and memoized, those renders skip its
// few hundred bars (and React's diff of them) instead of building them again each time.
import { memo, type ReactNode } from 'react';
import type { HistoryTimeline } from '../../shared/protocol';
import { kindColour } from './timeline-format';

/** One kind's changes per slice, and their sum. */
export interface KindDensity {
  readonly gvr: string;
  readonly counts: readonly number[];
  readonly total: number;
}

export interface TimelineDensity {
  /** Kinds that changed at all, busiest first. */
  readonly kinds: readonly KindDensity[];
  /** Changes per slice, every kind. */
  readonly totals: readonly number[];
}

/** The timeline's density by kind and by slice (`buckets` slices). */
export function timelineDensity(timeline: HistoryTimeline | undefined, buckets: number): TimelineDensity {
  const kinds = Object.entries(timeline?.density ?? {})
    .map(([gvr, counts]) => ({ gvr, counts, total: counts.reduce((sum, count) => sum + count, 0) }))
    .filter((kind) => kind.total > 0)
    .sort((left, right) => right.total - left.total);
  const totals = new Array<number>(buckets).fill(0);
  for (const kind of kinds) kind.counts.forEach((count, index) => (totals[index] += count));
  return { kinds, totals };
}

export const TimelineBars = memo(function TimelineBars(props: {
  readonly density: TimelineDensity;
  readonly buckets: number;
}): ReactNode {
  const { kinds, totals } = props.density;
  // Square-root scale: a relist's burst would otherwise flatten every ordinary change to nothing.
  const peak = Math.sqrt(Math.max(1, ...totals));
  return (
    <svg className="timeline-bars" viewBox={`0 0 ${props.buckets} 100`} preserveAspectRatio="none">
      {totals.map((total, index) => {
        let base = 100;
        const scale = total > 0 ? (Math.sqrt(total) / peak) * 92 : 0;
        return kinds.map((kind) => {
          const height = total > 0 ? (kind.counts[index]! / total) * Math.max(scale, 4) : 0;
          if (height <= 0) return null;
          base -= height;
          return (
            <rect
              key={`${kind.gvr}-${index}`}
              x={index + 0.12}
              y={base}
              width={0.76}
              height={height}
              fill={kindColour(kind.gvr)}
            />
          );
        });
      })}
    </svg>
  );
});
