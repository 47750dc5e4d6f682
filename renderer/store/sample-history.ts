// The recent CPU and memory samples of every object of one resource, for the detail pane's chart:
// the last `capacity` polls (60: 15 minutes at metrics-server's 15 s). Every object of a batch shares
// the batch's timestamp, so times are kept once, in a ring of batches, and each object keeps only its
// values in a Float32Array slot per batch: at 150,000 pods that is ~75 MB rather than the ~400 MB
// of 9 million sample objects. An object missing from a batch has gone (deleted, or no longer
// running) and loses its history.

export interface MetricSample {
  /** Epoch ms the sample was taken. */
  readonly time: number;
  /** Cores. */
  readonly cpu: number;
  /** Bytes. */
  readonly memory: number;
}

/** 15 minutes at metrics-server's 15 s resolution. */
export const defaultSampleCapacity = 60;

/** An object's latest sample by row key: what the table's metric cells and filters read. */
export interface LatestSamples {
  get(key: string): MetricSample | undefined;
  has(key: string): boolean;
  readonly size: number;
}

export class SampleHistory {
  private readonly times: Float64Array;
  /** Batches held (up to capacity); the newest is at slot (next - 1). */
  private count = 0;
  private next = 0;
  /** Batches pushed; each object's series ends with the generation of the last batch holding it. */
  private generation = 0;
  /**
   * Per key: [cpu, memory] per slot (NaN where the object had no sample), then that generation.
   * Updated in place: a 150,000-pod batch rebuilt this Map and a sample object per pod on every poll,
   * 150-350 ms of CPU on the page's main thread every 15 s (a long task each time).
   */
  private readonly series = new Map<string, Float32Array>();
  /** The batch being written (begin .. end), into slot `next`. */
  private staged: { readonly time: number; readonly generation: number } | undefined;
  /** Keys of the newest ended batch. */
  private latestSize = 0;

  constructor(readonly capacity: number = defaultSampleCapacity) {
    this.times = new Float64Array(capacity);
  }

  /** The newest batch's time, or undefined before the first. */
  get latestTime(): number | undefined {
    return this.count === 0 ? undefined : this.times[(this.next - 1 + this.capacity) % this.capacity];
  }

  /**
   * Appends a batch. One no newer than the last is the same scrape read again (metrics-server repeats
   * a sample until its next scrape) and is ignored.
   */
  push(time: number, keys: readonly string[], cpu: readonly number[], memory: readonly number[]): void {
    if (!this.begin(time)) return;
    this.write(keys, cpu, memory, 0, keys.length);
    this.end(keys.length);
  }

  /**
   * Starts a batch written in parts (write, then end), so a poll of 150,000 pods is spread over
   * several tasks; readers see the previous batch until end. False when the batch is not newer.
   */
  begin(time: number): boolean {
    const latest = this.latestTime;
    if (this.staged !== undefined || (latest !== undefined && time <= latest)) return false;
    this.staged = { time, generation: this.generation + 1 };
    return true;
  }

  /** Writes keys [from, to) of the batch begun. */
  write(
    keys: readonly string[],
    cpu: readonly number[],
    memory: readonly number[],
    from: number,
    to: number,
  ): void {
    const { generation } = this.staged!;
    const slot = this.next;
    const stamp = this.capacity * 2;
    const series = this.series;
    for (let index = from; index < to; index++) {
      const key = keys[index];
      let values = series.get(key);
      if (!values) {
        values = new Float32Array(stamp + 1);
        values.fill(Number.NaN);
        series.set(key, values);
      }
      values[slot * 2] = cpu[index]!;
      values[slot * 2 + 1] = memory[index]!;
      values[stamp] = generation;
    }
  }

  /** Ends the batch begun, holding `size` keys: objects missing from it have gone. */
  end(size: number): void {
    const { time, generation } = this.staged!;
    this.staged = undefined;
    const slot = this.next;
    this.times[slot] = time;
    this.next = (slot + 1) % this.capacity;
    this.count = Math.min(this.count + 1, this.capacity);
    // Float32 holds every integer up to 2^24: a generation per 15 s poll lasts years.
    this.generation = generation;
    this.latestSize = size;
    const stamp = this.capacity * 2;
    // None has gone when every key held is in the batch.
    if (this.series.size > size)
      for (const [key, values] of this.series) if (values[stamp] !== generation) this.series.delete(key);
  }

  /** The object's samples, oldest first; empty when it has none. */
  samples(key: string): MetricSample[] {
    const values = this.series.get(key);
    if (!values) return [];
    const result: MetricSample[] = [];
    const oldest = (this.next - this.count + this.capacity) % this.capacity;
    for (let offset = 0; offset < this.count; offset++) {
      const slot = (oldest + offset) % this.capacity;
      // The oldest batch's slot, being overwritten by a batch not ended yet.
      if (this.staged !== undefined && slot === this.next) continue;
      const cpu = values[slot * 2]!;
      if (Number.isNaN(cpu)) continue;
      result.push({ time: this.times[slot]!, cpu, memory: values[slot * 2 + 1]! });
    }
    return result;
  }

  /**
   * The newest batch's samples, read from the series (every key held was in that batch); a new
   * object on each call, so views that compare it see each batch as a change.
   */
  latestSamples(): LatestSamples {
    const series = this.series;
    const slot = (this.next - 1 + this.capacity) % this.capacity;
    const time = this.latestTime;
    const size = this.latestSize;
    // A key first seen by a batch still being written has no sample in the newest ended batch.
    const sample = (key: string): MetricSample | undefined => {
      const values = series.get(key);
      const cpu = values?.[slot * 2];
      return time === undefined || cpu === undefined || Number.isNaN(cpu)
        ? undefined
        : { time, cpu, memory: values![slot * 2 + 1]! };
    };
    return { get: sample, has: (key) => sample(key) !== undefined, size };
  }
}
