// Metric samples kept in history (issue 14): each poll numbered into series on the polling thread,
// written by the recording process only when newer than the last written, read back as a moment's
// usage (within two windows) and a workload's usage over time, older recordings still read,
// retention dropping samples with their time range, and exports carrying their range.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeMetricSamples, encodeMetricSamples } from '../../../main/history/metric-sample-codec';
import type { EncodedSample } from '../../../main/history/metric-sample-codec';
import { MetricSampleCapture } from '../../../main/history/metric-sample-capture';
import { exportRecording } from '../../../main/history/export-recording';
import { copyMetricSamples } from '../../../main/history/metric-sample-export';
import { metricsAt, usageOver } from '../../../main/history/metric-sample-reader';
import { MetricSampleWriter, seriesLastTimeLagMs } from '../../../main/history/metric-sample-store';
import type { MetricSamplesEntry, RecordingReply } from '../../../main/history/recording-protocol';
import { RecordingServer } from '../../../main/history/recording-server';
import { openRecording } from '../../../main/history/recording-reader';
import { RecordingWriter } from '../../../main/history/recording-writer';
import { enforceRetention } from '../../../main/history/retention';
import { createSchema, openForWriting, readMeta, recordingFormatVersion } from '../../../main/history/schema';
import type { MetricsList } from '../../../main/kube/metrics-list';
import { metricsUsageOf } from '../../../main/kube/metrics-usage';
import type { KubeObject } from '../../../shared/kube/object';
import type { TempDirectory } from './fixtures';
import { realisticPod, tempDirectory } from './fixtures';

let directory: TempDirectory | undefined;
afterEach(() => directory?.remove());

const window = '15s';
const start = Date.parse('2026-01-01T00:00:00Z');

/** A PodMetrics item as metrics-server lists it: per container usage, cpu in nanocores, memory in Ki. */
function podMetrics(
  namespace: string,
  name: string,
  at: number,
  containers: Record<string, [millicores: number, mebibytes: number]>,
): NonNullable<MetricsList['items']>[number] {
  return {
    metadata: { namespace, name },
    timestamp: new Date(at).toISOString(),
    window,
    containers: Object.entries(containers).map(([container, [millicores, mebibytes]]) => ({
      name: container,
      usage: { cpu: `${millicores * 1_000_000}n`, memory: `${mebibytes * 1024}Ki` },
    })),
  };
}

/** A recording process serving requests on this thread, and the recording it writes. */
function recordingServer(file: string): { server: RecordingServer; replies: RecordingReply[] } {
  const replies: RecordingReply[] = [];
  const server = new RecordingServer((reply) => replies.push(reply));
  server.handle({ type: 'open', settings: { file, context: 'test-context' }, now: start });
  return { server, replies };
}

/** Captures polls into `server` as a ClusterSession does, with `pods` as the informer cache. */
/** Captures lists as a test writes them, read into columns as listMetrics reads a reply. */
function captureLists(
  capture: MetricSampleCapture,
  resource: 'pods' | 'nodes',
  lists: readonly MetricsList[],
  polledAt: number,
): Promise<void> {
  return capture.capture(
    resource,
    lists.map((list) => metricsUsageOf(resource, list)),
    polledAt,
  );
}

function captureInto(server: RecordingServer, pods: readonly KubeObject[], replicaSets: KubeObject[] = []) {
  const capture = new MetricSampleCapture({
    record: (samples) => server.handle({ type: 'metric-samples', samples, now: start }),
    cachedObject: (resource, namespace, name) =>
      (resource === 'pods' ? pods : replicaSets).find(
        (object) => object.metadata.namespace === namespace && object.metadata.name === name,
      ),
  });
  return capture;
}

function rowCount(file: string, table: string): number {
  const database = new Database(file, { readonly: true });
  try {
    return (database.prepare(`SELECT count(*) AS count FROM ${table}`).get() as { count: number }).count;
  } finally {
    database.close();
  }
}

