// Changes per kind over time (eventDensity's answer) from every change's time, kept in memory per open
// reader and read from the recording only once. The timeline asks for its density strip every 2 s
// while the recording grows; eventDensity's GROUP BY reads every change of the span each time: in the
// ui bench's travel (50,000 pods, 2,000 changes/s) a third of the query worker's time, ahead of the
// travel's own rebuild in the worker's queue, and growing with the recording. Here each question reads
// only the changes committed since the last one (by id: the writer numbers them in commit order), and
// counts a bucket by binary search over a kind's sorted times, whatever the span holds.
import type { DensityOptions } from './replay';
import type { RecordingReader } from './recording-reader';

/** Changes read per query while catching up, so a long recording's first read is never one huge array. */
const pageRows = 50_000;

/** One stream's change times, sorted when asked for (a capture may be stamped before its predecessor). */
interface StreamTimes {
  values: Float64Array;
  length: number;
  sorted: boolean;
}

export class ChangeDensity {
  private readonly streams = new Map<number, StreamTimes>();
  /** Changes up to this id are in `streams`. */
  private lastId = 0;
  /** The recording's start when read: retention deletes old changes and moves it (see retention.ts). */
  private start: number | undefined;

  constructor(private readonly reader: RecordingReader) {}

  /** Changes per kind (gvr) in `buckets` equal slices of [from, to): what eventDensity answers. */
  density(options: DensityOptions): Map<string, number[]> {
    const { from, to, buckets } = options;
    const result = new Map<string, number[]>();
    if (to <= from || buckets <= 0) return result;
    this.catchUp();
    // SQLite's CAST((time - from) * buckets / (to - from) AS INTEGER), its parameters bound as doubles.
    const bucketOf = (time: number) =>
      Math.min(Math.trunc(((time - from) * buckets) / (to - from)), buckets - 1);
    for (const [stream, times] of this.streams) {
      const values = sortedValues(times);
      let position = firstAtLeast(values, 0, values.length, (time) => time >= from);
      const end = firstAtLeast(values, position, values.length, (time) => time >= to);
      if (position >= end) continue;
      const gvr = this.reader.stream(stream)?.gvr ?? '';
      let counts = result.get(gvr);
      if (!counts) result.set(gvr, (counts = new Array<number>(buckets).fill(0)));
      while (position < end) {
        const bucket = bucketOf(values[position]);
        const next = firstAtLeast(values, position, end, (time) => bucketOf(time) > bucket);
        counts[bucket] += next - position;
        position = next;
      }
    }
    return result;
  }

  /** Reads the changes committed since the last question; everything again after retention ran. */
  private catchUp(): void {
    const start = this.reader.metadata.start;
    if (start !== this.start) {
      this.streams.clear();
      this.lastId = 0;
      this.start = start;
    }
    const statement = this.reader.database.prepare(
      'SELECT id, stream, time FROM changes WHERE id > ? ORDER BY id LIMIT ?',
    );
    for (;;) {
      const rows = this.reader.guard(
        'event density',
        [],
        () => statement.raw().all(this.lastId, pageRows) as [number, number, number][],
      );
      for (const [id, stream, time] of rows) {
        this.add(stream, time);
        this.lastId = id;
      }
      if (rows.length < pageRows) return;
    }
  }

  private add(stream: number, time: number): void {
    let times = this.streams.get(stream);
    if (!times)
      this.streams.set(stream, (times = { values: new Float64Array(1024), length: 0, sorted: true }));
    if (times.length === times.values.length) {
      const grown = new Float64Array(times.values.length * 2);
      grown.set(times.values);
      times.values = grown;
    }
    if (times.length > 0 && time < times.values[times.length - 1]) times.sorted = false;
    times.values[times.length++] = time;
  }
}

function sortedValues(times: StreamTimes): Float64Array {
  const values = times.values.subarray(0, times.length);
  if (!times.sorted) {
    values.sort();
    times.sorted = true;
  }
  return values;
}

/** The first index in [from, to) whose value satisfies `test` (false before it, true from it on), or `to`. */
function firstAtLeast(
  values: Float64Array,
  from: number,
  to: number,
  test: (value: number) => boolean,
): number {
  let low = from;
  let high = to;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (test(values[middle])) high = middle;
    else low = middle + 1;
  }
  return low;
}
