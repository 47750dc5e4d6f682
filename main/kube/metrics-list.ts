// LIST of metrics.k8s.io/v1beta1 PodMetrics or NodeMetrics, as kubectl top's metrics client sends it.
// The API has no watch (metrics-server keeps only the latest sample), so it is polled, never informed.
import { skipItem } from './list-reply-decoder';
import type { MetricsKeys } from './metrics-keys';
import { MetricsUsageBuilder, type MetricsUsage } from './metrics-usage';
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

/** One PodMetrics or NodeMetrics item. */
export type MetricsItem = NonNullable<MetricsList['items']>[number];

/**
 * GET /apis/metrics.k8s.io/v1beta1/[namespaces/{namespace}/]{resource}; "" lists every namespace. The
 * reply is decoded item by item as it arrives (a cluster's PodMetricsList runs to tens of megabytes), so
 * reading it never holds the main thread for long, and each item is read into the usage's columns and
 * dropped (metrics-usage.ts), its key the string `keys` kept from the poll before.
 */
export async function listMetrics(
  client: RestClient,
  resource: 'pods' | 'nodes',
  namespace: string,
  signal: AbortSignal,
  keys: MetricsKeys,
): Promise<MetricsUsage> {
  const scope = namespace ? `namespaces/${encodeURIComponent(namespace)}/` : '';
  // Sized by the last poll's count when this list is the whole poll; a namespace's list is a part of
  // it of unknown size (a namespace-limited user's poll lists each namespace apart).
  const builder = new MetricsUsageBuilder(resource, keys, namespace ? 0 : keys.lastCount);
  await client.list<MetricsList>(
    {
      path: `/apis/metrics.k8s.io/v1beta1/${scope}${resource}`,
      description: {
        verb: 'list',
        resource: `${resource}.metrics.k8s.io`,
        ...(namespace ? { namespace } : {}),
      },
      signal,
    },
    (item) => {
      builder.add(item as MetricsItem);
      return skipItem;
    },
  );
  return builder.finish();
}
