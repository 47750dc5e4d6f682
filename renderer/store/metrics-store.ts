// CPU and memory of pods and nodes as main's metrics messages report them, kept beside the row mirror
// rather than in it: samples change every resolution window for every object, and joining them at
// render time leaves the rows, their indexes and the sort orders untouched (a 15 s refresh of 150,000
// pods re-renders the visible cells, nothing else). Each object keeps a bounded ring of recent
// samples for the detail pane's chart; objects gone from the latest batch lose theirs.
import type {
  MetricsAvailability,
  MetricsMessage,
  MetricsResource,
} from '../../shared/protocol/metrics-messages';
import type { MetricSample } from './sample-ring';
import { SampleRing, defaultSampleCapacity } from './sample-ring';

export interface ResourceMetrics {
  /** undefined until main has said anything (no poller, or not shown yet). */
  readonly availability: MetricsAvailability | undefined;
  readonly reason: string | undefined;
  /** When the latest samples were taken. */
  readonly timestamp: number | undefined;
  /** Moves on every change; views subscribe to it, never to the samples. */
  readonly revision: number;
  /** The latest sample per row key. */
  readonly latest: ReadonlyMap<string, MetricSample>;
}

interface ResourceEntry extends ResourceMetrics {
  latest: Map<string, MetricSample>;
  rings: Map<string, SampleRing>;
}

function emptyEntry(): ResourceEntry {
  return {
    availability: undefined,
    reason: undefined,
    timestamp: undefined,
    revision: 0,
    latest: new Map(),
    rings: new Map(),
  };
}

export class MetricsStore {
  private readonly entries: Record<MetricsResource, ResourceEntry> = {
    pods: emptyEntry(),
    nodes: emptyEntry(),
  };
  private readonly listeners = new Set<() => void>();

  constructor(private readonly ringCapacity = defaultSampleCapacity) {}

  of(resource: MetricsResource): ResourceMetrics {
    return this.entries[resource];
  }

  /** Oldest first; empty when none were seen. */
  history(resource: MetricsResource, key: string): MetricSample[] {
    return this.entries[resource].rings.get(key)?.samples() ?? [];
  }

  receive(message: MetricsMessage): void {
    const previous = this.entries[message.resource];
    const next: ResourceEntry = {
      ...previous,
      availability: message.availability,
      reason: message.reason,
      revision: previous.revision + 1,
    };
    if (message.availability === 'served') {
      const time = message.timestamp ?? Date.now();
      const latest = new Map<string, MetricSample>();
      const rings = new Map<string, SampleRing>();
      message.keys.forEach((key, index) => {
        const sample = { time, cpu: message.cpu[index]!, memory: message.memory[index]! };
        latest.set(key, sample);
        const ring = previous.rings.get(key) ?? new SampleRing(this.ringCapacity);
        ring.push(sample);
        rings.set(key, ring);
      });
      Object.assign(next, { latest, rings, timestamp: time });
    } else if (message.availability !== 'failing') {
      // absent or forbidden: nothing shown is current any more. A failing poll keeps the last samples.
      Object.assign(next, { latest: new Map(), rings: new Map(), timestamp: undefined });
    }
    this.entries[message.resource] = next;
    for (const listener of [...this.listeners]) listener();
  }

  /** Forgets everything (a context switch: the next cluster's metrics are not these). */
  clear(): void {
    this.entries.pods = emptyEntry();
    this.entries.nodes = emptyEntry();
    for (const listener of [...this.listeners]) listener();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
