// Turns each poll of metrics.k8s.io into the samples the recording keeps (issue 14: usage recorded
// with history, at the API's resolution). It only numbers what it is given: each pod container (or
// node) is a series, defined once with the names, the pod's uid and its workload, and from then on
// named by its number; encoding, deduplication and SQLite happen in the recording process. It runs
// where the poll is read (a worker thread in the app, see metrics-worker.ts): the pods' uids and
// workloads come from the informers' cache on main, asked once per poll for the series not known yet.
import { nameOf, type MetricsUsage } from '../kube/metrics-usage';
import type { MetricSamplesEntry, MetricSeriesDefinition } from './recording-protocol';
import type { CachedObject, IdentifyPods, ObjectName, SeriesOwner } from './series-owner';
import { identifyFromCache } from './series-owner';

export interface MetricSampleCaptureOptions {
  /** Where each poll's samples go (Recorder.recordMetricSamples, or a post to main). */
  readonly record: (samples: MetricSamplesEntry) => void;
  /** Per pod asked, its uid and workload (see IdentifyPods); or `cachedObject` to read them from. */
  readonly identify?: IdentifyPods;
  /** The informers' cached object, if any, when `identify` is not given. */
  readonly cachedObject?: CachedObject;
  /** Told when a poll could not be recorded (default console.error). */
  readonly reportError?: (context: string, error: unknown) => void;
}

/**
 * One object's series: its containers' names and numbers (a node: one, container ""). A number is
 * negative while its pod was not in the informer's cache as it was defined (looked up again at every
 * poll), 0 before it is defined. Kept from poll to poll and changed in place only when a container is
 * new or its pod was unknown: numbering an unchanged poll allocates nothing per object, so nothing of
 * it is promoted only to die at the next poll.
 */
interface ObjectSeries {
  /** The poll that last listed the object (see MetricSampleCapture.polls). */
  seen: number;
  readonly containers: string[];
  readonly series: number[];
}

/** Per key ("namespace/name", a node's name): the object's series. */
type Numbering = Map<string, ObjectSeries>;

/**
 * Items numbered per turn of the event loop: a poll of 150,000 pods is read in slices, none holding
 * the polling thread (Electron's main) for more than a few milliseconds.
 */
const itemsPerTurn = 2_000;

