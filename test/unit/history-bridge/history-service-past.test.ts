import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../main/cache/fake-clock';
import type { ClusterSession } from '../../../main/bridge/cluster-session';
import type { EncodedValue } from '../../../main/bridge/encoded-value';
import type { OutgoingMessage } from '../../../main/bridge/outgoing-message';
import { MetricSampleWriter } from '../../../main/history/metric-sample-store';
import { joinReplyValue } from '../../../shared/protocol/reply-parts';
import type { RecordedMetrics } from '../../../shared/protocol/history-messages';
import { HistoryService } from '../../../main/bridge/history-service';
import { RowProjector } from '../../../main/bridge/row-projection';
import type { Recorder } from '../../../main/history/recorder';
import type { RetentionPolicy } from '../../../main/history/retention';
import { RecordingWriter } from '../../../main/history/recording-writer';
import { openForWriting } from '../../../main/history/schema';
import type { KubeObject } from '../../../shared/kube/object';
import type { HistoryTimeline } from '../../../shared/protocol';
import { tempDirectory } from '../history/fixtures';

const start = Date.UTC(2026, 10, 30, 12);
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function event(
  name: string,
  involved: { kind: string; name: string; uid: string },
  reason: string,
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: 'shop', uid: `uid-${name}`, resourceVersion: '1' },
    involvedObject: { ...involved, namespace: 'shop' },
    reason,
  } as KubeObject;
}

const web = { kind: 'Pod', name: 'web-1', uid: 'uid-web-1' };

/** A session whose live recording is `file` (its writer stands in: the file was written by the test). */
function liveSession(file: string, retention?: RetentionPolicy): ClusterSession {
  return {
    context: 'test',
    recording: {
      file,
      recorder: { flushed: async () => {}, writingBehindMs: () => 0 } as unknown as Recorder,
      kinds: [],
      ...(retention ? { retention } : {}),
    },
    projectorFor: () => new RowProjector(),
  } as unknown as ClusterSession;
}

/** A live recording's service: events about web-1 at +1 s and +5 s, the second deleted at +9 s. */
function service(retention?: RetentionPolicy): HistoryService {
  const directory = tempDirectory();
  cleanups.push(directory.remove);
  const file = directory.file('live.kubetide');
  const database = openForWriting(file, 'test', start);
  const writer = new RecordingWriter(database);
  const stream = writer.stream({ gvr: 'events.v1', scope: '' });
  const write = (time: number, type: 'Added' | 'Deleted', object: KubeObject) =>
    writer.writeChange({
      time,
      stream,
      type,
      finalStateUnknown: false,
      object,
      key: `shop/${object.metadata.name}`,
    });
  writer.transaction(() => {
    write(start + 1_000, 'Added', event('e1', web, 'Scheduled'));
    write(start + 2_000, 'Added', event('e2', { kind: 'Pod', name: 'db-0', uid: 'uid-db-0' }, 'Pulled'));
    write(start + 5_000, 'Added', event('e3', web, 'BackOff'));
    write(start + 9_000, 'Deleted', event('e3', web, 'BackOff'));
    writer.touch(start + 10_000);
  });
  database.close();
  const clock = new FakeClock(start + 20_000);
  const session = liveSession(file, retention);
  const history = new HistoryService({ session: () => session, send: () => {}, clock });
  cleanups.push(() => history.close());
  return history;
}

/** A recording holding one poll of `pods` pods' samples at start + 1 s, and its service's sent messages. */
function metricsService(pods: number): {
  history: HistoryService;
  sent: OutgoingMessage[];
  clock: FakeClock;
  buffered: { bytes: number };
} {
  const directory = tempDirectory();
  cleanups.push(directory.remove);
  const file = directory.file('metrics.kubetide');
  const database = openForWriting(file, 'test', start);
  const writer = new RecordingWriter(database);
  const series = Array.from({ length: pods }, (_, index) => index + 1);
  new MetricSampleWriter(database).write({
    resource: 'pods',
    definitions: series.map((id) => ({
      series: id,
      namespace: 'shop',
      name: `web-${id}`,
      uid: `uid-web-${id}`,
      container: 'app',
      workload: '',
    })),
    series,
    timestamps: series.map(() => start + 1_000),
    windowsMs: series.map(() => 15_000),
    millicores: series.map((id) => id % 1_000),
    bytes: series.map((id) => id * 1024),
  });
  writer.transaction(() => writer.touch(start + 10_000));
  database.close();
  const sent: OutgoingMessage[] = [];
  const session = liveSession(file);
  const clock = new FakeClock(start + 20_000);
  const buffered = { bytes: 0 };
  const history = new HistoryService({
    session: () => session,
    send: (message) => sent.push(message),
    bufferedBytes: () => buffered.bytes,
    clock,
  });
  cleanups.push(() => history.close());
  return { history, sent, clock, buffered };
}