describe('metric sample payloads', () => {
  it('round-trip every field, ids in order, byte counts past 2^31 included', async () => {
    const samples: EncodedSample[] = [
      { series: 9, timestamp: start - 2000, windowMs: 15_000, millicores: 250, bytes: 6 * 2 ** 30 },
      { series: 2, timestamp: start, windowMs: 15_000, millicores: 0, bytes: 123_456_789 },
    ];
    const { time, payload } = encodeMetricSamples(samples);
    expect(time).toBe(start);
    const decoded: EncodedSample[] = [];
    decodeMetricSamples(time, payload, (sample) => decoded.push(sample));
    expect(decoded).toEqual([samples[1], samples[0]]);
  });
});

describe('MetricSampleCapture', () => {
  it('defines each container series once, with the pod uid and its Deployment, then names it by number', async () => {
    const pod = realisticPod('web-1');
    const entries: MetricSamplesEntry[] = [];
    const capture = new MetricSampleCapture({
      record: (samples) => entries.push(samples),
      cachedObject: (resource, namespace, name) =>
        resource === 'pods' && name === 'web-1' ? pod : undefined,
    });
    const poll = (at: number) => ({
      items: [podMetrics('default', 'web-1', at, { app: [120, 64], proxy: [5, 16] })],
    });
    await captureLists(capture, 'pods', [poll(start)], start);
    await captureLists(capture, 'pods', [poll(start + 15_000)], start + 15_000);
    expect(entries[0]!.definitions).toEqual([
      {
        series: 1,
        namespace: 'default',
        name: 'web-1',
        uid: pod.metadata.uid,
        container: 'app',
        workload: 'Deployment/web',
      },
      {
        series: 2,
        namespace: 'default',
        name: 'web-1',
        uid: pod.metadata.uid,
        container: 'proxy',
        workload: 'Deployment/web',
      },
    ]);
    expect(Array.from(entries[0]!.series)).toEqual([1, 2]);
    expect(Array.from(entries[0]!.millicores)).toEqual([120, 5]);
    expect(Array.from(entries[0]!.bytes)).toEqual([64 * 2 ** 20, 16 * 2 ** 20]);
    expect(entries[1]!.definitions).toEqual([]);
    expect(Array.from(entries[1]!.series)).toEqual([1, 2]);
    expect(Array.from(entries[1]!.timestamps)).toEqual([start + 15_000, start + 15_000]);
  });

  it('names the workload from the cached ReplicaSet, and defines a series again once its pod is cached', async () => {
    const pod = realisticPod('api-1');
    const replicaSet: KubeObject = {
      metadata: {
        name: 'api-7d9f8c6b5',
        namespace: 'default',
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api-server', uid: 'd', controller: true },
        ],
      },
    };
    const cached: KubeObject[] = [];
    const entries: MetricSamplesEntry[] = [];
    const capture = new MetricSampleCapture({
      record: (samples) => entries.push(samples),
      cachedObject: (resource, namespace, name) =>
        (resource === 'pods' ? cached : [replicaSet]).find((object) => object.metadata.name === name),
    });
    const poll = (at: number) => [{ items: [podMetrics('default', 'api-1', at, { app: [10, 10] })] }];
    await captureLists(capture, 'pods', poll(start), start);
    cached.push(pod);
    await captureLists(capture, 'pods', poll(start + 15_000), start + 15_000);
    await captureLists(capture, 'pods', poll(start + 30_000), start + 30_000);
    expect(entries.map((entry) => entry.definitions.map(({ uid, workload }) => [uid, workload]))).toEqual([
      [['', '']],
      [[pod.metadata.uid, 'Deployment/api-server']],
      [],
    ]);
    expect(entries.map((entry) => Array.from(entry.series))).toEqual([[1], [2], [2]]);
  });

  it('reports a poll it cannot record, and defines its series again in the next', async () => {
    const reported: string[] = [];
    const recorded: MetricSamplesEntry[] = [];
    const capture = new MetricSampleCapture({
      record: (samples) => {
        if (recorded.push(samples) === 1) throw new Error('the recording process is gone');
      },
      cachedObject: () => undefined,
      reportError: (context) => reported.push(context),
    });
    const poll = (at: number) => [{ items: [podMetrics('default', 'web-1', at, { app: [1, 1] })] }];
    await captureLists(capture, 'pods', poll(start), start);
    await captureLists(capture, 'pods', poll(start + 15_000), start + 15_000);
    expect(reported).toEqual(['recording pods metric samples:']);
    // The lost poll's definition never reached the recording: the next poll must not name series 1
    // without defining a series for it.
    expect(recorded.map((entry) => entry.definitions.map((definition) => definition.series))).toEqual([
      [1],
      [2],
    ]);
    expect(recorded.map((entry) => Array.from(entry.series))).toEqual([[1], [2]]);
  });
});

