// The history benchmark's source: a ListerWatcher that serves `events` MODIFIED pods generated one at a
// time as the reflector asks for them, so a 1,000,000-event recording (3.4 GB as pre-generated JSON)
// costs the memory of one version per pod. The reflector, DeltaFIFO and indexer run as against a real
// server, each event a freshly parsed object as a watch stream delivers it; only the HTTP of the
// watch benchmark is left out, since the history benchmark times the Recorder's flushes, not the stream.
import type { ListOptions, ListerWatcher, Watcher } from '../../main/cache/lister-watcher';
import type { KubeList, KubeObject, WatchEvent } from '../../shared/kube/object';

export interface HistoryStreamOptions {
  /** The pods listed at the start; every event modifies one of them, round robin. */
  readonly basePods: readonly KubeObject[];
  readonly events: number;
  /** Told how many events have been handed to the reflector, every `progressEvery` events. */
  readonly onProgress?: (served: number) => void;
  readonly progressEvery?: number;
  /**
   * Paces the stream at this many events a second (default: as fast as the reflector takes them),
   * stamping each with the time it was sent in the annotation named by emittedAnnotation.
   */
  readonly eventsPerSecond?: number;
}

/** Where a paced stream writes when each event was sent (ms since the epoch). */
export const emittedAnnotation = 'bench.kubetide.dev/emitted';

/** Events handed over between two yields to the event loop, so the Recorder's flush timer can fire. */
const eventsPerTurn = 500;

interface Condition {
  type?: string;
  status?: string;
  lastTransitionTime?: string;
  [field: string]: unknown;
}

interface ContainerStatus {
  restartCount?: number;
  state?: unknown;
  [field: string]: unknown;
}

interface PodStatus {
  conditions?: Condition[];
  containerStatuses?: ContainerStatus[];
  [field: string]: unknown;
}

/**
 * A pod's next version, as a kubelet and controllers change pods on a busy cluster: each event moves
 * the resourceVersion and the container's restart count and start time; every third flips readiness
 * (Ready and ContainersReady with their lastTransitionTime); every tenth changes a label. The result
 * shares untouched subtrees with `previous`, which nothing mutates.
 */
export function nextVersion(previous: KubeObject, index: number, resourceVersion: number): KubeObject {
  const status = (previous.status ?? {}) as PodStatus;
  const time = new Date(Date.UTC(2026, 10, 30, 8) + index * 1000).toISOString().replace('.000Z', 'Z');
  const flipReadiness = index % 3 === 0;
  const conditions = (status.conditions ?? []).map((condition) =>
    flipReadiness && (condition.type === 'Ready' || condition.type === 'ContainersReady')
      ? { ...condition, status: condition.status === 'True' ? 'False' : 'True', lastTransitionTime: time }
      : condition,
  );
  const containerStatuses = (status.containerStatuses ?? [{}]).map((container) => ({
    ...container,
    restartCount: (container.restartCount ?? 0) + 1,
    state: { running: { startedAt: time } },
  }));
  const labels =
    index % 10 === 0
      ? { ...previous.metadata.labels, 'kubetide.dev/revision': String(Math.floor(index / 10) % 7) }
      : previous.metadata.labels;
  return {
    ...previous,
    metadata: { ...previous.metadata, resourceVersion: String(resourceVersion), labels },
    status: { ...status, conditions, containerStatuses },
  };
}

/**
 * LIST returns the base pods; a WATCH from the list's resourceVersion gets the whole stream and is then
 * held open; a WATCH from any other resourceVersion (a reconnect) is held open with nothing to say.
 */
export function historyListerWatcher(options: HistoryStreamOptions): ListerWatcher<KubeObject> {
  const pods = [...options.basePods];
  const listResourceVersion = Math.max(0, ...pods.map((pod) => Number(pod.metadata.resourceVersion) || 0));
  const progressEvery = options.progressEvery ?? 50_000;
  return {
    supportsWatchList: false,
    async list(): Promise<KubeList<KubeObject>> {
      return {
        kind: 'PodList',
        apiVersion: 'v1',
        metadata: { resourceVersion: String(listResourceVersion) },
        items: [...options.basePods],
      };
    },
    async watch(watchOptions: ListOptions, signal: AbortSignal): Promise<Watcher<KubeObject>> {
      const stopped = new AbortController();
      const serve = watchOptions.resourceVersion === String(listResourceVersion);
      const events = async function* (): AsyncGenerator<WatchEvent<KubeObject>> {
        const rate = options.eventsPerSecond;
        const started = Date.now();
        for (let index = 0; serve && index < options.events; index++) {
          if (rate !== undefined) {
            const due = started + (index * 1000) / rate;
            if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
          } else if (index % eventsPerTurn === 0) await new Promise((resolve) => setImmediate(resolve));
          if (stopped.signal.aborted || signal.aborted) return;
          const slot = index % pods.length;
          pods[slot] = nextVersion(pods[slot], index, listResourceVersion + index + 1);
          // A copy, as a watch stream's JSON.parse makes: no subtree is shared with the last version.
          const object = JSON.parse(JSON.stringify(pods[slot])) as KubeObject;
          if (rate !== undefined)
            object.metadata.annotations = {
              ...object.metadata.annotations,
              [emittedAnnotation]: String(Date.now()),
            };
          yield { type: 'MODIFIED', object };
          if ((index + 1) % progressEvery === 0) options.onProgress?.(index + 1);
        }
        await new Promise<void>((resolve) => {
          if (stopped.signal.aborted || signal.aborted) return resolve();
          stopped.signal.addEventListener('abort', () => resolve(), { once: true });
          signal.addEventListener('abort', () => resolve(), { once: true });
        });
      };
      const iterator = events();
      return {
        [Symbol.asyncIterator]: () => iterator,
        stop: () => stopped.abort(),
      };
    },
  };
}
