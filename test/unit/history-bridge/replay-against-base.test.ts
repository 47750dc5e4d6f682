// A travel from live through the real query worker: the moment's rows come as the worker's JSON text,
// and main sends only those whose uid or resourceVersion differ from the live rows the renderer holds
// (DeltaBatch.base). The renderer must end with exactly the rows a whole snapshot of the moment gives.
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { BatchStream } from '../../../main/bridge/batch-stream';
import { ReplaySubscription } from '../../../main/bridge/history-replay';
import { messageValue } from '../../../main/bridge/outgoing-message';
import type { OutgoingMessage } from '../../../main/bridge/outgoing-message';
import { RowProjector } from '../../../main/bridge/row-projection';
import { FakeClock } from '../../../main/cache/fake-clock';
import { HistoryQueries } from '../../../main/history/history-queries';
import type { LiveJournal } from '../../../main/history/query-protocol';
import { ManualFrameScheduler } from '../../../renderer/store/frame-scheduler';
import { MirrorStore } from '../../../renderer/store/mirror-store';
import { printerFor } from '../../../shared/kinds/columns';
import type { DeltaBatch, ServerMessage } from '../../../shared/protocol/server-messages';
import type { HistoryCursorMessage } from '../../../shared/protocol/history-messages';
import { pageLink } from './page-link';
import { recordReplay, recordingStart } from './replay-recording';

const pods = { group: '', version: 'v1', resource: 'pods' };
const queries = new HistoryQueries();
afterAll(() => queries.close());
const start = recordingStart;
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function replayOn(
  subscriptionId: string,
  clock: FakeClock,
  send: (message: OutgoingMessage) => void,
): ReplaySubscription {
  const replay = new ReplaySubscription({
    subscriptionId,
    gvr: pods,
    namespace: '',
    projector: new RowProjector(printerFor(pods)),
    clock,
    send,
    batch: { maxBatchRows: 40 },
  });
  cleanups.push(() => replay.close());
  return replay;
}

/**
 * A page's mirror store on a fake clock, fed by what main's streams send: `deliver` applies it
 * (acknowledging each batch), `settle` waits out a reply while the clock steps, and `show` travels
 * a replay of its own to a moment of `file` and returns the rows the page then holds.
 */
function pageOnClock(clock: FakeClock, file: string) {
  const link: OutgoingMessage[] = [];
  const streams = new Map<string, { acknowledge(seq: number): void }>();
  const store = new MirrorStore({
    scheduler: new ManualFrameScheduler(),
    onApplied: (id, seq) => streams.get(id)?.acknowledge(seq),
  });
  const { deliver, settle } = pageLink(clock, store, link);
  const show = async (id: string, time: number) => {
    const replay = replayOn(id, clock, (message) => link.push(message));
    streams.set(id, replay);
    store.open(id, 0, { wholeSnapshots: true });
    await settle(replay.showState(queries, file, time));
    return new Map(store.mirror(id)!.rows);
  };
  return { link, streams, store, deliver, settle, show };
}

