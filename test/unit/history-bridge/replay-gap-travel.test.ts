// A travel from live into the recorder's listing gap, through the real query worker: the recording
// holds only the first pods of its first list there, where the page holds every live pod. The moment
// comes as a fresh snapshot (the page's table replaced by its few rows), never against the live rows
// (which had the page copy every live row only to drop all but the moment's), and the page shows
// exactly the moment, marked as not recorded.
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { BatchStream } from '../../../main/bridge/batch-stream';
import { ReplaySubscription } from '../../../main/bridge/history-replay';
import { messageValue } from '../../../main/bridge/outgoing-message';
import type { OutgoingMessage } from '../../../main/bridge/outgoing-message';
import { RowProjector } from '../../../main/bridge/row-projection';
import { FakeClock } from '../../../main/cache/fake-clock';
import { HistoryQueries } from '../../../main/history/history-queries';
import { RecordingWriter } from '../../../main/history/recording-writer';
import { openForWriting } from '../../../main/history/schema';
import { ManualFrameScheduler } from '../../../renderer/store/frame-scheduler';
import { MirrorStore } from '../../../renderer/store/mirror-store';
import { printerFor } from '../../../shared/kinds/columns';
import type { KubeObject } from '../../../shared/kube/object';
import type { HistoryCursorMessage } from '../../../shared/protocol/history-messages';
import type { DeltaBatch, ServerMessage } from '../../../shared/protocol/server-messages';
import { tempDirectory } from '../history/fixtures';
import { pageLink } from './page-link';

const pods = { group: '', version: 'v1', resource: 'pods' };
const queries = new HistoryQueries();
afterAll(() => queries.close());
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
  vi.restoreAllMocks();
});

const start = Date.UTC(2026, 10, 30, 12);
/** The first list's pods are recorded one every 5 ms: 300 of them by `listed`. */
const listed = start + 1_500;

function pod(index: number, resourceVersion: number): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `p${index}`,
      namespace: 'shop',
      uid: `uid-${index}`,
      resourceVersion: String(resourceVersion),
    },
    status: { phase: 'Running' },
  };
}

/**
 * A recorder's first list inside its listing gap (as it records the cache whole after synced): 300
 * pods, one every 5 ms, the gap closed once the last is in; then 0.5 s of updates.
 */
function recordListing(): { file: string; end: number } {
  const directory = tempDirectory();
  cleanups.push(directory.remove);
  const file = directory.file('listing.kubetide');
  const database = openForWriting(file, 'test', start);
  const writer = new RecordingWriter(database);
  const stream = writer.stream({ gvr: 'pods.v1', scope: '' });
  const write = (time: number, object: KubeObject, type: 'Replaced' | 'Updated') =>
    writer.writeChange({
      time,
      stream,
      type,
      finalStateUnknown: false,
      object,
      key: `shop/${object.metadata.name}`,
    });
  let end = start;
  writer.transaction(() => {
    writer.resetStream(stream);
    writer.writeKeyframe(stream, start);
    const gap = writer.writeMark({
      kind: 'gap',
      reason: 'listing',
      stream,
      start,
      end: undefined,
      detail: 'waiting for the first list',
    });
    for (let index = 0; index < 300; index++) write(start + index * 5, pod(index, index + 1), 'Replaced');
    writer.closeMark(gap, listed);
    for (let time = listed + 10; time <= listed + 500; time += 10) {
      write(time, pod((time / 10) % 300, time), 'Updated');
      end = time;
    }
    writer.touch(end);
  });
  database.close();
  return { file, end };
}

/**
 * A page on a fake clock whose live subscription "s1" holds every pod as the recording's newest moment
 * does; `replayOn` opens a replay of its own, `sent` collects what the replay `travel` sends.
 */
async function livePage(file: string, end: number) {
  const clock = new FakeClock(end + 1_000);
  const link: OutgoingMessage[] = [];
  const streams = new Map<string, { acknowledge(seq: number): void }>();
  const store = new MirrorStore({
    scheduler: new ManualFrameScheduler(),
    onApplied: (id, seq) => streams.get(id)?.acknowledge(seq),
  });
  const { deliver, settle } = pageLink(clock, store, link);
  const sent: ServerMessage[] = [];
  const replayOn = (id: string) => {
    const replay = new ReplaySubscription({
      subscriptionId: id,
      gvr: pods,
      namespace: '',
      projector: new RowProjector(printerFor(pods)),
      clock,
      send: (message) => {
        if (id === 'travel') sent.push(messageValue(message));
        link.push(message);
      },
      batch: { maxBatchRows: 40 },
    });
    cleanups.push(() => replay.close());
    streams.set(id, replay);
    store.open(id, 0, { wholeSnapshots: true });
    return replay;
  };
  await settle(replayOn('present').showState(queries, file, end));
  const live = new BatchStream({ subscriptionId: 's1', clock, send: (message) => link.push(message) });
  streams.set('s1', live);
  store.open('s1');
  live.snapshot([...store.mirror('present')!.rows.values()]);
  deliver();
  const base = { subscriptionId: 's1', rows: () => live.baseRows() };
  const batches = () => sent.filter((message): message is DeltaBatch => message.type === 'batch');
  const count = (field: 'upserts' | 'deletes') =>
    batches().reduce((total, batch) => total + batch[field].length, 0);
  return { store, settle, live, base, replayOn, sent, batches, count };
}

describe('a travel from live into the listing gap', () => {
  it('comes as a fresh snapshot of the moment, not against the live rows, marked as not recorded', async () => {
    const { file, end } = recordListing();
    const { store, settle, base, replayOn, sent, batches, count } = await livePage(file, end);
    expect(store.mirror('s1')!.rows.size).toBe(300);
    // 30 pods into the list, whole.
    const moment = start + 148;
    await settle(replayOn('whole').showState(queries, file, moment));
    const expected = new Map(store.mirror('whole')!.rows);
    expect(expected.size).toBe(30);

    // The same moment from live: the worker is not asked against the live rows.
    const asked = vi.spyOn(queries, 'stateRows');
    const replied = replayOn('travel').showState(queries, file, moment, base);
    await settle(replied);

    expect(new Map(store.mirror('travel')!.rows)).toEqual(expected);
    expect(asked.mock.calls[0][6]).toBeUndefined();
    expect(batches()[0].replace).toBe(true);
    expect(batches().every((batch) => batch.base === undefined)).toBe(true);
    // Nothing deleted: the replaced table holds the moment's rows only.
    expect(count('deletes')).toBe(0);
    expect(count('upserts')).toBe(30);
    expect(await replied).toMatchObject({
      time: moment,
      count: 30,
      gap: { reason: 'listing', start, end: listed },
    });
    const cursor = sent.filter((message) => message.type === 'historyCursor').at(-1) as HistoryCursorMessage;
    expect(cursor).toMatchObject({ rebuilt: 30, total: 30, gap: { reason: 'listing' } });
  });

  it('still goes against the live rows once the moment holds about as many as they do', async () => {
    const { file, end } = recordListing();
    const { store, settle, live, base, replayOn, batches, count } = await livePage(file, end);
    // 200 pods into the list: two thirds of the live rows.
    await settle(replayOn('travel').showState(queries, file, start + 998, base));

    expect(store.mirror('travel')!.rows.size).toBe(200);
    expect(batches()[0].base).toEqual({ subscriptionId: 's1', seq: live.lastSeq });
    expect(count('deletes')).toBe(100);
  });
});
