// CPU and memory of pods and nodes as main's metrics messages report them, kept beside the row mirror
// rather than in it: samples change every resolution window for every object, and joining them at
// render time leaves the rows, their indexes and the sort orders untouched (a 15 s refresh of 150,000
// pods re-renders the visible cells, nothing else). Each resource keeps a bounded history of recent
// batches for the detail pane's chart (SampleHistory).
import type {
  MetricsAvailability,
  MetricsMessage,
  MetricsResource,
} from '../../shared/protocol/metrics-messages';
import { keysPerStep, pageTasks, runInParts } from './parted-work';
import type { PartedWork, PartTasks } from './parted-work';
import type { AskPastMetrics, QuestionSpacing } from './past-metrics';
import { PastMetrics } from './past-metrics';
import type { LatestSamples, MetricSample } from './sample-history';
import { SampleHistory, defaultSampleCapacity } from './sample-history';

export interface ResourceMetrics {
  /** undefined until main has said anything (no poller, or not shown yet). */
  readonly availability: MetricsAvailability | undefined;
  readonly reason: string | undefined;
  /** When the latest samples were taken. */
  readonly timestamp: number | undefined;
  /** A new object on every message: views re-read when it changes, never the samples themselves. */
  readonly latest: LatestSamples;
}

interface ResourceEntry {
  metrics: ResourceMetrics;
  history: SampleHistory;
}

export class MetricsStore {
  private readonly entries: Record<MetricsResource, ResourceEntry>;
  private readonly listeners = new Set<() => void>();
  /** The recorded samples of the moment the view travelled to (see PastMetrics). */
  readonly past: PastMetrics;

  /**
   * Per resource, the poll being kept in parts (see keepPoll), and how to finish it at once. Per
   * resource because pods and nodes are polled side by side: a nodes message finishing the pods
   * poll's remaining parts would write them in one task again (at 150,000 pods, the long task the
   * parts exist to avoid).
   */
  private readonly pending: Partial<Record<MetricsResource, PartedWork>> = {};

  /**
   * `askPast`: reads a past moment's samples from the recording (absent: the past has none).
   * `tasks` runs the next part of a large poll or past answer in a task of its own, and reads a
   * part's budget (see runInParts); `pastSpacing` spaces the questions about the past (see PastMetrics).
   */
  constructor(
    private readonly historyCapacity = defaultSampleCapacity,
    askPast?: AskPastMetrics,
    private readonly tasks: PartTasks = pageTasks,
    pastSpacing?: QuestionSpacing,
  ) {
    this.entries = { pods: this.emptyEntry(), nodes: this.emptyEntry() };
    this.past = new PastMetrics(askPast, () => this.notify(), pastSpacing, tasks);
  }

  of(resource: MetricsResource): ResourceMetrics {
    return this.entries[resource].metrics;
  }

  /** The object's recent samples, oldest first; empty when none were seen. */
  history(resource: MetricsResource, key: string): MetricSample[] {
    return this.entries[resource].history.samples(key);
  }

  receive(message: MetricsMessage): void {
    const entry = this.entries[message.resource];
    const { availability, reason } = message;
    // A resource's messages apply in order: its poll still being kept is finished first.
    this.pending[message.resource]?.finish();
    if (availability === 'served') return this.keepPoll(entry, message);
    if (availability === 'failing') {
      // The last samples still stand, marked stale by the availability.
      entry.metrics = { ...entry.metrics, availability, reason };
    } else {
      // absent or forbidden: nothing shown is current any more.
      const empty = this.emptyEntry();
      empty.metrics = { ...empty.metrics, availability, reason };
      this.entries[message.resource] = empty;
    }
    this.notify();
  }

  /**
   * Keeps a served poll in the history (in place: SampleHistory) in parts (runInParts), and shows it
   * once every part is in: 150,000 pods in one task held the page for 80-100 ms (a long task every
   * poll), on top of the message's decode. Cut by time, not by count: a key first seen costs several
   * times one already held (SampleHistory's takeRow allocating and filling new blocks for it: cut at
   * 20,000 keys a task, the first polls after synced held the page 65-117 ms a task at 50,000 pods,
   * session 20), and forgetting the objects a poll lacks reads every row held (23 ms at 50,000 pods in
   * the last part's task before it was cut too).
   */
  private keepPoll(entry: ResourceEntry, message: MetricsMessage): void {
    const { availability, reason, keys } = message;
    const timestamp = message.timestamp ?? Date.now();
    const history = entry.history;
    const show = (): void => {
      entry.metrics = { availability, reason, timestamp, latest: history.latestSamples() };
      this.notify();
    };
    if (!history.begin(timestamp)) return show();
    let written = 0;
    /** The poll's next steps while `more()`: its keys written, then the objects it lacks forgotten. */
    const step = (more: () => boolean): boolean => {
      while (written < keys.length) {
        const to = Math.min(keys.length, written + keysPerStep);
        history.write(keys, message.cpu, message.memory, written, to);
        written = to;
        // Past the last key the sweep goes on at once: it ends at once when no object has gone.
        if (written < keys.length && !more()) return false;
      }
      return history.sweep(keys.length, more);
    };
    const done = (): void => {
      delete this.pending[message.resource];
      history.end(keys.length);
      show();
    };
    const work = runInParts(step, done, this.tasks);
    if (!work.over) this.pending[message.resource] = work;
  }

  /** Forgets everything (a context switch: the next cluster's metrics are not these). */
  clear(): void {
    for (const resource of ['pods', 'nodes'] as const) {
      this.pending[resource]?.cancel();
      delete this.pending[resource];
    }
    this.entries.pods = this.emptyEntry();
    this.entries.nodes = this.emptyEntry();
    this.past.clear();
    this.notify();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emptyEntry(): ResourceEntry {
    return {
      metrics: { availability: undefined, reason: undefined, timestamp: undefined, latest: new Map() },
      history: new SampleHistory(this.historyCapacity),
    };
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
