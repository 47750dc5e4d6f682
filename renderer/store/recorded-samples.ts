// A past moment's recorded samples as the views read live ones (LatestSamples), kept as the answer's
// columns with a key -> index map, each sample made only when a view reads it. A Map of a sample
// object per key (150,000 at 150,000 pods, a new set every answer) held the page 140 ms and more of
// collection per answer, once a second while a playback moved.
import type { RecordedMetrics } from '../../shared/protocol/history-messages';
import type { LatestSamples, MetricSample } from './sample-history';

export class RecordedSamples implements LatestSamples {
  private readonly index = new Map<string, number>();
  private readonly time: number;

  constructor(private readonly recorded: RecordedMetrics) {
    this.time = recorded.timestamp ?? 0;
    // A later duplicate key wins, as the Map of samples had it.
    recorded.keys.forEach((key, at) => this.index.set(key, at));
  }

  get size(): number {
    return this.index.size;
  }

  get(key: string): MetricSample | undefined {
    const at = this.index.get(key);
    if (at === undefined) return undefined;
    return { time: this.time, cpu: this.recorded.cpu[at]!, memory: this.recorded.memory[at]! };
  }

  has(key: string): boolean {
    return this.index.has(key);
  }
}
