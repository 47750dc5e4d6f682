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

type MetricsItem = NonNullable<MetricsList['items']>[number];

/** Only what the poller reads: the labels and names metrics-server copies in are dropped as parsed. */
function trimItem(item: unknown): MetricsItem {
  const { metadata, timestamp, window, usage, containers } = item as MetricsItem;
  return {
    metadata: { name: metadata?.name, namespace: metadata?.namespace },
    timestamp,
    window,
    usage,
    containers: containers?.map((container) => ({ name: container.name, usage: container.usage })),
  };
}

/**
 * GET /apis/metrics.k8s.io/v1beta1/[namespaces/{namespace}/]{resource}; "" lists every namespace. The
 * reply is decoded item by item as it arrives (a cluster's PodMetricsList runs to tens of megabytes), so
 * reading it never holds the main thread for long.
 */
export function listMetrics(
  client: RestClient,
  resource: 'pods' | 'nodes',
  namespace: string,
  signal: AbortSignal,
): Promise<MetricsList> {
  const scope = namespace ? `namespaces/${encodeURIComponent(namespace)}/` : '';
  return client.list<MetricsList>(
    {
      path: `/apis/metrics.k8s.io/v1beta1/${scope}${resource}`,
      description: {
        verb: 'list',
        resource: `${resource}.metrics.k8s.io`,
        ...(namespace ? { namespace } : {}),
      },
      signal,
    },
    trimItem,
  );
}