describe('a travel from live sent against the live rows', () => {
  it('sends the rows that differ and ends with exactly the rows of the whole moment', async () => {
    const { file, end } = recordReplay(cleanups);
    const clock = new FakeClock(end + 1_000);
    const { link, streams, store, deliver, settle } = pageOnClock(clock, file);
    // The present, as the live subscription sent it: the moment at the recording's end.
    const present = replayOn('present', clock, (message) => link.push(message));
    streams.set('present', present);
    store.open('present', 0, { wholeSnapshots: true });
    await settle(present.showState(queries, file, end));
    const live = new BatchStream({ subscriptionId: 's1', clock, send: (message) => link.push(message) });
    streams.set('s1', live);
    store.open('s1');
    live.snapshot([...store.mirror('present')!.rows.values()]);
    deliver();
    // The moment 1 s in, whole and against the live rows.
    const moment = start + 1_000;
    const whole = replayOn('whole', clock, (message) => link.push(message));
    streams.set('whole', whole);
    store.open('whole', 0, { wholeSnapshots: true });
    await settle(whole.showState(queries, file, moment));
    const sent: ServerMessage[] = [];
    const against = replayOn('against', clock, (message) => {
      sent.push(messageValue(message));
      link.push(message);
    });
    streams.set('against', against);
    store.open('against', 0, { wholeSnapshots: true });
    const reply = against.showState(queries, file, moment, {
      subscriptionId: 's1',
      rows: () => live.baseRows(),
    });
    await settle(reply);

    const expected = new Map(store.mirror('whole')!.rows);
    expect(expected.size).toBeGreaterThan(250);
    expect(new Map(store.mirror('against')!.rows)).toEqual(expected);
    const batches = sent.filter((message): message is DeltaBatch => message.type === 'batch');
    expect(batches[0].base).toEqual({ subscriptionId: 's1', seq: live.lastSeq });
    const upserts = batches.reduce((count, batch) => count + batch.upserts.length, 0);
    const deletes = batches.reduce((count, batch) => count + batch.deletes.length, 0);
    // Most rows are as they are now; some changed since, and pods created since are deleted.
    expect(upserts).toBeGreaterThan(0);
    expect(upserts).toBeLessThan(expected.size / 2);
    expect(deletes).toBeGreaterThan(0);
    // The cursor says "whole" only after the batch that ends the snapshot, and then it is.
    let ended = false;
    for (const message of sent) {
      if (message.type === 'batch' && message.snapshotEnd) ended = true;
      const cursor = message as HistoryCursorMessage;
      if (message.type !== 'historyCursor' || cursor.total === undefined) continue;
      expect(cursor.rebuilt >= cursor.total).toBe(ended);
    }
    expect(sent.at(-1)).toMatchObject({
      type: 'historyCursor',
      rebuilt: expected.size,
      total: expected.size,
    });
  });

  it('has the worker compare with live rows the recording never held as they are', async () => {
    const { file, end } = recordReplay(cleanups);
    const clock = new FakeClock(end + 1_000);
    const { link, streams, store, deliver, settle, show } = pageOnClock(clock, file);
    const moment = start + 1_000;
    const expected = await show('whole', moment);
    // The live rows: the recording's present, but with a key it never recorded, a row at a version it
    // missed (of a key the moment holds as it is now), and a row of the moment missing.
    const present = [...(await show('present', end)).values()];
    const presentKeys = new Set(present.map((row) => row.key));
    const unchangedSince = present.filter(
      (row) => expected.get(row.key)?.resourceVersion === row.resourceVersion,
    );
    expect(unchangedSince.length).toBeGreaterThan(2);
    const [missed, dropped] = unchangedSince;
    const liveRows = present
      .filter((row) => row.key !== dropped.key)
      .map((row) => (row.key === missed.key ? { ...row, resourceVersion: `${row.resourceVersion}0` } : row));
    liveRows.push({ ...present[0], key: 'shop/never-recorded', name: 'never-recorded', uid: 'uid-ghost' });
    expect(presentKeys.has('shop/never-recorded')).toBe(false);
    const live = new BatchStream({ subscriptionId: 's1', clock, send: (message) => link.push(message) });
    streams.set('s1', live);
    store.open('s1');
    live.snapshot(liveRows);
    deliver();
    // Rows that cross from the worker to main: only those that differ from the live rows.
    let crossed = 0;
    const stateRows = queries.stateRows.bind(queries);
    const counting = vi.spyOn(queries, 'stateRows').mockImplementation((...args) => {
      const onRows = args[3];
      args[3] = (rows) => {
        crossed += rows.keys.length;
        onRows(rows);
      };
      return stateRows(...args);
    });
    cleanups.push(() => counting.mockRestore());
    const against = replayOn('against', clock, (message) => link.push(message));
    streams.set('against', against);
    store.open('against', 0, { wholeSnapshots: true });
    await settle(
      against.showState(queries, file, moment, { subscriptionId: 's1', rows: () => live.baseRows() }),
    );

    expect(new Map(store.mirror('against')!.rows)).toEqual(expected);
    expect(crossed).toBeGreaterThan(0);
    expect(crossed).toBeLessThan(expected.size / 2);
  });

  it('travels again from live rows changed since, the worker reading only the batches sent since the first travel', async () => {
    const { file, end } = recordReplay(cleanups);
    const clock = new FakeClock(end + 1_000);
    const { link, streams, store, deliver, settle, show } = pageOnClock(clock, file);
    const present = [...(await show('present', end)).values()];
    const live = new BatchStream({ subscriptionId: 's1', clock, send: (message) => link.push(message) });
    streams.set('s1', live);
    store.open('s1');
    live.snapshot(present);
    deliver();
    // What the worker is asked against at each travel.
    const journals: LiveJournal[] = [];
    const stateRows = queries.stateRows.bind(queries);
    const asking = vi.spyOn(queries, 'stateRows').mockImplementation((...args) => {
      if (args[6] !== undefined && typeof args[6] !== 'string') journals.push(args[6]);
      return stateRows(...args);
    });
    cleanups.push(() => asking.mockRestore());
    const travel = async (id: string, time: number) => {
      const against = replayOn(id, clock, (message) => link.push(message));
      streams.set(id, against);
      store.open(id, 0, { wholeSnapshots: true });
      await settle(
        against.showState(queries, file, time, { subscriptionId: 's1', rows: () => live.baseRows() }),
      );
      against.close();
      return new Map(store.mirror(id)!.rows);
    };
    expect(await travel('first', start + 1_000)).toEqual(await show('whole-first', start + 1_000));
    // The live rows go on: a version the recording never saw, a row deleted, a key it never knew.
    const [changed, deleted] = present;
    live.record({ type: 'updated', row: { ...changed, resourceVersion: `${changed.resourceVersion}9` } });
    live.record({ type: 'deleted', key: deleted.key });
    live.record({
      type: 'added',
      row: { ...present[2], key: 'shop/never-recorded', name: 'never-recorded', uid: 'uid-ghost' },
    });
    live.flush();
    await settle(Promise.resolve());
    expect(await travel('second', start + 2_000)).toEqual(await show('whole-second', start + 2_000));
    // The first travel sent every live row; the second only the batch sent since.
    expect(journals).toHaveLength(2);
    expect(journals[1].epoch).toBe(journals[0].epoch);
    expect(journals[1].from).toBe(journals[0].from + journals[0].batches.length);
    expect(journals[1].batches.flat()).toHaveLength(3 * 3);
  });

  it('sends a moment much smaller than the live rows whole, not as more deletes than rows', async () => {
    const { file } = recordReplay(cleanups);
    const clock = new FakeClock(start + 10_000);
    const sent: ServerMessage[] = [];
    const live = new BatchStream({ subscriptionId: 's1', clock, send: () => {} });
    const many = Array.from({ length: 700 }, (_, index) => ({
      key: `shop/many-${index}`,
      uid: `uid-many-${index}`,
      name: `many-${index}`,
      namespace: 'shop',
      resourceVersion: '1',
      labels: {},
      owners: [],
      createdAt: 0,
      cells: [],
    }));
    live.snapshot(many);
    const replay = replayOn('against', clock, (message) => sent.push(messageValue(message)));
    const reply = replay.showState(queries, file, start + 1_000, {
      subscriptionId: 's1',
      rows: () => live.baseRows(),
    });
    while (!sent.some((message) => message.type === 'batch' && message.snapshotEnd)) {
      clock.step(100);
      await new Promise((resolve) => setTimeout(resolve, 1));
      const last = sent.filter((message): message is DeltaBatch => message.type === 'batch').at(-1);
      if (last) replay.acknowledge(last.seq);
    }
    await reply;
    // The snapshot opened against the live rows while they were listed for the worker is replaced
    // by a whole one once the worker answers that the moment is too small for them.
    const all = sent.filter((message): message is DeltaBatch => message.type === 'batch');
    const batches = all.slice(all.findLastIndex((batch) => batch.replace === true));
    expect(batches[0].base).toBeUndefined();
    expect(batches.reduce((count, batch) => count + batch.upserts.length, 0)).toBeGreaterThan(250);
    expect(batches.every((batch) => batch.deletes.length === 0)).toBe(true);
  });
});
