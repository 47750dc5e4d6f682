// LIST of metrics.k8s.io/v1beta1 PodMetrics or NodeMetrics, as kubectl top's metrics client sends it.
// The API has no watch (metrics-server keeps only the latest sample), so it is polled, never informed.
// A cluster's PodMetricsList runs to tens of megabytes (57 MB at 150,000 pods): it is decoded item by
// item as it arrives, so reading it never holds the thread for long.
import { ListReplyDecoder, skipItem } from './list-reply-decoder';
import type { MetricsKeys } from './metrics-keys';
import { MetricsUsageBuilder, type MetricsUsage } from './metrics-usage';
import type { ReplyReader, RestClient, RestRequest } from './rest-client';

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

/** The LIST of `resource`'s metrics in `namespace` ("" for every namespace). */
export function metricsListRequest(
  resource: 'pods' | 'nodes',
  namespace: string,
  signal: AbortSignal,
): RestRequest {
  const scope = namespace ? `namespaces/${encodeURIComponent(namespace)}/` : '';
  return {
    path: `/apis/metrics.k8s.io/v1beta1/${scope}${resource}`,
    description: {
      verb: 'list',
      resource: `${resource}.metrics.k8s.io`,
      ...(namespace ? { namespace } : {}),
    },
    signal,
  };
}

/**
 * A metrics LIST's reply read into columns as its bytes arrive: each item is decoded when complete,
 * read into the usage's columns and dropped (metrics-usage.ts), its key the string `keys` kept from
 * the poll before.
 */
export class MetricsListReader implements ReplyReader<MetricsUsage> {
  private readonly builder: MetricsUsageBuilder;
  private readonly decoder: ListReplyDecoder;

  constructor(resource: 'pods' | 'nodes', namespace: string, keys: MetricsKeys) {
    // Sized by the last poll's count when this list is the whole poll; a namespace's list is a part of
    // it of unknown size (a namespace-limited user's poll lists each namespace apart).
    const builder = (this.builder = new MetricsUsageBuilder(resource, keys, namespace ? 0 : keys.lastCount));
    this.decoder = new ListReplyDecoder((item) => {
      builder.add(item as MetricsItem);
      return skipItem;
    });
  }

  push(chunk: Buffer): void {
    this.decoder.push(chunk);
  }

  finish(): MetricsUsage {
    this.decoder.finish();
    return this.builder.finish();
  }
}

/**
 * GET /apis/metrics.k8s.io/v1beta1/[namespaces/{namespace}/]{resource}; "" lists every namespace,
 * read on this thread (MetricsListReader). The app reads its polls in a worker (metrics-worker.ts).
 */
export function listMetrics(
  client: RestClient,
  resource: 'pods' | 'nodes',
  namespace: string,
  signal: AbortSignal,
  keys: MetricsKeys,
): Promise<MetricsUsage> {
  return client.listInto(
    metricsListRequest(resource, namespace, signal),
    new MetricsListReader(resource, namespace, keys),
  );
}
