// The payload of one metric_samples row: every sample one poll of metrics.k8s.io returned for one
// resource, as unsigned LEB128 varints, deflated. Samples are sorted by series id and each id is
// stored as the step from the previous one, so a poll of 150,000 pods whose series were numbered
// together costs one byte per id; a sample's timestamp is stored as its distance back from the row's
// time (metrics-server stamps every pod of a node with the node's scrape, so mostly 0).
//
// Layout: count, then per sample: id step, row time - timestamp (ms), window (ms), millicores, bytes.
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/** One recorded sample of one series (a pod's container, or a node). */
export interface EncodedSample {
  readonly series: number;
  /** When metrics-server took it (epoch ms). */
  readonly timestamp: number;
  /** The span its usage was averaged over (ms). */
  readonly windowMs: number;
  readonly millicores: number;
  readonly bytes: number;
}

class VarintWriter {
  private buffer = Buffer.allocUnsafe(4096);
  private length = 0;

  write(value: number): void {
    if (!(value >= 0) || !Number.isSafeInteger(value)) throw new RangeError(`not a varint: ${value}`);
    if (this.length + 8 > this.buffer.length) {
      const grown = Buffer.allocUnsafe(this.buffer.length * 2);
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    // Division, not shifts: byte counts pass 2^31 (a node's memory), which shifts would wrap.
    while (value >= 0x80) {
      this.buffer[this.length++] = (value % 0x80) | 0x80;
      value = Math.floor(value / 0x80);
    }
    this.buffer[this.length++] = value;
  }

  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

class VarintReader {
  private offset = 0;

  constructor(private readonly buffer: Buffer) {}

  read(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (this.offset >= this.buffer.length) throw new Error('a metric samples payload ends early');
      const byte = this.buffer[this.offset++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  }
}

/**
 * The row time (the newest sample's timestamp) and payload of `samples`, whose series must be
 * distinct. Values are rounded to whole millicores and bytes.
 */
export function encodeMetricSamples(samples: readonly EncodedSample[]): { time: number; payload: Buffer } {
  const sorted = [...samples].sort((left, right) => left.series - right.series);
  const time = sorted.reduce((newest, sample) => Math.max(newest, sample.timestamp), 0);
  const writer = new VarintWriter();
  writer.write(sorted.length);
  let previous = 0;
  for (const sample of sorted) {
    writer.write(sample.series - previous);
    previous = sample.series;
    writer.write(time - sample.timestamp);
    writer.write(Math.round(sample.windowMs));
    writer.write(Math.round(sample.millicores));
    writer.write(Math.round(sample.bytes));
  }
  return { time, payload: deflateRawSync(writer.bytes()) };
}

/** Calls `visit` with each sample of a row (time, payload), in series order. */
export function decodeMetricSamples(
  time: number,
  payload: Buffer,
  visit: (sample: EncodedSample) => void,
): void {
  decodeMetricSampleFields(time, payload, (series, timestamp, windowMs, millicores, bytes) =>
    visit({ series, timestamp, windowMs, millicores, bytes }),
  );
}

/**
 * As decodeMetricSamples, each sample's fields given as they are read, no object made: a moment of
 * 150,000 pods reads about five polls' samples (metricsAt), a million objects for the collector.
 */
export function decodeMetricSampleFields(
  time: number,
  payload: Buffer,
  visit: (series: number, timestamp: number, windowMs: number, millicores: number, bytes: number) => void,
): void {
  const reader = new VarintReader(inflateRawSync(payload));
  const count = reader.read();
  let series = 0;
  for (let index = 0; index < count; index++) {
    series += reader.read();
    const timestamp = time - reader.read();
    const windowMs = reader.read();
    const millicores = reader.read();
    const bytes = reader.read();
    visit(series, timestamp, windowMs, millicores, bytes);
  }
}
