// LIST of metrics.k8s.io/v1beta1 PodMetrics or NodeMetrics, as kubectl top's metrics client sends it.
// The API has no watch (metrics-server keeps only the latest sample), so it is polled, never informed.
import type { RestClient } from './rest-client';

/** A PodMetricsList or NodeMetricsList, as far as Kubetide reads it. */
export interface MetricsList {
  items?: {
    metadata?: { name?: string; namespace?: string };
    timestamp?: string;
    window?: string;
    usage?: Record<string, string>;
    containers?: { name?: string; usage?: Record<string, string> }[];
  }[];
}

/** GET /apis/metrics.k8s.io/v1beta1/[namespaces/{namespace}/]{resource}; "" lists every namespace. */
export function listMetrics(
  client: RestClient,
  resource: 'pods' | 'nodes',
  namespace: string,
  signal: AbortSignal,
): Promise<MetricsList> {
  const scope = namespace ? `namespaces/${encodeURIComponent(namespace)}/` : '';
  return client.json<MetricsList>({
    path: `/apis/metrics.k8s.io/v1beta1/${scope}${resource}`,
    description: {
      verb: 'list',
      resource: `${resource}.metrics.k8s.io`,
      ...(namespace ? { namespace } : {}),
    },
    signal,
  });
}
