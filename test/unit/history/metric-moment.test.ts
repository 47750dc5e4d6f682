// A moment's recorded usage (metricsAt) is read by series number into typed arrays, no object per
// sample. What it answers must be what the rule says, which the oracle below states plainly, a Map
// per series and per object as metricsAt read it before: each series' latest sample at or before the
// moment and within two of its windows, a later one winning a tie; per object the containers of one
// uid summed, a name reused by a newer uid counting that uid's samples alone. Random recordings put
// names reused with new uids, containers coming and going, polls skipped and windows of other lengths
// against it, at moments all over them.
import { afterEach, describe, expect, it } from 'vitest';
import { decodeMetricSamples } from '../../../main/history/metric-sample-codec';
import type { EncodedSample } from '../../../main/history/metric-sample-codec';
import { metricsAt } from '../../../main/history/metric-sample-reader';
import { openRecording } from '../../../main/history/recording-reader';
import type { MetricSeriesDefinition } from '../../../main/history/recording-protocol';
import { RecordingServer } from '../../../main/history/recording-server';
import type { SqliteDatabase } from '../../../main/history/schema';
import type { RecordedMetrics } from '../../../shared/protocol/history-messages';
import { seededRandom, tempDirectory } from './fixtures';

let directory: ReturnType<typeof tempDirectory> | undefined;
afterEach(() => {
  directory?.remove();
  directory = undefined;
});

const start = Date.parse('2026-01-01T00:00:00Z');
const defaultWindowMs = 15_000;

/** The rule, as plainly as it reads: a Map of chosen samples, then a Map of objects, in that order. */
function oracle(database: SqliteDatabase, time: number): RecordedMetrics {
  const none: RecordedMetrics = { keys: [], cpu: [], memory: [] };
  const latest = database
    .prepare(
      "SELECT window_ms FROM metric_samples WHERE resource = 'pods' AND time <= ? ORDER BY time DESC LIMIT 1",
    )
    .get(time) as { window_ms: number } | undefined;
  if (!latest) return none;
  const windowMs = latest.window_ms || defaultWindowMs;
  const rows = database
    .prepare(
      "SELECT time, payload FROM metric_samples WHERE resource = 'pods' AND time >= ? AND time <= ? ORDER BY time",
    )
    .all(time - 3 * windowMs, time + windowMs) as { time: number; payload: Buffer }[];
  const chosen = new Map<number, EncodedSample>();
  for (const row of rows)
    decodeMetricSamples(row.time, row.payload, (sample) => {
      if (sample.timestamp > time || sample.timestamp < time - 2 * (sample.windowMs || defaultWindowMs))
        return;
      const previous = chosen.get(sample.series);
      if (!previous || previous.timestamp <= sample.timestamp) chosen.set(sample.series, sample);
    });
  if (chosen.size === 0) return none;
  const series = new Map(
    (
      database
        .prepare("SELECT id, namespace, name, uid FROM metric_series WHERE resource = 'pods'")
        .all() as {
        id: number;
        namespace: string;
        name: string;
        uid: string;
      }[]
    ).map((row) => [row.id, row]),
  );
  const objects = new Map<string, { uid: string; timestamp: number; millicores: number; bytes: number }>();
  for (const [id, sample] of chosen) {
    const named = series.get(id);
    if (!named) continue;
    const key = `${named.namespace}/${named.name}`;
    const object = objects.get(key);
    if (!object || (object.uid !== named.uid && object.timestamp < sample.timestamp))
      objects.set(key, {
        uid: named.uid,
        timestamp: sample.timestamp,
        millicores: sample.millicores,
        bytes: sample.bytes,
      });
    else if (object.uid === named.uid) {
      object.millicores += sample.millicores;
      object.bytes += sample.bytes;
      object.timestamp = Math.max(object.timestamp, sample.timestamp);
    }
  }
  const result = { ...none, timestamp: 0, windowMs };
  for (const [key, object] of objects) {
    result.keys.push(key);
    result.cpu.push(object.millicores / 1000);
    result.memory.push(object.bytes);
    result.timestamp = Math.max(result.timestamp, object.timestamp);
  }
  return result;
}

/** A recording of `polls` random polls of `pods` pod names, written as a RecordingSession writes them. */
function randomRecording(file: string, seed: number, pods: number, polls: number): void {
  const random = seededRandom(seed);
  const server = new RecordingServer(() => {});
  server.handle({ type: 'open', settings: { file, context: 'test-context' }, now: start });
  let nextSeries = 0;
  // Per pod name: its current uid's incarnation and its containers' series.
  const live = Array.from({ length: pods }, () => ({ incarnation: 0, series: new Map<string, number>() }));
  let time = start;
  for (let poll = 0; poll < polls; poll++) {
    // Mostly a poll per 15 s window; now and then one skipped, late, or on another window length.
    time += random() < 0.1 ? 30_000 : 15_000;
    const windowMs = random() < 0.15 ? 30_000 : 15_000;
    const definitions: MetricSeriesDefinition[] = [];
    const entry = { series: [] as number[], timestamps: [] as number[], windowsMs: [] as number[] };
    const millicores: number[] = [];
    const bytes: number[] = [];
    for (let pod = 0; pod < pods; pod++) {
      const state = live[pod];
      // A name reused by a new pod (a StatefulSet's), with new series.
      if (random() < 0.08) {
        state.incarnation++;
        state.series = new Map();
      }
      if (random() < 0.2) continue; // not in this scrape
      const containers = random() < 0.3 ? ['app', 'proxy'] : ['app'];
      for (const container of containers) {
        let series = state.series.get(container);
        if (series === undefined) {
          state.series.set(container, (series = ++nextSeries));
          definitions.push({
            series,
            namespace: `team-${pod % 3}`,
            name: `web-${pod}`,
            // Now and then a pod sampled before its informer had it: no uid.
            uid: random() < 0.1 ? '' : `uid-${pod}-${state.incarnation}`,
            container,
            workload: '',
          });
        }
        entry.series.push(series);
        entry.timestamps.push(time - Math.floor(random() * 3) * 1_000);
        entry.windowsMs.push(windowMs);
        millicores.push(Math.floor(random() * 900));
        bytes.push(Math.floor(random() * 2 ** 33));
      }
    }
    server.handle({
      type: 'metric-samples',
      now: time,
      samples: { resource: 'pods', definitions, ...entry, millicores, bytes },
    });
  }
  server.handle({ type: 'close', now: time + 1_000 });
}

describe("a moment's recorded usage", () => {
  it('is what the rule says at every moment of random recordings: reused names, containers, skipped polls', () => {
    directory = tempDirectory();
    for (let seed = 1; seed <= 6; seed++) {
      const file = directory.file(`moment-${seed}.kubetide`);
      randomRecording(file, seed, 40, 30);
      const reader = openRecording(file);
      let answered = 0;
      for (let time = start - 5_000; time <= start + 31 * 30_000; time += 3_700) {
        const expected = oracle(reader.database, time);
        expect(metricsAt(reader.database, 'pods', time)).toEqual(expected);
        answered += expected.keys.length;
      }
      // Moments with samples, not only empty ones.
      expect(answered).toBeGreaterThan(1_000);
      reader.close();
    }
  });
});
