// A past moment's recorded samples as the views read live ones (LatestSamples), kept as the answer's
// columns with a key -> position index, each sample made only when a view reads it. A Map of a sample
// object per key (150,000 at 150,000 pods, a new set every answer) held the page 140 ms and more of
// collection per answer, once a second while a playback moved; an index built anew per answer was
// 47-56 ms of a playback's 86-104 ms tasks. So an answer laid out against the keys held (keysFrom, see
// MetricsLayouts in main) shares the index of the answer before, which it extends by its added keys
// only: positions are never reused, so the answer before still reads its own (a key added after it
// sits past its columns). An answer with keys of its own (a fresh layout) indexes them.
// The keys are indexed in steps (SamplesIndexing), so that the page can take a fresh layout's 150,000
// in parts (see PastMetrics): in one, it was 37 ms of the 102 ms task a playback's first answer after
// landing on a list took, the longest still of the playback (session 38).
import type { RecordedMetrics } from '../../shared/protocol/history-messages';
import { keysPerStep } from './parted-work';
import type { LatestSamples, MetricSample } from './sample-history';

/**
 * An answer's keys being indexed, step by step. An index shared with the answer before is extended in
 * place: once begun, the answer must be taken in whole (finished, not dropped) before another is laid
 * out by the keys before, or that one's added keys would share positions with these.
 */
export class SamplesIndexing {
  private readonly index: Map<string, number>;
  private readonly keys: readonly string[];
  /** The position of keys[0]: past the columns of the answer before, when extending its index. */
  private readonly start: number;
  private indexed = 0;

  /**
   * `before`: the samples of the answer before; an answer laid out against its keys (keysFrom) must
   * come with it, or this throws.
   */
  constructor(
    private readonly recorded: RecordedMetrics,
    before?: RecordedSamples,
  ) {
    if (recorded.keysFrom !== undefined) {
      if (before === undefined || before.keysDigest !== recorded.keysFrom)
        throw new Error('the recorded metrics are laid out by keys this page does not hold');
      this.index = before.index;
      this.keys = recorded.addedKeys ?? [];
      this.start = before.columns;
    } else {
      this.index = new Map<string, number>();
      this.keys = recorded.keys;
      this.start = 0;
    }
  }

  /** Indexes keys while `more()`; true once every key is. */
  step(more: () => boolean): boolean {
    const { keys, index, start } = this;
    while (this.indexed < keys.length) {
      const to = Math.min(keys.length, this.indexed + keysPerStep);
      // A later duplicate key wins, as the Map of samples had it.
      for (let at = this.indexed; at < to; at++) index.set(keys[at]!, start + at);
      this.indexed = to;
      if (to < keys.length && !more()) return false;
    }
    return true;
  }

  /** The samples, once every key is indexed. */
  samples(): RecordedSamples {
    if (this.indexed < this.keys.length) throw new Error('the recorded samples are not all indexed yet');
    return new RecordedSamples(this.recorded, this.index);
  }
}

export class RecordedSamples implements LatestSamples {
  private readonly time: number;
  private readonly cpu: readonly (number | null)[];
  private readonly memory: readonly (number | null)[];
  /** Keys with a sample here (positions without one hold null). */
  readonly size: number;
  /** The digest of the layout the columns follow (RecordedMetrics.keysDigest): what a question names as held. */
  readonly keysDigest: string | undefined;
  /** The digest of the whole answer (see RecordedMetrics.answerDigest). */
  readonly answerDigest: string | undefined;

  constructor(
    recorded: RecordedMetrics,
    /** Key -> position in the columns; shared along a chain of layouts, which only ever add to it. */
    readonly index: Map<string, number>,
  ) {
    this.time = recorded.timestamp ?? 0;
    this.keysDigest = recorded.keysDigest;
    this.answerDigest = recorded.answerDigest;
    this.cpu = recorded.cpu;
    this.memory = recorded.memory;
    if (recorded.keysFrom !== undefined) {
      // The shared index also holds keys with no sample here (null: pods gone, or added later).
      let size = 0;
      for (let at = 0; at < this.cpu.length; at++) if (this.cpu[at] !== null) size++;
      this.size = size;
    } else this.size = index.size;
  }

  /** How many positions the columns hold: where the keys of an answer laid out by these go on from. */
  get columns(): number {
    return this.cpu.length;
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
