// A past moment's recorded samples as the views read live ones (LatestSamples), kept as the answer's
// columns with a key -> index map, each sample made only when a view reads it. A Map of a sample
// object per key (150,000 at 150,000 pods, a new set every answer) held the page 140 ms and more of
// collection per answer, once a second while a playback moved. The key -> index map is the answer
// before's when its keys are the same, in the same order (the same series, as answers for nearby
// moments have them): built anew, it was 47-56 ms of a playback's 86-104 ms tasks at 150,000 pods.
// Such an answer leaves its keys out (keysHeld, see PastMetrics): its digest names the answer before.
// (One that is the answer before whole, unchanged, is not made into samples at all: see PastMetrics.)
import type { RecordedMetrics } from '../../shared/protocol/history-messages';
import type { LatestSamples, MetricSample } from './sample-history';

export class RecordedSamples implements LatestSamples {
  private readonly index: ReadonlyMap<string, number>;
  private readonly time: number;
  private readonly cpu: readonly number[];
  private readonly memory: readonly number[];
  /** The digest of the keys `index` maps (see RecordedMetrics.keysDigest): what a question names as held. */
  readonly keysDigest: string | undefined;
  /** The digest of the whole answer (see RecordedMetrics.answerDigest). */
  readonly answerDigest: string | undefined;

  /**
   * `before`: the samples of the answer before, whose index is this one's if their keys are (their
   * digests equal); an answer whose keys were left out (keysHeld) must come with that answer.
   */
  constructor(recorded: RecordedMetrics, before?: RecordedSamples) {
    this.time = recorded.timestamp ?? 0;
    this.keysDigest = recorded.keysDigest;
    this.answerDigest = recorded.answerDigest;
    this.cpu = recorded.cpu;
    this.memory = recorded.memory;
    if (
      before !== undefined &&
      recorded.keysDigest !== undefined &&
      before.keysDigest === recorded.keysDigest
    )
      this.index = before.index;
    else if (recorded.keysHeld) throw new Error('the recorded metrics left out keys this page does not hold');
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
    return { time: this.time, cpu: this.cpu[at]!, memory: this.memory[at]! };
  }

  has(key: string): boolean {
    return this.index.has(key);
  }
}