describe('metric_samples in a recording', () => {
  it('gives a new series the id its insert made, and one an earlier session wrote the id it has', () => {
    const database = new Database(':memory:');
    createSchema(database);
    const entry = (series: number, container: string): MetricSamplesEntry => ({
      resource: 'pods',
      definitions: [{ series, namespace: 'shop', name: 'web-1', uid: 'uid-web-1', container, workload: '' }],
      series: [series],
      timestamps: [start + series],
      windowsMs: [15_000],
      millicores: [5],
      bytes: [1024],
    });
    const seriesIds = () =>
      database.prepare('SELECT id, container FROM metric_series ORDER BY id').all() as {
        id: number;
        container: string;
      }[];
    const first = new MetricSampleWriter(database);
    first.write(entry(1, 'app'));
    first.write(entry(2, 'sidecar'));
    expect(seriesIds()).toEqual([
      { id: 1, container: 'app' },
      { id: 2, container: 'sidecar' },
    ]);
    // A later session numbers its series afresh: the file's series keep their ids, and samples name them.
    const later = new MetricSampleWriter(database);
    later.write(entry(7, 'sidecar'));
    expect(seriesIds()).toHaveLength(2);
    const last = database.prepare('SELECT time, payload FROM metric_samples ORDER BY id DESC').get() as {
      time: number;
      payload: Buffer;
    };
    const named: number[] = [];
    decodeMetricSamples(last.time, last.payload, (sample) => named.push(sample.series));
    expect(named).toEqual([2]);
  });

  it('writes one row per poll with newer samples: a re-poll of the same scrape writes nothing', async () => {
    directory = tempDirectory();
    const file = directory.file('samples.kubetide');
    const { server, replies } = recordingServer(file);
    const capture = captureInto(server, [realisticPod('web-1')]);
    const poll = (at: number) => [{ items: [podMetrics('default', 'web-1', at, { app: [100, 50] })] }];
    await captureLists(capture, 'pods', poll(start), start);
    await captureLists(capture, 'pods', poll(start), start + 5_000);
    await captureLists(capture, 'pods', poll(start + 15_000), start + 15_000);
    server.handle({ type: 'close', now: start + 20_000 });
    expect(replies.filter((reply) => reply.type === 'error')).toEqual([]);
    expect(rowCount(file, 'metric_samples')).toBe(2);
    expect(rowCount(file, 'metric_series')).toBe(1);
  });

  it('answers a moment with each object’s latest sample at or before it, within two windows', async () => {
    directory = tempDirectory();
    const file = directory.file('moment.kubetide');
    const { server } = recordingServer(file);
    const capture = captureInto(server, [realisticPod('web-1'), realisticPod('web-2')]);
    await captureLists(
      capture,
      'pods',
      [
        {
          items: [
            podMetrics('default', 'web-1', start, { app: [100, 50], proxy: [20, 10] }),
            podMetrics('default', 'web-2', start, { app: [7, 8] }),
          ],
        },
      ],
      start,
    );
    await captureLists(
      capture,
      'pods',
      [{ items: [podMetrics('default', 'web-1', start + 15_000, { app: [300, 60], proxy: [20, 10] })] }],
      start + 15_000,
    );
    server.handle({ type: 'close', now: start + 20_000 });
    const reader = openRecording(file);
    const at = (time: number) => {
      const metrics = metricsAt(reader.database, 'pods', time);
      return Object.fromEntries(
        metrics.keys.map((key, index) => [key, [metrics.cpu[index], metrics.memory[index]! / 2 ** 20]]),
      );
    };
    expect(at(start - 1)).toEqual({});
    expect(at(start + 14_999)).toEqual({ 'default/web-1': [0.12, 60], 'default/web-2': [0.007, 8] });
    // web-2 was not sampled again: its last sample still stands for two windows, then it has none.
    expect(at(start + 29_999)).toEqual({ 'default/web-1': [0.32, 70], 'default/web-2': [0.007, 8] });
    expect(at(start + 30_001)).toEqual({ 'default/web-1': [0.32, 70] });
    expect(at(start + 45_001)).toEqual({});
    expect(metricsAt(reader.database, 'nodes', start + 15_000).keys).toEqual([]);
    reader.close();
  });

  it('sums a Deployment’s pods per poll, leaving out other workloads, and spreads points over a long recording', async () => {
    directory = tempDirectory();
    const file = directory.file('usage.kubetide');
    const { server } = recordingServer(file);
    const pods = [realisticPod('web-1'), realisticPod('web-2'), realisticPod('db-1')];
    // web-2 is not in the informer's cache for the first poll: its first sample has no workload yet.
    const cached = [pods[0]!, pods[2]!];
    const capture = captureInto(server, cached);
    for (let poll = 0; poll < 10; poll++) {
      const at = start + poll * 15_000;
      if (poll === 1) cached.push(pods[1]!);
      await captureLists(
        capture,
        'pods',
        [
          {
            items: pods.map((pod, index) =>
              podMetrics('default', pod.metadata.name!, at, { app: [poll + index * 100, 10] }),
            ),
          },
        ],
        at,
      );
    }
    server.handle({ type: 'close', now: start + 200_000 });
    const reader = openRecording(file);
    const subject = { kind: 'Deployment', namespace: 'default', name: 'web' } as const;
    const all = usageOver(reader.database, subject, 100).points;
    expect(all).toHaveLength(10);
    expect(all[0]).toMatchObject({ cpu: (0 + 100) / 1000, objects: 2 });
    expect(all[3]).toEqual({ time: start + 45_000, cpu: (3 + 103) / 1000, memory: 20 * 2 ** 20, objects: 2 });
    expect(usageOver(reader.database, subject, 4).points.map((point) => point.time)).toEqual(
      [0, 3, 6, 9].map((poll) => start + poll * 15_000),
    );
    expect(
      usageOver(reader.database, { kind: 'Pod', namespace: 'default', name: 'db-1' }, 100).points[0],
    ).toMatchObject({ cpu: 0.2, objects: 1 });
    expect(
      usageOver(reader.database, { kind: 'StatefulSet', namespace: 'default', name: 'web' }, 100).points,
    ).toEqual([]);
    reader.close();
  });

  it('reads a format 3 recording as one without samples, and adds the tables when writing it', async () => {
    directory = tempDirectory();
    const file = directory.file('old.kubetide');
    const database = openForWriting(file, 'test-context');
    database.exec('DROP TABLE metric_samples; DROP TABLE metric_series');
    database.prepare("UPDATE meta SET value = '3' WHERE key = 'formatVersion'").run();
    database.close();
    const reader = openRecording(file);
    expect(reader.problems).toEqual([]);
    expect(metricsAt(reader.database, 'pods', start)).toEqual({ keys: [], cpu: [], memory: [] });
    expect(usageOver(reader.database, { kind: 'Node', namespace: '', name: 'node-1' }, 10)).toEqual({
      points: [],
    });
    reader.close();
    const upgraded = openForWriting(file, 'test-context');
    expect(readMeta(upgraded, 'formatVersion')).toBe(String(recordingFormatVersion));
    expect(recordingFormatVersion).toBeGreaterThanOrEqual(4);
    upgraded.close();
    expect(rowCount(file, 'metric_samples')).toBe(0);
  });

  it('answers a moment with the series recorded since the reader last answered one', async () => {
    directory = tempDirectory();
    const file = directory.file('growing.kubetide');
    const { server } = recordingServer(file);
    const pods = [realisticPod('web-1'), realisticPod('web-2')];
    const capture = captureInto(server, pods);
    await captureLists(
      capture,
      'pods',
      [{ items: [podMetrics('default', 'web-1', start, { app: [1, 1] })] }],
      start,
    );
    const reader = openRecording(file);
    expect(metricsAt(reader.database, 'pods', start).keys).toEqual(['default/web-1']);
    // web-2's series is written after the reader has answered, by the recording still being written.
    const later = start + 15_000;
    await captureLists(
      capture,
      'pods',
      [{ items: ['web-1', 'web-2'].map((name) => podMetrics('default', name, later, { app: [2, 2] })) }],
      later,
    );
    expect(metricsAt(reader.database, 'pods', later).keys).toEqual(['default/web-1', 'default/web-2']);
    server.handle({ type: 'close', now: later });
    reader.close();
  });

  it('retention deletes samples before the new start, and the series sampled no more', async () => {
    directory = tempDirectory();
    const file = directory.file('retention.kubetide');
    const { server } = recordingServer(file);
    const pods = [realisticPod('web-1'), realisticPod('gone-1')];
    const capture = captureInto(server, pods);
    const late = start + 2 * seriesLastTimeLagMs;
    await captureLists(
      capture,
      'pods',
      [{ items: pods.map((pod) => podMetrics('default', pod.metadata.name!, start, { app: [1, 1] })) }],
      start,
    );
    await captureLists(
      capture,
      'pods',
      [{ items: [podMetrics('default', 'web-1', late, { app: [2, 2] })] }],
      late,
    );
    server.handle({ type: 'close', now: late });
    const database = openForWriting(file, 'test-context');
    const writer = new RecordingWriter(database);
    // Retention moves the start past changes: one at the first poll gives it one to move past.
    const stream = writer.stream({ gvr: 'pods.v1', scope: '' });
    writer.writeKeyframe(stream, start);
    const [pod] = pods;
    writer.writeChange({
      time: start,
      stream,
      type: 'Added',
      finalStateUnknown: false,
      object: pod,
      key: 'default/web-1',
    });
    expect(enforceRetention(writer, { maxAgeMs: 1000 }, late + 500)).toBe(late - 500);
    expect(metricsAt(database, 'pods', late).keys).toEqual(['default/web-1']);
    database.close();
    expect(rowCount(file, 'metric_samples')).toBe(1);
    expect(rowCount(file, 'metric_series')).toBe(1);
  });

  it('copies an export’s range, only its namespaces’ pods, with the series they name', async () => {
    directory = tempDirectory();
    const file = directory.file('source.kubetide');
    const { server } = recordingServer(file);
    const pods = [realisticPod('web-1'), realisticPod('dns-1', 'kube-system')];
    const capture = captureInto(server, pods);
    for (const at of [start, start + 15_000, start + 30_000])
      await captureLists(
        capture,
        'pods',
        [
          {
            items: pods.map((pod) =>
              podMetrics(pod.metadata.namespace!, pod.metadata.name!, at, { app: [5, 5] }),
            ),
          },
        ],
        at,
      );
    server.handle({ type: 'close', now: start + 40_000 });
    const source = openRecording(file);
    const destination = new Database(directory.file('export.kubetide'));
    createSchema(destination);
    const copied = copyMetricSamples(source.database, destination, {
      from: start,
      to: start + 30_000,
      namespaces: ['default'],
      resources: ['pods'],
    });
    source.close();
    expect(copied).toBe(2);
    expect(metricsAt(destination, 'pods', start + 30_000).keys).toEqual(['default/web-1']);
    expect(destination.prepare('SELECT count(*) AS count FROM metric_series').get()).toEqual({ count: 1 });
    destination.close();
  });

  it('are carried by exportRecording: a pods-only export has its range’s pod samples, no node samples', async () => {
    directory = tempDirectory();
    const file = directory.file('source.kubetide');
    const { server } = recordingServer(file);
    const pods = [realisticPod('web-1')];
    const capture = captureInto(server, pods);
    for (const at of [start, start + 15_000, start + 30_000])
      await captureLists(
        capture,
        'pods',
        [{ items: [podMetrics('default', 'web-1', at, { app: [7, 5] })] }],
        at,
      );
    server.handle({ type: 'close', now: start + 40_000 });
    const source = openRecording(file);
    const exported = directory.file('export.kubetide');
    exportRecording(source, exported, { from: start + 10_000, to: start + 40_000, gvrs: ['pods.v1'] });
    source.close();
    const database = new Database(exported, { readonly: true });
    expect(metricsAt(database, 'pods', start + 30_000).keys).toEqual(['default/web-1']);
    expect(rowCount(exported, 'metric_samples')).toBe(2);
    database.close();
  });
});
