import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../main/cache/fake-clock';
import type { ClusterSession } from '../../../main/bridge/cluster-session';
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
  const session = {
    context: 'test',
    // A live recording's writer; this one was written above.
    recording: {
      file,
      recorder: { flushed: async () => {}, writingBehindMs: () => 0 } as unknown as Recorder,
      kinds: [],
      ...(retention ? { retention } : {}),
    },
    projectorFor: () => new RowProjector(),
  } as unknown as ClusterSession;
  const history = new HistoryService({ session: () => session, send: () => {}, clock });
  cleanups.push(() => history.close());
  return history;
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
