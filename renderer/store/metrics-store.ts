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
import type { AskPastMetrics } from './past-metrics';
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

  /** `askPast`: reads a past moment's samples from the recording (absent: the past has none). */
  constructor(
    private readonly historyCapacity = defaultSampleCapacity,
    askPast?: AskPastMetrics,
  ) {
    this.entries = { pods: this.emptyEntry(), nodes: this.emptyEntry() };
    this.past = new PastMetrics(askPast, () => this.notify());
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
    if (availability === 'served') {
      const timestamp = message.timestamp ?? Date.now();
      // The latest samples are read from the history: a poll is kept once, in place (SampleHistory).
      entry.history.push(timestamp, message.keys, message.cpu, message.memory);
      entry.metrics = { availability, reason, timestamp, latest: entry.history.latestSamples() };
    } else if (availability === 'failing') {
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

  /** Forgets everything (a context switch: the next cluster's metrics are not these). */
  clear(): void {
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
