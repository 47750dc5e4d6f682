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
}

interface Numbered {
  readonly series: number;
  /** False while the pod was not in the informer's cache: looked up again on the next poll. */
  readonly known: boolean;
}

export class MetricSampleCapture {
  private nextSeries = 0;
  /** Per resource: "namespace/name/container" -> its series, for the objects of the last poll. */
  private readonly numbered = { pods: new Map<string, Numbered>(), nodes: new Map<string, Numbered>() };

  constructor(private readonly options: MetricSampleCaptureOptions) {}

  /** Records the samples of one successful poll of `resource` (every list it read). */
  capture(resource: 'pods' | 'nodes', lists: readonly MetricsList[], polledAt: number): void {
    const previous = this.numbered[resource];
    // Rebuilt per poll: an object missing from it is gone, and its number with it.
    const numbered = new Map<string, Numbered>();
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
    for (const list of lists)
      for (const item of list.items ?? []) {
        const name = item.metadata?.name;
        if (!name) continue;
        const namespace = item.metadata?.namespace ?? '';
        const parsed = item.timestamp ? Date.parse(item.timestamp) : Number.NaN;
        const timestamp = Number.isFinite(parsed) ? parsed : polledAt;
        const windowMs = (item.window && parseGoDuration(item.window)) || 0;
        const containers =
          resource === 'pods'
            ? (item.containers ?? []).map((container) => ({
                name: container.name ?? '',
                usage: container.usage,
              }))
            : [{ name: '', usage: item.usage }];
        let pod: KubeObject | undefined | null = null;
        for (const container of containers) {
          const key = `${namespace}/${name}/${container.name}`;
          let series = previous.get(key) ?? numbered.get(key);
          if (!series?.known) {
            if (pod === null)
              pod = resource === 'pods' ? this.options.cachedObject('pods', namespace, name) : undefined;
            if (!series || pod || resource === 'nodes') {
              series = { series: ++this.nextSeries, known: resource === 'nodes' || pod !== undefined };
              definitions.push({
                series: series.series,
                namespace,
                name,
                uid: pod?.metadata.uid ?? '',
                container: container.name,
                workload: pod ? this.workloadOf(pod) : '',
              });
            }
          }
          numbered.set(key, series);
          entry.series.push(series.series);
          entry.timestamps.push(timestamp);
          entry.windowsMs.push(windowMs);
          entry.millicores.push(Math.round((parseQuantity(container.usage?.cpu ?? '0') ?? 0) * 1000));
          entry.bytes.push(Math.round(parseQuantity(container.usage?.memory ?? '0') ?? 0));
        }
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
