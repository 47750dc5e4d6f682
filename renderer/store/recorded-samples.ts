// A past moment's recorded samples as the views read live ones (LatestSamples), kept as the answer's
// columns with a key -> position index, each sample made only when a view reads it. A Map of a sample
// object per key (150,000 at 150,000 pods, a new set every answer) held the page 140 ms and more of
// collection per answer, once a second while a playback moved; an index built anew per answer was
// 47-56 ms of a playback's 86-104 ms tasks. So an answer laid out against the keys held (keysFrom, see
// MetricsLayouts in main) shares the index of the answer before, which it extends by its added keys
// only: positions are never reused, so the answer before still reads its own (a key added after it
// sits past its columns). An answer with keys of its own (a fresh layout) indexes them.
import type { RecordedMetrics } from '../../shared/protocol/history-messages';
import type { LatestSamples, MetricSample } from './sample-history';

export class RecordedSamples implements LatestSamples {
  /** Key -> position in the columns; shared along a chain of layouts, which only ever add to it. */
  private readonly index: Map<string, number>;
  private readonly time: number;
  private readonly cpu: readonly (number | null)[];
  private readonly memory: readonly (number | null)[];
  /** Keys with a sample here (positions without one hold null). */
  readonly size: number;
  /** The digest of the layout the columns follow (RecordedMetrics.keysDigest): what a question names as held. */
  readonly keysDigest: string | undefined;
  /** The digest of the whole answer (see RecordedMetrics.answerDigest). */
  readonly answerDigest: string | undefined;

  /**
   * `before`: the samples of the answer before; an answer laid out against its keys (keysFrom) must
   * come with it.
   */
  constructor(recorded: RecordedMetrics, before?: RecordedSamples) {
    this.time = recorded.timestamp ?? 0;
    this.keysDigest = recorded.keysDigest;
    this.answerDigest = recorded.answerDigest;
    this.cpu = recorded.cpu;
    this.memory = recorded.memory;
    if (recorded.keysFrom !== undefined) {
      if (before === undefined || before.keysDigest !== recorded.keysFrom)
        throw new Error('the recorded metrics are laid out by keys this page does not hold');
      this.index = before.index;
      const start = before.cpu.length;
      recorded.addedKeys?.forEach((key, at) => this.index.set(key, start + at));
      // The shared index also holds keys with no sample here (null: pods gone, or added later).
      let size = 0;
      for (let at = 0; at < this.cpu.length; at++) if (this.cpu[at] !== null) size++;
      this.size = size;
    } else {
      this.index = new Map<string, number>();
      // A later duplicate key wins, as the Map of samples had it.
      recorded.keys.forEach((key, at) => this.index.set(key, at));
      this.size = this.index.size;
    }
  }

  get(key: string): MetricSample | undefined {
    const at = this.position(key);
    if (at === undefined) return undefined;
    return { time: this.time, cpu: this.cpu[at]!, memory: this.memory[at]! };
  }

  has(key: string): boolean {
    return this.position(key) !== undefined;
  }

  /** `key`'s position in these columns, when it has a sample here. */
  private position(key: string): number | undefined {
    const at = this.index.get(key);
    return at === undefined || at >= this.cpu.length || this.cpu[at] === null ? undefined : at;
  }
}