export class MetricSampleCapture {
  private nextSeries = 0;
  /** Per resource: the series of the objects the last poll listed. */
  private readonly numbered: Record<'pods' | 'nodes', Numbering> = { pods: new Map(), nodes: new Map() };
  /** Polls numbered so far, per resource: an object not seen by the latest is gone. */
  private readonly polls: Record<'pods' | 'nodes', number> = { pods: 0, nodes: 0 };
  /** Polls are numbered one after another (a slow one never interleaves with the next). */
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly options: MetricSampleCaptureOptions) {}

  /**
   * Records the samples of one successful poll of `resource` (every list it read). Never rejects: a
   * poll that cannot be numbered is reported and lost, and the next one is recorded.
   */
  capture(resource: 'pods' | 'nodes', lists: readonly MetricsUsage[], polledAt: number): Promise<void> {
    this.queue = this.queue
      .then(() => this.number(resource, lists, polledAt))
      .catch((error: unknown) =>
        (this.options.reportError ?? console.error)(`recording ${resource} metric samples:`, error),
      );
    return this.queue;
  }

  private async number(
    resource: 'pods' | 'nodes',
    lists: readonly MetricsUsage[],
    polledAt: number,
  ): Promise<void> {
    try {
      await this.numberPoll(resource, lists, polledAt);
    } catch (error) {
      // Numbers given in this poll may never have been defined in the recording: start afresh, so the
      // next poll defines every series it samples.
      this.numbered[resource] = new Map();
      throw error;
    }
  }

  private async numberPoll(
    resource: 'pods' | 'nodes',
    lists: readonly MetricsUsage[],
    polledAt: number,
  ): Promise<void> {
    const numbered = this.numbered[resource];
    const poll = ++this.polls[resource];
    const asked = await this.owners(resource, lists, numbered, poll);
    const definitions: MetricSeriesDefinition[] = [];
    // A sample per container row, in arrays made at their size (grown by push, a 150,000-pod poll's
    // were copied ~25 times each).
    const rows = lists.reduce((total, list) => total + list.containers.length, 0);
    const entry = {
      resource,
      definitions,
      series: new Array<number>(rows),
      timestamps: new Array<number>(rows),
      windowsMs: new Array<number>(rows),
      millicores: new Array<number>(rows),
      bytes: new Array<number>(rows),
    };
    let sample = 0;
    let items = 0;
    let next = 0;
    for (const list of lists)
      for (let item = 0; item < list.keys.length; item++, items++) {
        if ((items + 1) % itemsPerTurn === 0) await new Promise((resolve) => setImmediate(resolve));
        const namespace = list.namespaceNames[list.namespaces[item]!]!;
        const parsed = list.timestamps[item]!;
        const timestamp = Number.isFinite(parsed) ? parsed : polledAt;
        const windowMs = list.windowsMs[item]! || 0;
        const object = numbered.get(list.keys[item]!)!;
        // The owner asked for this item, if it was asked (pods with a series not known yet).
        const owner = asked.items[next] === items ? asked.owners[next++] : undefined;
        for (let row = list.containerStarts[item]!; row < list.containerStarts[item + 1]!; row++) {
          const container = list.containerNames[list.containers[row]!]!;
          const at = object.containers.indexOf(container);
          const current = object.series[at]!;
          // A series stays unknown until its pod is found: then it is defined again, with the pod's uid.
          if (current < 0 ? owner : current === 0) {
            const series = ++this.nextSeries;
            object.series[at] = resource === 'nodes' || owner !== undefined ? series : -series;
            definitions.push({
              series,
              namespace,
              name: nameOf(list, item),
              uid: owner?.uid ?? '',
              container,
              workload: owner?.workload ?? '',
            });
          }
          entry.series[sample] = Math.abs(object.series[at]!);
          entry.timestamps[sample] = timestamp;
          entry.windowsMs[sample] = windowMs;
          // Rounded up, as kubectl top's MilliValue: a container's 0.2m reads 1m, live and recorded.
          entry.millicores[sample] = Math.ceil(list.cpu[row]! * 1000 - 1e-9);
          entry.bytes[sample++] = Math.round(list.memory[row]!);
        }
      }
    // An object this poll did not list is gone, and its numbers with it.
    for (const [key, object] of numbered) if (object.seen !== poll) numbered.delete(key);
    if (entry.series.length > 0) this.options.record(entry);
  }

  /**
   * Marks every object listed as seen by `poll` (its series made, a new container's at 0), and asks
   * the owners of the pods that have a series not known yet, all at once: per such item, its place
   * among the poll's items (ascending) and its owner.
   */
  private async owners(
    resource: 'pods' | 'nodes',
    lists: readonly MetricsUsage[],
    numbered: Numbering,
    poll: number,
  ): Promise<{ items: number[]; owners: readonly (SeriesOwner | undefined)[] }> {
    const items: number[] = [];
    const pods: ObjectName[] = [];
    let at = 0;
    for (const list of lists)
      for (let item = 0; item < list.keys.length; item++, at++) {
        if ((at + 1) % itemsPerTurn === 0) await new Promise((resolve) => setImmediate(resolve));
        const key = list.keys[item]!;
        const start = list.containerStarts[item]!;
        const end = list.containerStarts[item + 1]!;
        let object = numbered.get(key);
        if (!object) {
          // Made at its size: an array grown from empty by a push holds room for 17.
          const containers = new Array<string>(end - start);
          for (let row = start; row < end; row++)
            containers[row - start] = list.containerNames[list.containers[row]!]!;
          object = { seen: poll, containers, series: new Array<number>(end - start).fill(0) };
          numbered.set(key, object);
        }
        object.seen = poll;
        let unknown = false;
        for (let row = start; row < end; row++) {
          const container = list.containerNames[list.containers[row]!]!;
          let index = object.containers.indexOf(container);
          if (index < 0) {
            index = object.containers.push(container) - 1;
            object.series[index] = 0;
          }
          if (object.series[index]! <= 0) unknown = true;
        }
        if (unknown && resource === 'pods') {
          items.push(at);
          pods.push({ namespace: list.namespaceNames[list.namespaces[item]!]!, name: nameOf(list, item) });
        }
      }
    if (pods.length === 0) return { items, owners: [] };
    const identify =
      this.options.identify ?? identifyFromCache(this.options.cachedObject ?? (() => undefined));
    return { items, owners: await identify(pods) };
  }
}
