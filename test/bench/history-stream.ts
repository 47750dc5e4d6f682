// The history benchmark's source: a ListerWatcher that serves `events` MODIFIED pods generated one at a
// time as the reflector asks for them, so a 1,000,000-event recording (3.4 GB as pre-generated JSON)
// costs the memory of one version per pod. The reflector, DeltaFIFO and indexer run as against a real
// server, each event a freshly parsed object as a watch stream delivers it; only the HTTP of the
// watch benchmark is left out, since the history benchmark times the Recorder's flushes, not the stream.
import { rememberObjectText } from '../../main/cache/object-text';
import type { ListOptions, ListerWatcher, Watcher } from '../../main/cache/lister-watcher';
import type { BufferedWatcher } from '../../main/cache/reflector-watch';
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
 * The watcher is buffered, as WatchStream is (BufferedWatcher): an event that is due is made when the
 * reflector takes it, as a WatchStream decodes a line then, so the reflector's turns bound the work
 * between two yields as they do on a real watch (a flood is a socket whose buffer is always full).
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
      const served = watchOptions.resourceVersion === String(listResourceVersion) ? options.events : 0;
      const rate = options.eventsPerSecond;
      const started = Date.now();
      let index = 0;
      const ended = () => index >= served || stopped.signal.aborted || signal.aborted;
      /** When the next event is due (always, unpaced). */
      const dueAt = () => (rate === undefined ? started : started + (index * 1000) / rate);
      const take = (): WatchEvent<KubeObject> => {
        const slot = index % pods.length;
        pods[slot] = nextVersion(pods[slot], index, listResourceVersion + index + 1);
        index++;
        const version =
          rate === undefined
            ? pods[slot]
            : {
                ...pods[slot],
                metadata: {
                  ...pods[slot].metadata,
                  annotations: {
                    ...pods[slot].metadata.annotations,
                    [emittedAnnotation]: String(Date.now()),
                  },
                },
              };
        // As a watch stream decodes an event: the object parsed from its text (no subtree shared with
        // the last version), and that text kept beside it while a recorder reads texts (object-text.ts).
        const text = JSON.stringify(version);
        const object = JSON.parse(text) as KubeObject;
        if (!('managedFields' in object.metadata)) rememberObjectText(object, text);
        if (index % progressEvery === 0) options.onProgress?.(index);
        return { type: 'MODIFIED', object };
      };
      const next = async (): Promise<IteratorResult<WatchEvent<KubeObject>>> => {
        if (!ended() && dueAt() > Date.now())
          await new Promise((resolve) => setTimeout(resolve, dueAt() - Date.now()));
        if (!ended()) return { done: false, value: take() };
        await new Promise<void>((resolve) => {
          if (stopped.signal.aborted || signal.aborted) return resolve();
          stopped.signal.addEventListener('abort', () => resolve(), { once: true });
          signal.addEventListener('abort', () => resolve(), { once: true });
        });
        return { done: true, value: undefined };
      };
      return {
        [Symbol.asyncIterator]: () => ({ next }),
        takeBuffered: () => (!ended() && dueAt() <= Date.now() ? take() : undefined),
        stop: () => stopped.abort(),
      } as Watcher<KubeObject> & BufferedWatcher<KubeObject>;
    },
  };
}
