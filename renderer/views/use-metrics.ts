// React's view of the MetricsStore: one resource's metrics, re-read whenever a metrics message lands
// (every resolution window), independently of the rows' revisions. While travelling, the metrics of
// the moment shown, as the recording kept them (asked of main once per moment, whoever reads them);
// while a playback moves it, the last answer (see PastMetrics).
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import type { MetricsResource } from '../../shared/protocol/metrics-messages';
import type { ResourceMetrics } from '../store/metrics-store';
import { useServices, useView } from './app-context';

export function useMetrics(resource: MetricsResource): ResourceMetrics {
  return useMetricsOf(resource)!;
}

/** useMetrics, or undefined for no resource (a kind the metrics API does not cover). */
export function useMetricsOf(resource: MetricsResource | undefined): ResourceMetrics | undefined {
  const { metrics } = useServices().bridge;
  const travelTime = useView((state) => state.travel?.time);
  const playing = useView((state) => state.travel?.playing ?? false);
  useEffect(() => {
    if (resource !== undefined && travelTime !== undefined) metrics.past.load(resource, travelTime, playing);
  }, [metrics, resource, travelTime, playing]);
  const subscribe = useCallback((listener: () => void) => metrics.subscribe(listener), [metrics]);
  const read = useCallback(
    () =>
      resource === undefined
        ? undefined
        : travelTime === undefined
          ? metrics.of(resource)
          : metrics.past.at(resource, travelTime, playing),
    [metrics, resource, travelTime, playing],
  );
  return useSyncExternalStore(subscribe, read);
}

/** The metrics resource of a kind the metrics API covers (core/v1 pods and nodes), else undefined. */
export function metricsResourceOfKind(gvr: { group: string; resource: string }): MetricsResource | undefined {
  if (gvr.group !== '') return undefined;
  return gvr.resource === 'pods' || gvr.resource === 'nodes' ? gvr.resource : undefined;
}
