// The recent CPU and memory samples of one object, for the detail pane's chart: a fixed-capacity ring,
// so a pod watched for hours holds the last ~15 minutes (60 samples at metrics-server's 15 s) and no
// more, whatever the poll cadence.

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

export class SampleRing {
  private readonly slots: (MetricSample | undefined)[];
  private start = 0;
  private length = 0;

  constructor(readonly capacity: number = defaultSampleCapacity) {
    this.slots = new Array<MetricSample | undefined>(capacity);
  }

  /**
   * Appends a sample, dropping the oldest when full. A sample no newer than the last is the same
   * scrape read again (metrics-server repeats a sample until its next scrape) and is ignored.
   */
  push(sample: MetricSample): void {
    const last = this.latest();
    if (last && sample.time <= last.time) return;
    if (this.length < this.capacity) {
      this.slots[(this.start + this.length++) % this.capacity] = sample;
      return;
    }
    this.slots[this.start] = sample;
    this.start = (this.start + 1) % this.capacity;
  }

  get size(): number {
    return this.length;
  }

  latest(): MetricSample | undefined {
    return this.length === 0 ? undefined : this.slots[(this.start + this.length - 1) % this.capacity];
  }

  /** Oldest first. */
  samples(): MetricSample[] {
    const result: MetricSample[] = [];
    for (let index = 0; index < this.length; index++)
      result.push(this.slots[(this.start + index) % this.capacity]!);
    return result;
  }
}
