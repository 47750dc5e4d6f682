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

export class SampleHistory {
  private readonly times: Float64Array;
  /** Batches held (up to capacity); the newest is at slot (next - 1). */
  private count = 0;
  private next = 0;
  /** Per key: [cpu, memory] per slot, NaN where the object had no sample. */
  private series = new Map<string, Float32Array>();

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
    const series = new Map<string, Float32Array>();
    keys.forEach((key, index) => {
      let values = this.series.get(key);
      if (!values) {
        values = new Float32Array(this.capacity * 2);
        values.fill(Number.NaN);
      }
      values[slot * 2] = cpu[index]!;
      values[slot * 2 + 1] = memory[index]!;
      series.set(key, values);
    });
    this.series = series;
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
}
