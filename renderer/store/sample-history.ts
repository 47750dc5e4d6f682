// The recent CPU and memory samples of every object of one resource, for the detail pane's chart:
// the last `capacity` polls (60: 15 minutes at metrics-server's 15 s). Every object of a batch shares
// the batch's timestamp, so times are kept once, in a ring of batches, and each object keeps only its
// values, a float slot per batch: at 150,000 pods that is ~75 MB rather than the ~400 MB of 9 million
// sample objects. An object missing from a batch has gone (deleted, or no longer running) and loses
// its history.

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

/** Objects' series per block of storage: 4,096 objects of 60 batches are ~2 MB. */
const rowsPerBlock = 4_096;
/** Rows sweep() looks at between two calls of its `more`. */
const rowsPerSweepStep = 4_096;

export class SampleHistory {
  private readonly times: Float64Array;
  /** Batches held (up to capacity); the newest is at slot (next - 1). */
  private count = 0;
  private next = 0;
  /** Batches pushed; each object's series ends with the generation of the last batch holding it. */
  private generation = 0;
  /** Floats per object: [cpu, memory] per slot (NaN where the object had no sample), then that generation. */
  private readonly stride: number;
  /**
   * Every object's series, `stride` floats at its row, in blocks that are never moved or freed. A
   * Float32Array per object cost an allocation (and an ArrayBuffer for the collector to track) per new
   * key, and under churn every poll brings thousands of new pods: in Chromium, four polls of 150,000
   * keys took 630-740 ms of the page's thread time that way, 420-540 ms in blocks.
   */
  private readonly blocks: Float32Array[] = [];
  /** Row of each object held. Updated in place: rebuilding it per poll was 150-350 ms at 150,000 pods. */
  private readonly rows = new Map<string, number>();
  /** Rows of objects gone, taken again before new rows are added. */
  private readonly freeRows: number[] = [];
  /** Rows handed out so far (held or free). */
  private rowCount = 0;
  /** The batch being written (begin .. end), into slot `next`. */
  private staged: { readonly time: number; readonly generation: number } | undefined;
  /** Where sweep() goes on in the rows, while the batch begun is being swept. */
  private sweeping: MapIterator<[string, number]> | undefined;
  /** Keys of the newest ended batch. */
  private latestSize = 0;

  constructor(readonly capacity: number = defaultSampleCapacity) {
    this.times = new Float64Array(capacity);
    this.stride = capacity * 2 + 1;
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
    this.sweeping = undefined;
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
    const { stride, blocks, rows } = this;
    const slot = this.next * 2;
    for (let index = from; index < to; index++) {
      const key = keys[index]!;
      let row = rows.get(key);
      if (row === undefined) {
        row = this.takeRow();
        rows.set(key, row);
      }
      const values = blocks[Math.floor(row / rowsPerBlock)]!;
      const start = (row % rowsPerBlock) * stride;
      values[start + slot] = cpu[index]!;
      values[start + slot + 1] = memory[index]!;
      values[start + stride - 1] = generation;
    }
  }

  /** A row with no samples: a gone object's, else a new one (and a new block when the last is full). */
  private takeRow(): number {
    const { stride } = this;
    const freed = this.freeRows.pop();
    if (freed !== undefined) {
      const start = (freed % rowsPerBlock) * stride;
      this.blocks[Math.floor(freed / rowsPerBlock)]!.fill(Number.NaN, start, start + stride);
      return freed;
    }
    const row = this.rowCount++;
    if (row % rowsPerBlock === 0) this.blocks.push(new Float32Array(rowsPerBlock * stride).fill(Number.NaN));
    return row;
  }

  /**
   * Forgets the objects the batch begun does not hold (call once every key of it is written), a step
   * of keys at a time while `more()` says to go on; true once done. The rows are looked at through one
   * iterator kept between calls (a Map's iterator outlives the deletions made through it), so a big
   * cluster's sweep (every row's generation read) can be spread over tasks like its writes.
   */
  sweep(size: number, more: () => boolean): boolean {
    const { generation } = this.staged!;
    const { stride, blocks, rows } = this;
    const sweeping = (this.sweeping ??= rows.entries());
    for (;;) {
      for (let step = 0; step < rowsPerSweepStep; step++) {
        // None left to forget once every key held is in the batch.
        const next = rows.size <= size ? undefined : sweeping.next();
        if (next === undefined || next.done) {
          this.sweeping = undefined;
          return true;
        }
        const [key, row] = next.value;
        if (
          blocks[Math.floor(row / rowsPerBlock)]![(row % rowsPerBlock) * stride + stride - 1] === generation
        )
          continue;
        rows.delete(key);
        this.freeRows.push(row);
      }
      if (!more()) return false;
    }
  }

  /** Ends the batch begun, holding `size` keys: objects missing from it have gone. */
  end(size: number): void {
    this.sweep(size, () => true);
    const { time, generation } = this.staged!;
    this.staged = undefined;
    const slot = this.next;
    this.times[slot] = time;
    this.next = (slot + 1) % this.capacity;
    this.count = Math.min(this.count + 1, this.capacity);
    // Float32 holds every integer up to 2^24: a generation per 15 s poll lasts years.
    this.generation = generation;
    this.latestSize = size;
  }

  /** The object's floats (its block) and where its series starts in them; undefined when not held. */
  private seriesOf(key: string): { values: Float32Array; start: number } | undefined {
    const row = this.rows.get(key);
    if (row === undefined) return undefined;
    return {
      values: this.blocks[Math.floor(row / rowsPerBlock)]!,
      start: (row % rowsPerBlock) * this.stride,
    };
  }

  /** The object's samples, oldest first; empty when it has none. */
  samples(key: string): MetricSample[] {
    const series = this.seriesOf(key);
    if (!series) return [];
    const { values, start } = series;
    const result: MetricSample[] = [];
    const oldest = (this.next - this.count + this.capacity) % this.capacity;
    for (let offset = 0; offset < this.count; offset++) {
      const slot = (oldest + offset) % this.capacity;
      // The oldest batch's slot, being overwritten by a batch not ended yet.
      if (this.staged !== undefined && slot === this.next) continue;
      const cpu = values[start + slot * 2]!;
      if (Number.isNaN(cpu)) continue;
      result.push({ time: this.times[slot]!, cpu, memory: values[start + slot * 2 + 1]! });
    }
    return result;
  }

  /**
   * The newest batch's samples, read from the series (every key held was in that batch); a new
   * object on each call, so views that compare it see each batch as a change.
   */
  latestSamples(): LatestSamples {
    const slot = (this.next - 1 + this.capacity) % this.capacity;
    const time = this.latestTime;
    const size = this.latestSize;
    // A key first seen by a batch still being written has no sample in the newest ended batch.
    const sample = (key: string): MetricSample | undefined => {
      const row = this.rows.get(key);
      if (time === undefined || row === undefined) return undefined;
      const values = this.blocks[Math.floor(row / rowsPerBlock)]!;
      const start = (row % rowsPerBlock) * this.stride + slot * 2;
      const cpu = values[start]!;
      return Number.isNaN(cpu) ? undefined : { time, cpu, memory: values[start + 1]! };
    };
    return { get: sample, has: (key) => sample(key) !== undefined, size };
  }
}
