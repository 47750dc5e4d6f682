// A past moment's recorded samples as the views read live ones (LatestSamples), kept as the answer's
// columns with a key -> index map, each sample made only when a view reads it. A Map of a sample
// object per key (150,000 at 150,000 pods, a new set every answer) held the page 140 ms and more of
// collection per answer, once a second while a playback moved. The key -> index map is the answer
// before's when its keys are the same, in the same order (the same series, as answers for nearby
// moments have them): built anew, it was 47-56 ms of a playback's 86-104 ms tasks at 150,000 pods.
import type { RecordedMetrics } from '../../shared/protocol/history-messages';
import type { LatestSamples, MetricSample } from './sample-history';

export class RecordedSamples implements LatestSamples {
  private readonly index: ReadonlyMap<string, number>;
  private readonly time: number;

  /** `before`: the samples of the answer before, whose index is this one's if their keys are. */
  constructor(
    private readonly recorded: RecordedMetrics,
    before?: RecordedSamples,
  ) {
    this.time = recorded.timestamp ?? 0;
    if (before !== undefined && sameKeys(before.recorded.keys, recorded.keys)) this.index = before.index;
    else {
      const index = new Map<string, number>();
      // A later duplicate key wins, as the Map of samples had it.
      recorded.keys.forEach((key, at) => index.set(key, at));
      this.index = index;
    }
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

function sameKeys(left: readonly string[], right: readonly string[]): boolean {
  if (left.length !== right.length) return false;
  for (let at = 0; at < left.length; at++) if (left[at] !== right[at]) return false;
  return true;
}
