// A recording session keeps metrics polled on its own (issue 14): with no renderer showing pods or
// nodes, the ClusterSession polls metrics.k8s.io once discovery lists it, at the API's resolution, and
// the recording holds each scrape once, answered for a past moment by metricsAt.
import { afterEach, describe, expect, it } from 'vitest';
import { metricsPhaseStepMs, metricsStaleRetryMs } from '../../../main/bridge/metrics-poll-phase';
import { ClusterSession } from '../../../main/bridge/cluster-session';
import { EncodedValue } from '../../../main/bridge/encoded-value';
import { messageValue } from '../../../main/bridge/outgoing-message';
import { HistoryQueries } from '../../../main/history/history-queries';
import type { KindSource } from '../../../main/bridge/served-kinds';
import { FakeClock } from '../../../main/cache/fake-clock';
import { metricsAt } from '../../../main/history/metric-sample-reader';
import type { RecordedMetrics } from '../../../shared/protocol/history-messages';
import { MetricsLayouts } from '../../../main/history/metrics-layouts';
import { Recorder } from '../../../main/history/recorder';
import { openRecording } from '../../../main/history/recording-reader';
import { inlineRecordingProcess } from '../../../main/history/recording-process';
import type { MetricsList } from '../../../main/kube/metrics-list';
import { metricsUsageOf } from '../../../main/kube/metrics-usage';
import type { MetricsResource } from '../../../shared/protocol/metrics-messages';
import { tempDirectory } from '../history/fixtures';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Discovery whose metrics.k8s.io appears when `serve()` is called (as after a metrics-server install). */
function discoveryOf(served: boolean): KindSource & { serve(): void } {
  const listeners = new Set<() => void>();
  return {
    preferredResources: () =>
      served
        ? (['pods', 'nodes'] as const).map((resource) => ({
            group: 'metrics.k8s.io',
            version: 'v1beta1',
            resource,
            kind: resource === 'pods' ? 'PodMetrics' : 'NodeMetrics',
            namespaced: resource === 'pods',
            verbs: ['get', 'list'],
            preferred: true,
          }))
        : [],
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    serve: () => {
      served = true;
      for (const listener of listeners) listener();
    },
  };
}

async function setUp() {
  const clock = new FakeClock(Date.UTC(2026, 10, 30, 12));
  const directory = tempDirectory();
  const file = directory.file('metrics.kubetide');
  const recorder = await Recorder.open({
    file,
    context: 'test',
    clock,
    recordingProcess: inlineRecordingProcess,
  });
  const discovery = discoveryOf(false);
  const polls: MetricsResource[] = [];
  /** metrics-server's latest scrape: stamped at the start of the current 15 s window. */
  const scrape = (resource: MetricsResource): MetricsList => {
    const timestamp = new Date(Math.floor(clock.now() / 15_000) * 15_000).toISOString();
    const cpu = `${Math.floor(clock.now() / 15_000) % 100}m`;
    return resource === 'pods'
      ? {
          items: [
            {
              metadata: { namespace: 'default', name: 'web-1' },
              timestamp,
              window: '15s',
              containers: [{ name: 'app', usage: { cpu, memory: '64Mi' } }],
            },
          ],
        }
      : {
          items: [
            { metadata: { name: 'node-1' }, timestamp, window: '15s', usage: { cpu: '1', memory: '1Gi' } },
          ],
        };
  };
  const session = new ClusterSession({
    context: 'test',
    clock,
    discovery,
    newListerWatcher: () => {
      throw new Error('no informer runs in this test');
    },
    recording: { recorder, file, kinds: [] },
    metrics: async (resource) => {
      polls.push(resource);
      return metricsUsageOf(resource, scrape(resource));
    },
  });
  cleanups.push(
    directory.remove,
    () => recorder.close(),
    () => session.close(),
  );
  return { clock, recorder, file, discovery, polls };
}

describe('metric samples recorded by a session', () => {
  it('polls once discovery lists metrics, with no renderer, and records each scrape once', async () => {
    const { clock, file, discovery, polls } = await setUp();
    await clock.stepAsync(60_000);
    expect(polls).toEqual([]);
    discovery.serve();
    await clock.stepAsync(0);
    expect(polls).toEqual(['pods', 'nodes']);
    const first = clock.now();
    // Half a window: no poll. A step before the window's end (MetricsPollPhase seeks when scrapes
    // land): the same scrape, not recorded again; its retry, after the window's end: the next scrape.
    await clock.stepAsync(7_500);
    expect(polls).toHaveLength(2);
    await clock.stepAsync(7_500 - metricsPhaseStepMs);
    expect(polls).toHaveLength(4);
    await clock.stepAsync(metricsStaleRetryMs);
    expect(polls).toHaveLength(6);
    const reader = openRecording(file);
    const at = (time: number, resource: MetricsResource) => {
      const metrics = metricsAt(reader.database, resource, time);
      return Object.fromEntries(metrics.keys.map((key, index) => [key, metrics.cpu[index]]));
    };
    const firstCpu = (Math.floor(first / 15_000) % 100) / 1000;
    expect(at(first, 'pods')).toEqual({ 'default/web-1': firstCpu });
    expect(at(clock.now(), 'pods')).toEqual({ 'default/web-1': firstCpu + 0.001 });
    expect(at(clock.now(), 'nodes')).toEqual({ 'node-1': 1 });
    expect(
      (
        reader.database
          .prepare("SELECT count(*) AS count FROM metric_samples WHERE resource = 'pods'")
          .get() as {
          count: number;
        }
      ).count,
    ).toBe(2);
    // Asked of the query worker as a travel asks it: the worker's JSON bytes, which main passes on
    // unparsed, stand for the same samples with their digests, and a transport that carries values
    // reads them back.
    const queries = new HistoryQueries();
    cleanups.push(() => queries.close());
    const { value: encoded, parts } = await queries.metricsAt(file, 'pods', clock.now());
    expect(encoded).toBeInstanceOf(EncodedValue);
    // A few pods: one message, no parts.
    expect(parts).toEqual([]);
    const recorded = new MetricsLayouts().answer(metricsAt(reader.database, 'pods', clock.now()), {});
    expect(recorded.keysDigest).toBeDefined();
    expect(encoded.decode()).toEqual(recorded);
    expect(messageValue({ type: 'reply', requestId: 3, ok: true, value: encoded })).toEqual({
      type: 'reply',
      requestId: 3,
      ok: true,
      value: recorded,
    });
    // Asked again naming that answer as held (a playback's next question): the same moment is
    // unchanged; the poll before, the same series, comes laid out by the keys held, none sent.
    const held = { keys: recorded.keysDigest, answer: recorded.answerDigest };
    const again = (
      await queries.metricsAt(file, 'pods', clock.now(), held)
    ).value.decode() as RecordedMetrics;
    expect(again).toMatchObject({ keys: [], cpu: [], memory: [], unchanged: true });
    const before = metricsAt(reader.database, 'pods', first);
    expect((await queries.metricsAt(file, 'pods', first, held)).value.decode()).toMatchObject({
      keys: [],
      keysFrom: recorded.keysDigest,
      addedKeys: [],
      cpu: before.cpu,
      memory: before.memory,
    });
    reader.close();
  });
});
