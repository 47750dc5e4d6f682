import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../main/cache/fake-clock';
import { metricsAt } from '../../../main/history/metric-sample-reader';
import { definitionsPerPart, metricSamplesParts } from '../../../main/history/metric-samples-parts';
import { Recorder } from '../../../main/history/recorder';
import { inlineRecordingProcess } from '../../../main/history/recording-process';
import type { RecorderRequest, MetricSamplesEntry } from '../../../main/history/recording-protocol';
import { openRecording } from '../../../main/history/recording-reader';
import type { TempDirectory } from './fixtures';
import { tempDirectory } from './fixtures';

let directory: TempDirectory | undefined;
afterEach(() => directory?.remove());

/** A first poll of `pods` pods: every container is new, so each has a definition. */
function firstPoll(pods: number, timestamp: number): MetricSamplesEntry {
  const series = Array.from({ length: pods }, (_, index) => index + 1);
  return {
    resource: 'pods',
    definitions: series.map((number) => ({
      series: number,
      namespace: 'default',
      name: `pod-${number}`,
      uid: `uid-${number}`,
      container: 'app',
      workload: 'Deployment/app',
    })),
    series,
    timestamps: series.map(() => timestamp),
    windowsMs: series.map(() => 15_000),
    millicores: series.map((number) => number % 200),
    bytes: series.map((number) => number * 1024),
  };
}

describe('metricSamplesParts', () => {
  it('sends a poll whose definitions fit in one message as it is', () => {
    const entry = firstPoll(definitionsPerPart, 1);
    expect(metricSamplesParts(entry)).toEqual([entry]);
  });

  it('sends definitions ahead in parts without samples, and every sample with the last part', () => {
    const entry = firstPoll(2_500, 1);
    const parts = metricSamplesParts(entry);
    expect(parts.map((part) => part.definitions.length)).toEqual([1_000, 1_000, 500]);
    expect(parts.slice(0, -1).every((part) => part.series.length === 0 && part.bytes.length === 0)).toBe(
      true,
    );
    expect(parts.flatMap((part) => part.definitions)).toEqual(entry.definitions);
    expect(parts.at(-1)).toEqual({ ...entry, definitions: entry.definitions.slice(2_000) });
  });
});

describe('a Recorder recording a poll with many definitions', () => {
  it('posts one part per turn, and the recording holds the poll whole', async () => {
    directory = tempDirectory();
    const file = directory.file('metrics.kubetide');
    const clock = new FakeClock(Date.UTC(2026, 10, 30, 12));
    const posted: RecorderRequest[] = [];
    const turns: (() => void)[] = [];
    const recorder = await Recorder.open({
      file,
      context: 'test',
      clock,
      nextTurn: (work) => void turns.push(work),
      recordingProcess: () => {
        const process = inlineRecordingProcess();
        return {
          ...process,
          post: (request) => {
            posted.push(request);
            process.post(request);
          },
        };
      },
    });
    const timestamp = clock.now() - 5_000;
    recorder.recordMetricSamples(firstPoll(2_500, timestamp));
    const partsPosted = () => posted.filter((request) => request.type === 'metric-samples').length;
    expect(partsPosted()).toBe(1);
    turns.shift()!();
    expect(partsPosted()).toBe(2);
    turns.shift()!();
    expect(partsPosted()).toBe(3);
    expect(turns).toHaveLength(0);
    await recorder.close();

    const reader = openRecording(file);
    try {
      const metrics = metricsAt(reader.database, 'pods', timestamp);
      expect(metrics.keys).toHaveLength(2_500);
      expect(metrics.keys[0]).toBe('default/pod-1');
      expect(metrics.memory[2_499]).toBe(2_500 * 1024);
      const rows = reader.database.prepare('SELECT count(*) AS rows FROM metric_samples').get() as {
        rows: number;
      };
      expect(rows.rows).toBe(1);
    } finally {
      reader.close();
    }
  });

  it('posts the parts still to go before it closes', async () => {
    directory = tempDirectory();
    const file = directory.file('closing.kubetide');
    const clock = new FakeClock(Date.UTC(2026, 10, 30, 12));
    const recorder = await Recorder.open({
      file,
      context: 'test',
      clock,
      nextTurn: () => {},
      recordingProcess: inlineRecordingProcess,
    });
    const timestamp = clock.now() - 5_000;
    recorder.recordMetricSamples(firstPoll(2_500, timestamp));
    await recorder.close();
    const reader = openRecording(file);
    try {
      expect(metricsAt(reader.database, 'pods', timestamp).keys).toHaveLength(2_500);
    } finally {
      reader.close();
    }
  });
});
