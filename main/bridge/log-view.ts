// One open log stream of a renderer: a PodLogStream per source (one container of one pod), its lines
// sent at most once per frame, merged by time within the batch. A workload or selector view follows
// its pods as they come and go from the pods informer the session already runs (the table's, when it
// shows every namespace), never a LIST of its own: a matching pod's containers join as sources once
// they have a run to read, leave when the pod is deleted, and a container that restarts is read again
// from its new run, as stern does.
import type { Clock, Timer } from '../cache/clock';
import type { PodLogLine, PodLogNote, PodLogStream } from '../kube/pod-log-stream';
import type { GroupVersionResource, KubeObject } from '../../shared/kube/object';
import type {
  LogLine,
  LogNoteKind,
  LogOptions,
  LogServerMessage,
  LogSource,
  LogTarget,
} from '../../shared/protocol/log-messages';
import type { Row } from '../../shared/protocol/row';
import type { LabelSelector, MetaLabelSelector } from '../../shared/selectors/label-selector';
import { parseLabelSelector, selectorFromLabelSelector } from '../../shared/selectors/label-selector';
import type { ClusterSession } from './cluster-session';
import type { FeedSubscriber } from './feed-options';
import type { FeedView } from './feed-view';

export interface LogViewOptions {
  streamId: string;
  target: LogTarget;
  options: LogOptions;
  session: ClusterSession;
  clock: Clock;
  send(message: LogServerMessage): void;
  /** Starts one source's stream (main/kube's PodLogStream over the session's opener). */
  openStream(source: LogSource, options: LogOptions, sink: StreamSink): PodLogStream;
  /** Sources one view may read at once; more matching containers are left out, with a note. */
  maxSources: number;
  /** Lines sent in one message; more wait for the next frame. */
  maxLinesPerBatch: number;
}

export interface StreamSink {
  onLines(lines: PodLogLine[]): void;
  onNote(note: PodLogNote): void;
}

const podsResource: GroupVersionResource = { group: '', version: 'v1', resource: 'pods' };
/** One batch per animation frame at most: the renderer appends once per frame anyway. */
const frameMs = 16;

type Json = Record<string, unknown>;

interface SourceState {
  source: LogSource;
  stream: PodLogStream | undefined;
  /** The runtime id of the run being read, so a restart is noticed. */
  containerId: string | undefined;
  done: boolean;
}

/** The containers of a pod that have a run to read, with the id of that run. */
function containerRuns(pod: KubeObject): { name: string; containerId: string }[] {
  const status = (pod.status as Json | undefined) ?? {};
  const runs: { name: string; containerId: string }[] = [];
  for (const field of ['initContainerStatuses', 'containerStatuses', 'ephemeralContainerStatuses'])
    for (const container of (status[field] as Json[] | undefined) ?? []) {
      const state = (container.state as Json | undefined) ?? {};
      const readable =
        state.running || state.terminated || (container.lastState as Json | undefined)?.terminated;
      if (readable && typeof container.containerID === 'string')
        runs.push({ name: String(container.name), containerId: container.containerID });
    }
  return runs;
}

export class LogView {
  private readonly sources = new Map<string, SourceState>();
  private nextSourceId = 1;
  private pending: LogLine[] = [];
  private flushTimer: Timer | undefined;
  private feed: { feed: FeedView; namespace: string; subscriber: FeedSubscriber } | undefined;
  private selector: LabelSelector | undefined;
  private limitNoted = false;
  private closed = false;
  /** Stops listening for the session's retries (new credentials). */
  private readonly stopRetries: () => void;

  constructor(private readonly options: LogViewOptions) {
    // New credentials taken in place: a source refused (401) or waiting out its backoff reads now,
    // as the session's failing feeds list now, instead of staying failed until the view reopens.
    this.stopRetries = options.session.onRetryFailing(() => this.retryNow());
  }

  /** Resolves the target (a workload's selector from the cache or API server) and starts reading. */
  async start(): Promise<void> {
    const { target, session } = this.options;
    if (target.kind === 'pod') {
      this.addSource(target.namespace, target.name, target.container, undefined);
      return;
    }
    if (target.kind === 'selector') this.selector = parseLabelSelector(target.labelSelector);
    else {
      const workload = await session.getObject(target.gvr, target.namespace, target.name);
      const spec = (workload.spec as Json | undefined) ?? {};
      this.selector = selectorFromLabelSelector(spec.selector as MetaLabelSelector | undefined);
    }
    if (this.closed) return;
    // The all-namespaces pods informer, when one runs, already holds these pods.
    const namespace = session.feeds.find(podsResource, '') ? '' : (target.namespace ?? '');
    const feed = session.feeds.acquire(podsResource, namespace);
    const subscriber: FeedSubscriber = {
      record: (change) => {
        if (change.type === 'deleted') this.removePod(change.key);
        else this.reconcilePod(change.row);
      },
      syncStateChanged: () => {},
    };
    this.feed = { feed, namespace, subscriber };
    feed.attach(subscriber);
    for (const row of feed.rows()) this.reconcilePod(row);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.stopRetries();
    this.flushTimer?.stop();
    for (const state of this.sources.values()) state.stream?.stop();
    this.sources.clear();
    if (this.feed) {
      this.feed.feed.detach(this.feed.subscriber);
      this.options.session.feeds.release(podsResource, this.feed.namespace);
    }
  }

