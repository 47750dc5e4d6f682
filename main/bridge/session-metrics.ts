// A session's pod and node usage: its MetricsPoller, polled while a renderer shows pods or nodes, and,
// when the session records, for the whole session (issue 14), the samples kept with the history.
import type { Clock } from '../cache/clock';
import { MetricSampleCapture } from '../history/metric-sample-capture';
import type { Recorder } from '../history/recorder';
import type { MetricSamplesEntry } from '../history/recording-protocol';
import type { CachedObject } from '../history/series-owner';
import type { MetricsMessage, MetricsResource } from '../../shared/protocol/metrics-messages';
import type { FeedRegistry } from './feed-registry';
import type { FeedView } from './feed-view';
import { MetricsPoller } from './metrics-poller';
import { InlineMetricsPollWork, type MetricsFetch, type MetricsPollWork } from './metrics-poll-work';
import { MetricsWorkerWork, type MetricsReplyFetch } from './metrics-worker-work';
import type { KindSource } from './served-kinds';

/**
 * How a session reads metrics.k8s.io: `{ replies }` (the app's) GETs each LIST and passes its bytes to
 * a worker thread that decodes, sums and numbers them (metrics-worker-work.ts); a bare MetricsFetch
 * reads them on this thread (tests).
 */
export type SessionMetricsSource = MetricsFetch | { readonly replies: MetricsReplyFetch };

export interface SessionMetricsOptions {
  clock: Clock;
  fetch: SessionMetricsSource;
  discovery: KindSource | undefined;
  /** The namespaces to list pod metrics in when the cluster scope is refused. */
  namespaces: () => readonly string[];
  feeds: FeedRegistry<FeedView>;
  /** Records the samples; absent when the session does not record. */
  recorder: Recorder | undefined;
  /** True while the session's start lists (see MetricsPollerOptions.listing). */
  listing: () => boolean;
  send: (message: MetricsMessage) => void;
  /** False while a connection holds about a part's worth unsent (see MetricsPollerOptions.roomForPart). */
  roomForPart?: () => boolean;
  log: (message: string) => void;
}

export class SessionMetrics {
  readonly poller: MetricsPoller;
  /** True when the recording keeps metric samples (see retainRecorded). */
  private readonly recordsMetrics: boolean;
  private retained = false;

  constructor(private readonly options: SessionMetricsOptions) {
    const { recorder, feeds } = options;
    const record = recorder && ((samples: MetricSamplesEntry) => recorder.recordMetricSamples(samples));
    const reportError = (context: string, error: unknown) =>
      options.log(`${context} ${error instanceof Error ? error.message : String(error)}`);
    const cachedObject: CachedObject = (resource, namespace, name) =>
      feeds
        .find({ group: resource === 'pods' ? '' : 'apps', version: 'v1', resource }, '')
        ?.cachedObject(namespace, name);
    const source = options.fetch;
    const work: MetricsPollWork =
      typeof source === 'function'
        ? new InlineMetricsPollWork({
            clock: options.clock,
            fetch: source,
            ...(record ? { capture: new MetricSampleCapture({ record, reportError, cachedObject }) } : {}),
          })
        : new MetricsWorkerWork({
            fetch: source.replies,
            cachedObject,
            reportError,
            ...(record ? { record } : {}),
          });
    this.poller = new MetricsPoller({
      clock: options.clock,
      work,
      served: (resource) => this.served(resource),
      namespaces: options.namespaces,
      listing: options.listing,
      send: options.send,
      ...(options.roomForPart ? { roomForPart: options.roomForPart } : {}),
    });
    this.recordsMetrics = record !== undefined;
    this.retainRecorded();
  }

  /**
   * A recording keeps pod and node usage for the whole session, shown or not (issue 14), from when
   * discovery lists metrics.k8s.io: polling before would only find it absent and wait a window.
   * Called again whenever discovery changes.
   */
  retainRecorded(): void {
    if (!this.recordsMetrics || this.retained) return;
    if (!this.served('pods') && !this.served('nodes')) return;
    this.retained = true;
    this.poller.retain('pods');
    this.poller.retain('nodes');
  }

  private served(resource: MetricsResource): boolean {
    return (this.options.discovery?.preferredResources() ?? []).some(
      (served) => served.group === 'metrics.k8s.io' && served.resource === resource,
    );
  }
}
