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
    const latest = this.latestTime;
    if (latest !== undefined && time <= latest) return;
    const slot = this.next;
    this.times[slot] = time;
    this.next = (slot + 1) % this.capacity;
    this.count = Math.min(this.count + 1, this.capacity);
    // Float32 holds every integer up to 2^24: a generation per 15 s poll lasts years.
    const generation = ++this.generation;
    const stamp = this.capacity * 2;
    const series = this.series;
    keys.forEach((key, index) => {
      let values = series.get(key);
      if (!values) {
        values = new Float32Array(stamp + 1);
        values.fill(Number.NaN);
        series.set(key, values);
      }
      values[slot * 2] = cpu[index]!;
      values[slot * 2 + 1] = memory[index]!;
      values[stamp] = generation;
    });
    // Objects missing from the batch have gone; none has when every key held is in it.
    if (series.size > keys.length)
      for (const [key, values] of series) if (values[stamp] !== generation) series.delete(key);
  }

  /** The object's samples, oldest first; empty when it has none. */
  samples(key: string): MetricSample[] {
    const values = this.series.get(key);
    if (!values) return [];
    const result: MetricSample[] = [];
    const oldest = (this.next - this.count + this.capacity) % this.capacity;
    for (let offset = 0; offset < this.count; offset++) {
      const slot = (oldest + offset) % this.capacity;
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
    return {
      get: (key) => {
        const values = series.get(key);
        return values === undefined || time === undefined
          ? undefined
          : { time, cpu: values[slot * 2]!, memory: values[slot * 2 + 1]! };
      },
      has: (key) => series.has(key),
      get size() {
        return series.size;
      },
    };
  }
}
