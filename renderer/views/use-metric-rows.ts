// Filtering and sorting by metrics. Samples live beside the rows (MetricsStore), so the row query
// filters and sorts everything else, and this narrows its keys by the filter's metrics comparisons
// (`cpu>250m`) and reorders them by a metrics column: again when the keys change and when new samples
// land (every resolution window), never on every row batch in between. Rows without a value (no sample
// yet, no request set) go last in either direction, as kubectl's sort puts missing values.
import { useMemo } from 'react';
import type { MetricsResource } from '../../shared/protocol/metrics-messages';
import type { MetricCondition } from '../ui-state/filter-expression';
import type { ResourceMetrics } from '../store/metrics-store';
import type { KindRows } from './use-kind-rows';
import type { KindColumn } from './table-columns';
import { metricValue } from './metric-columns';
import { useMetrics } from './use-metrics';

const compare: Record<MetricCondition['operator'], (left: number, right: number) => boolean> = {
  '>': (left, right) => left > right,
  '>=': (left, right) => left >= right,
  '<': (left, right) => left < right,
  '<=': (left, right) => left <= right,
};

function passes(metrics: ResourceMetrics, key: string, conditions: readonly MetricCondition[]): boolean {
  const sample = metrics.latest.get(key);
  if (!sample) return false;
  return conditions.every((condition) =>
    compare[condition.operator](condition.unit === 'cpu' ? sample.cpu : sample.memory, condition.value),
  );
}

/**
 * `rows` narrowed by `conditions` and ordered by `column` when it is a metrics column. `resource` is the
 * kind's metrics resource; a kind without metrics matches no comparison.
 */
export function useMetricRows(
  rows: KindRows,
  resource: MetricsResource | undefined,
  conditions: readonly MetricCondition[] | undefined,
  column: KindColumn | undefined,
  descending: boolean,
): KindRows {
  const source = column?.metric;
  const metrics = useMetrics(resource ?? 'pods');
  const mirror = rows.mirror;
  const keys = useMemo(() => {
    let keys = rows.keys;
    if (conditions && conditions.length > 0)
      keys = resource ? keys.filter((key) => passes(metrics, key, conditions)) : [];
    if (!source || !mirror) return keys;
    const direction = descending ? -1 : 1;
    const decorated = keys.map((key, index) => {
      const row = mirror.rows.get(key);
      return { key, index, value: row ? metricValue(source, row, metrics.latest.get(key)) : undefined };
    });
    decorated.sort((left, right) => {
      if (left.value === undefined || right.value === undefined) {
        if (left.value !== right.value) return left.value === undefined ? 1 : -1;
        return left.index - right.index;
      }
      return (left.value - right.value) * direction || left.index - right.index;
    });
    return decorated.map((entry) => entry.key);
    // metrics changes identity with every metrics message: that is the re-filter and re-sort signal.
  }, [rows.keys, mirror, resource, conditions, source, descending, metrics]);
  return keys === rows.keys ? rows : { ...rows, keys };
}
