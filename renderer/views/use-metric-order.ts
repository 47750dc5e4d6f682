// Sorting by a metrics column. Samples live beside the rows (MetricsStore), so the row query sorts by
// name and this reorders its keys by the column's values: again when the keys change and when new
// samples land (every resolution window), never on every row batch in between. Rows without a value
// (no sample yet, no request set) go last in either direction, as kubectl's sort puts missing values.
import { useMemo } from 'react';
import type { KindRows } from './use-kind-rows';
import type { KindColumn } from './table-columns';
import { metricValue } from './metric-columns';
import { useMetrics } from './use-metrics';

export function useMetricOrder(
  rows: KindRows,
  column: KindColumn | undefined,
  descending: boolean,
): KindRows {
  const source = column?.metric;
  const metrics = useMetrics(source?.resource ?? 'pods');
  const mirror = rows.mirror;
  const keys = useMemo(() => {
    if (!source || !mirror) return rows.keys;
    const direction = descending ? -1 : 1;
    const decorated = rows.keys.map((key, index) => {
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
    // metrics changes identity with every metrics message: that is the re-sort signal.
  }, [rows.keys, mirror, source, descending, metrics]);
  return keys === rows.keys ? rows : { ...rows, keys };
}
