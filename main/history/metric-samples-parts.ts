// One poll's metric samples, cut for the trip to the recording process. Its series definitions are
// the expensive part of the structured clone (an object of five strings each, about 4 us apiece):
// the first poll of a 150,000-pod cluster defines every container, and cloned whole that held the
// main thread for 100-300 ms. They go ahead in parts, each an entry of definitions and no samples
// (the recording process defines its series and writes no sample row for it), the last part with
// the rest of them and every sample, so the poll is still one metric_samples row.
import type { MetricSamplesEntry } from './recording-protocol';

/** Series definitions per message: about 4 ms of this thread's time to clone. */
export const definitionsPerPart = 1_000;

/** `entry` as the messages to post in order; just `entry` when its definitions fit in one. */
export function metricSamplesParts(
  entry: MetricSamplesEntry,
  perPart = definitionsPerPart,
): MetricSamplesEntry[] {
  const { definitions } = entry;
  if (definitions.length <= perPart) return [entry];
  const parts: MetricSamplesEntry[] = [];
  let start = 0;
  for (; definitions.length - start > perPart; start += perPart)
    parts.push({
      resource: entry.resource,
      definitions: definitions.slice(start, start + perPart),
      series: [],
      timestamps: [],
      windowsMs: [],
      millicores: [],
      bytes: [],
    });
  parts.push({ ...entry, definitions: definitions.slice(start) });
  return parts;
}
