// Turns each poll of metrics.k8s.io into the samples the recording keeps (issue 14: usage recorded
// with history, at the API's resolution). It runs on the thread that polls, so it only numbers what
// it is given: each pod container (or node) is a series, defined once with the names, the pod's uid
// and its workload, and from then on named by its number; encoding, deduplication and SQLite happen
// in the recording process.
import { parseGoDuration } from '../../shared/kube/duration';
import type { KubeObject } from '../../shared/kube/object';
import { parseQuantity } from '../../shared/kube/quantity';
import type { MetricsList } from '../kube/metrics-list';
import type { MetricSamplesEntry, MetricSeriesDefinition } from './recording-protocol';

export interface MetricSampleCaptureOptions {
  /** Where each poll's samples go (Recorder.recordMetricSamples). */
  readonly record: (samples: MetricSamplesEntry) => void;
  /** The informers' cached object, if any: pods for their uid and owner, replicasets for theirs. */
  readonly cachedObject: (
    resource: 'pods' | 'replicasets',
    namespace: string,
    name: string,
  ) => KubeObject | undefined;
  /** Told when a poll could not be recorded (default console.error). */
  readonly reportError?: (context: string, error: unknown) => void;
}

interface Numbered {
  readonly series: number;
  /** False while the pod was not in the informer's cache: looked up again on the next poll. */
  readonly known: boolean;
}

/** Per namespace, per name: each container's series (a node: one, container ""). */
type Numbering = Map<string, Map<string, Map<string, Numbered>>>;

/**
 * Items numbered per turn of the event loop: a poll of 150,000 pods is read in slices, none holding
 * the polling thread (Electron's main) for more than a few milliseconds.
 */
const itemsPerTurn = 500;

export class MetricSampleCapture {
  private nextSeries = 0;
  /** Per resource: the series of the objects of the last poll. */
  private readonly numbered: Record<'pods' | 'nodes', Numbering> = { pods: new Map(), nodes: new Map() };
  /** Polls are numbered one after another (a slow one never interleaves with the next). */
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly options: MetricSampleCaptureOptions) {}

  /**
   * Records the samples of one successful poll of `resource` (every list it read). Never rejects: a
   * poll that cannot be numbered is reported and lost, and the next one is recorded.
   */
  capture(resource: 'pods' | 'nodes', lists: readonly MetricsList[], polledAt: number): Promise<void> {
    this.queue = this.queue
      .then(() => this.number(resource, lists, polledAt))
      .catch((error: unknown) =>
        (this.options.reportError ?? console.error)(`recording ${resource} metric samples:`, error),
      );
    return this.queue;
  }

  private async number(
    resource: 'pods' | 'nodes',
    lists: readonly MetricsList[],
    polledAt: number,
  ): Promise<void> {
    const previous = this.numbered[resource];
    // Rebuilt per poll: an object missing from it is gone, and its numbers with it.
    const numbered: Numbering = new Map();
    const definitions: MetricSeriesDefinition[] = [];
    const entry = {
      resource,
      definitions,
      series: [] as number[],
      timestamps: [] as number[],
      windowsMs: [] as number[],
      millicores: [] as number[],
      bytes: [] as number[],
    };
    let items = 0;
    let timestampText: string | undefined;
    let timestamp = polledAt;
    let windowText: string | undefined;
    let windowMs = 0;
    for (const list of lists)
      for (const item of list.items ?? []) {
        if (++items % itemsPerTurn === 0) await new Promise((resolve) => setImmediate(resolve));
        const name = item.metadata?.name;
        if (!name) continue;
        const namespace = item.metadata?.namespace ?? '';
        // Items share their scrape's timestamp and window: each text is parsed once per run of it.
        if (item.timestamp !== timestampText) {
          timestampText = item.timestamp;
          const parsed = timestampText ? Date.parse(timestampText) : Number.NaN;
          timestamp = Number.isFinite(parsed) ? parsed : polledAt;
        }
        if (item.window !== windowText) {
          windowText = item.window;
          windowMs = (windowText && parseGoDuration(windowText)) || 0;
        }
        const before = previous.get(namespace)?.get(name);
        let named = numbered.get(namespace);
        if (!named) numbered.set(namespace, (named = new Map()));
        // The last poll's numbers stand as they are, unless a container is new or its pod was unknown.
        let now = before;
        let pod: KubeObject | undefined | null = null;
        const count = resource === 'pods' ? (item.containers?.length ?? 0) : 1;
        for (let index = 0; index < count; index++) {
          const container = resource === 'pods' ? item.containers![index]! : { name: '', usage: item.usage };
          const containerName = container.name ?? '';
          let series = before?.get(containerName);
          if (!series?.known) {
            if (pod === null)
              pod = resource === 'pods' ? this.options.cachedObject('pods', namespace, name) : undefined;
            if (!series || pod) {
              series = { series: ++this.nextSeries, known: resource === 'nodes' || pod !== undefined };
              definitions.push({
                series: series.series,
                namespace,
                name,
                uid: pod?.metadata.uid ?? '',
                container: containerName,
                workload: pod ? this.workloadOf(pod) : '',
              });
              if (now === before) now = new Map(before);
              now!.set(containerName, series);
            }
          }
          entry.series.push(series.series);
          entry.timestamps.push(timestamp);
          entry.windowsMs.push(windowMs);
          // Rounded up, as kubectl top's MilliValue: a container's 0.2m reads 1m, live and recorded.
          entry.millicores.push(Math.ceil((parseQuantity(container.usage?.cpu ?? '0') ?? 0) * 1000 - 1e-9));
          entry.bytes.push(Math.round(parseQuantity(container.usage?.memory ?? '0') ?? 0));
        }
        if (now) named.set(name, now);
      }
    this.numbered[resource] = numbered;
    if (entry.series.length > 0) this.options.record(entry);
  }

  /**
   * "Kind/name" of the workload that runs `pod`: its controller, or for a ReplicaSet the
   * ReplicaSet's own controller (a Deployment). A ReplicaSet not in the cache is named by the
   * Deployment controller's naming: "<deployment>-<pod-template-hash>", the hash also on the pod.
   */
  private workloadOf(pod: KubeObject): string {
    const controller = pod.metadata.ownerReferences?.find((owner) => owner.controller);
    if (!controller) return '';
    if (controller.kind === 'ReplicaSet') {
      const replicaSet = this.options.cachedObject(
        'replicasets',
        pod.metadata.namespace ?? '',
        controller.name,
      );
      const owner = replicaSet?.metadata.ownerReferences?.find((reference) => reference.controller);
      if (owner) return `${owner.kind}/${owner.name}`;
      const hash = pod.metadata.labels?.['pod-template-hash'];
      if (!replicaSet && hash && controller.name.endsWith(`-${hash}`))
        return `Deployment/${controller.name.slice(0, -hash.length - 1)}`;
    }
    return `${controller.kind}/${controller.name}`;
  }
}