  private retryNow(): void {
    for (const state of this.sources.values()) if (state.stream?.retryNow()) state.done = false;
  }

  private reconcilePod(row: Row): void {
    const { target } = this.options;
    if (this.closed || target.kind === 'pod') return;
    if (target.namespace !== undefined && row.namespace !== target.namespace) return;
    if (!this.selector?.matches(row.labels)) return this.removePod(row.key);
    const pod = this.feed?.feed.cachedObject(row.namespace, row.name);
    if (!pod) return;
    for (const run of containerRuns(pod)) {
      if (target.container !== undefined && run.name !== target.container) continue;
      const state = this.sources.get(`${row.key}/${run.name}`);
      if (!state) this.addSource(row.namespace, row.name, run.name, run.containerId);
      else if (state.done && state.containerId !== run.containerId) {
        // The container restarted since its stream ended: read the new run.
        state.containerId = run.containerId;
        this.startStream(state);
      }
    }
  }

  private removePod(key: string): void {
    const removed: number[] = [];
    for (const [sourceKey, state] of this.sources)
      if (sourceKey.startsWith(`${key}/`)) {
        state.stream?.stop();
        this.sources.delete(sourceKey);
        removed.push(state.source.id);
      }
    if (removed.length > 0)
      this.options.send({ type: 'logSources', streamId: this.options.streamId, added: [], removed });
  }

  private addSource(
    namespace: string,
    pod: string,
    container: string,
    containerId: string | undefined,
  ): void {
    if (this.sources.size >= this.options.maxSources) {
      if (!this.limitNoted)
        this.note(
          'limited',
          `only the first ${this.options.maxSources} containers are shown; narrow the selector to see others`,
        );
      this.limitNoted = true;
      return;
    }
    const source: LogSource = { id: this.nextSourceId++, namespace, pod, container };
    const state: SourceState = { source, stream: undefined, containerId, done: false };
    this.sources.set(`${namespace}/${pod}/${container}`, state);
    this.options.send({ type: 'logSources', streamId: this.options.streamId, added: [source], removed: [] });
    this.startStream(state);
  }

  private startStream(state: SourceState): void {
    state.done = false;
    state.stream = this.options.openStream(state.source, this.options.options, {
      onLines: (lines) => this.receive(state.source.id, lines),
      onNote: (note) => {
        if (note.type === 'ended' || note.type === 'failed') state.done = true;
        this.note(note.type, describeNote(note, this.options.options.follow), state.source.id);
      },
    });
  }

  private receive(source: number, lines: PodLogLine[]): void {
    if (this.closed) return;
    for (const line of lines)
      this.pending.push({ source, time: line.time, timestamp: line.timestamp, text: line.text });
    this.flushTimer ??= this.options.clock.setTimeout(() => this.flush(), frameMs);
  }

  private flush(): void {
    this.flushTimer = undefined;
    if (this.closed || this.pending.length === 0) return;
    const batch = this.pending.splice(0, this.options.maxLinesPerBatch);
    // Array.prototype.sort is stable: a source's lines keep their order within a millisecond.
    batch.sort((a, b) => a.time - b.time);
    this.options.send({ type: 'logLines', streamId: this.options.streamId, lines: batch });
    if (this.pending.length > 0) this.flushTimer = this.options.clock.setTimeout(() => this.flush(), frameMs);
  }

  private note(kind: LogNoteKind, message: string, source?: number): void {
    this.options.send({
      type: 'logNote',
      streamId: this.options.streamId,
      kind,
      message,
      time: this.options.clock.now(),
      ...(source !== undefined ? { source } : {}),
    });
  }
}

function describeNote(note: PodLogNote, follow: boolean): string {
  switch (note.type) {
    case 'reconnecting':
      if (note.retryInMs === 0) return `${note.message}; reconnecting now`;
      return `${note.message}; reconnecting in ${Math.round(note.retryInMs / 100) / 10} s`;
    case 'resumed':
      return `reconnected; resuming after ${note.since}`;
    case 'rotated':
      return note.message;
    case 'ended':
      // A followed log ends when its run exits; an unfollowed one when the reply is complete.
      return follow ? 'the container exited; its log ends here' : 'end of the log';
    case 'failed':
      return note.message;
  }
}