describe('history answers about the viewed moment', () => {
  it('lists the Events about an object as the recording held them at the moment, not today', async () => {
    const history = service();
    const reasonsAt = async (time: number) =>
      (
        (await history.serve({
          type: 'historyEvents',
          requestId: 1,
          involvedObject: { ...web, namespace: 'shop' },
          time,
        })) as (KubeObject & { reason: string })[]
      ).map((found) => found.reason);
    expect(await reasonsAt(start + 500)).toEqual([]);
    expect(await reasonsAt(start + 3_000)).toEqual(['Scheduled']);
    expect(await reasonsAt(start + 6_000)).toEqual(['Scheduled', 'BackOff']);
    expect(await reasonsAt(start + 9_500)).toEqual(['Scheduled']);
  });

  it('counts what each recorded kind held at the moment, leaving out kinds not recorded by then', async () => {
    const history = service();
    const countsAt = (time: number) => history.serve({ type: 'historyCounts', requestId: 1, time });
    expect(await countsAt(start + 500)).toEqual({});
    expect(await countsAt(start + 3_000)).toEqual({ 'events.v1': 2 });
    expect(await countsAt(start + 6_000)).toEqual({ 'events.v1': 3 });
    expect(await countsAt(start + 9_500)).toEqual({ 'events.v1': 2 });
  });

  it('answers a metrics question withdrawn before its answer with an error, not the answer', async () => {
    const history = service();
    const question = (requestId: number) =>
      history.serve({
        type: 'historyMetrics',
        requestId,
        resource: 'pods',
        time: start + 3_000,
      }) as Promise<unknown>;
    const withdrawn = question(5);
    const kept = question(6);
    expect(history.serve({ type: 'historyWithdraw', requestId: 7, withdrawnRequestId: 5 })).toBe(true);
    await expect(withdrawn).rejects.toThrow(/withdrawn/);
    // The other question is answered (its bytes as the worker wrote them; nothing was recorded).
    expect(((await kept) as EncodedValue).decode()).toMatchObject({ keys: [] });
    // Answered or unknown: nothing to withdraw.
    expect(history.serve({ type: 'historyWithdraw', requestId: 8, withdrawnRequestId: 6 })).toBe(false);
    expect(history.serve({ type: 'historyWithdraw', requestId: 9, withdrawnRequestId: 99 })).toBe(false);
  });

  it("sends a big cluster's metrics as parts ahead of the reply, which the renderer joins into the answer", async () => {
    const { history, sent, clock, buffered } = metricsService(25_000);
    const parts = () => sent.filter((message) => message.type === 'replyPart');
    // The connection holds a part's worth and more unsent (a playback's rows): no part goes yet.
    buffered.bytes = 2 * 1024 * 1024;
    let reply: EncodedValue | undefined;
    void (
      history.serve({
        type: 'historyMetrics',
        requestId: 3,
        resource: 'pods',
        time: start + 5_000,
      }) as Promise<EncodedValue>
    ).then((value) => (reply = value));
    // The query worker answers in its own time; main's waits between parts are on the clock.
    const worker = () => new Promise((resolve) => setTimeout(resolve, 5));
    for (let step = 0; step < 400 && !clock.hasWaiters(); step++) await worker();
    for (let step = 0; step < 20; step++) await clock.stepAsync(5);
    expect(parts()).toEqual([]);
    buffered.bytes = 0;
    for (let step = 0; step < 20 && reply === undefined; step++) await clock.stepAsync(5);
    expect(reply).toBeDefined();
    // Parts of 10,000 keys: the page parses each in a few ms, and other messages go between them.
    expect(parts().map((part) => [part.requestId, part.index])).toEqual([
      [3, 0],
      [3, 1],
      [3, 2],
    ]);
    const values = parts().map((part) => (part.value as EncodedValue).decode() as { keys: string[] });
    expect(values.map((value) => value.keys.length)).toEqual([10_000, 10_000, 5_000]);
    const answer = joinReplyValue(reply!.decode(), values) as RecordedMetrics;
    expect(answer.keys).toHaveLength(25_000);
    expect(new Set(answer.keys).size).toBe(25_000);
    const at = answer.keys.indexOf('shop/web-1234');
    expect([answer.cpu[at], answer.memory[at]]).toEqual([0.234, 1234 * 1024]);
    expect(answer.keysDigest).toMatch(/^[0-9a-f]{40}$/);
  });

  it("carries the live recording's retention in the timeline, so the UI can say what bounds it", async () => {
    const policy = { maxAgeMs: 7 * 24 * 3_600_000, maxBytes: 2 * 1024 ** 3 };
    const timeline = (await service(policy).serve({
      type: 'historyTimeline',
      requestId: 1,
      buckets: 10,
    })) as HistoryTimeline;
    expect(timeline.retention).toEqual(policy);
    expect(timeline.range?.end).toBe(start + 10_000);
    const unbounded = (await service().serve({
      type: 'historyTimeline',
      requestId: 1,
      buckets: 10,
    })) as HistoryTimeline;
    expect(unbounded.retention).toBeUndefined();
  });
});
