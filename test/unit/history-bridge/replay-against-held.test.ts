// Travels between past moments through the real query worker: once the renderer holds a moment whole,
// the next is sent as its difference from it (DeltaBatch.base naming the replay itself), the worker
// sending only the rows whose version the moment held did not have. The renderer must end with
// exactly the rows of the whole moment each time, and fall back to whole moments wherever it may not
// hold the one main thinks (a snapshot superseded mid-way, a resnapshot after a gap, another worker).
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { decodeRows } from '../../../main/bridge/encoded-rows';
import { ReplaySubscription } from '../../../main/bridge/history-replay';
import { messageValue } from '../../../main/bridge/outgoing-message';
import type { OutgoingMessage } from '../../../main/bridge/outgoing-message';
import { RowProjector } from '../../../main/bridge/row-projection';
import { FakeClock } from '../../../main/cache/fake-clock';
import { HistoryQueries } from '../../../main/history/history-queries';
import { ManualFrameScheduler } from '../../../renderer/store/frame-scheduler';
import { MirrorStore } from '../../../renderer/store/mirror-store';
import { nameOrder } from '../../../renderer/store/name-order';
import { sortRowsByName } from '../../../renderer/store/named-keys';
import { printerFor } from '../../../shared/kinds/columns';
import type { Row } from '../../../shared/protocol/row';
import type { DeltaBatch, ServerMessage } from '../../../shared/protocol/server-messages';
import type { HistoryCursorMessage } from '../../../shared/protocol/history-messages';
import { pageLink } from './page-link';
import { recordReplay, recordingStart as start } from './replay-recording';

const pods = { group: '', version: 'v1', resource: 'pods' };
const queries = new HistoryQueries();
/** Another worker, for the expected rows: asking it leaves the first worker's last moment alone. */
const reference = new HistoryQueries();
afterAll(() => {
  queries.close();
  reference.close();
});
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

/** One replay and the renderer's store, joined by an ordered link; every batch sent is kept. */
function travel(file: string) {
  const clock = new FakeClock(start + 60_000);
  const link: OutgoingMessage[] = [];
  const sent: ServerMessage[] = [];
  const gaps: string[] = [];
  const store = new MirrorStore({
    scheduler: new ManualFrameScheduler(),
    onGap: (id) => gaps.push(id),
    onApplied: (_, seq) => replay.acknowledge(seq),
  });
  const replay = new ReplaySubscription({
    subscriptionId: 'travel',
    gvr: pods,
    namespace: '',
    projector: new RowProjector(printerFor(pods)),
    clock,
    send: (message) => {
      sent.push(messageValue(message));
      link.push(message);
    },
    batch: { maxBatchRows: 40 },
  });
  cleanups.push(() => replay.close());
  store.open('travel', 0, { wholeSnapshots: true });
  const { settle } = pageLink(clock, store, link);
  /** The batches and cursors of the travel to `time`, once it settled. */
  const to = async (time: number) => {
    const from = sent.length;
    await settle(replay.showState(queries, file, time));
    return sent.slice(from);
  };
  return { replay, store, gaps, sent, settle, to };
}

async function wholeMoment(file: string, time: number): Promise<Row[]> {
  const rows: Row[] = [];
  await reference.stateRows(file, { gvr: 'pods.v1', time }, start + 60_000, (chunk) => {
    for (const row of decodeRows(chunk)) rows.push(row);
  });
  return rows;
}

const batchesOf = (messages: readonly ServerMessage[]) =>
  messages.filter((message): message is DeltaBatch => message.type === 'batch');

async function expectHolds(store: MirrorStore, file: string, time: number): Promise<number> {
  const expected = await wholeMoment(file, time);
  const mirror = store.mirror('travel')!;
  expect(new Map(mirror.rows), `moment ${time - start}`).toEqual(
    new Map(expected.map((row) => [row.key, row])),
  );
  expect(nameOrder(mirror)).toEqual(sortRowsByName(expected).keys);
  return expected.length;
}

describe('a travel between past moments sent against the moment the renderer holds', () => {
  it('sends what differs, and ends with exactly the rows of each whole moment', async () => {
    const { file } = recordReplay(cleanups);
    const { store, gaps, to } = travel(file);
    const first = await to(start + 500);
    expect(batchesOf(first)[0].base).toBeUndefined();
    await expectHolds(store, file, start + 500);
    let previousSeq = batchesOf(first).at(-1)!.seq;
    let previous = 500;
    let deletes = 0;
    for (const offset of [700, 1_500, 200, 1_900, 1_850]) {
      const messages = await to(start + offset);
      const batches = batchesOf(messages);
      expect(batches[0].base).toEqual({ subscriptionId: 'travel', seq: previousSeq });
      previousSeq = batches.at(-1)!.seq;
      const size = await expectHolds(store, file, start + offset);
      const upserts = batches.reduce((count, batch) => count + batch.upserts.length, 0);
      // Only the rows changed in between: every 100 ms of the recording, 10 updates and a name
      // created again.
      expect(upserts).toBeLessThanOrEqual((Math.abs(offset - previous) / 100) * 11 + 2);
      expect(upserts).toBeLessThan(size);
      deletes += batches.reduce((count, batch) => count + batch.deletes.length, 0);
      previous = offset;
      // The cursor says "whole" only after the batch that ends the snapshot, and then it is.
      let ended = false;
      for (const message of messages) {
        if (message.type === 'batch' && message.snapshotEnd) ended = true;
        const cursor = message as HistoryCursorMessage;
        if (message.type !== 'historyCursor' || cursor.total === undefined) continue;
        expect(cursor.rebuilt >= cursor.total).toBe(ended);
      }
      expect(messages.at(-1)).toMatchObject({ type: 'historyCursor', rebuilt: size, total: size });
    }
    // Some of those moments lacked keys the one before held: deletes were sent.
    expect(deletes).toBeGreaterThan(0);
    expect(gaps).toEqual([]);
  });

  it('sends a moment whole after one superseded mid-way, and after a resnapshot', async () => {
    const { file } = recordReplay(cleanups);
    const { replay, store, gaps, sent, settle, to } = travel(file);
    await to(start + 500);
    // A travel superseded by the next before it ends: the renderer holds neither moment whole.
    const superseded = replay.showState(queries, file, start + 1_000);
    const from = sent.length;
    await settle(Promise.all([superseded, replay.showState(queries, file, start + 1_200)]));
    await expectHolds(store, file, start + 1_200);
    const afterSuperseded = batchesOf(sent.slice(from));
    expect(afterSuperseded.filter((batch) => batch.replace).at(-1)!.base).toBeUndefined();
    const resent = sent.length;
    await settle(replay.resnapshot(queries, file));
    expect(batchesOf(sent.slice(resent))[0].base).toBeUndefined();
    await expectHolds(store, file, start + 1_200);
    // Whole again, the next travel is sent against it.
    const next = await to(start + 1_300);
    expect(batchesOf(next)[0].base).toMatchObject({ subscriptionId: 'travel' });
    await expectHolds(store, file, start + 1_300);
    expect(gaps).toEqual([]);
  });

  it('sends a moment of another worker whole', async () => {
    const { file } = recordReplay(cleanups);
    const { replay, store, sent, settle, to } = travel(file);
    await to(start + 500);
    const from = sent.length;
    await settle(replay.showState(reference, file, start + 800));
    expect(batchesOf(sent.slice(from))[0].base).toBeUndefined();
    await expectHolds(store, file, start + 800);
  });

  it('prefers the moment held to live rows as the base', async () => {
    const { file } = recordReplay(cleanups);
    const { replay, store, sent, settle, to } = travel(file);
    await to(start + 500);
    let asked = 0;
    const live = {
      subscriptionId: 's1',
      rows: () => {
        asked += 1;
        return undefined;
      },
    };
    const from = sent.length;
    await settle(replay.showState(queries, file, start + 900, live));
    expect(batchesOf(sent.slice(from))[0].base).toMatchObject({ subscriptionId: 'travel' });
    // The live rows are only asked for their count (is the moment held far smaller? see
    // heldFitsBase), never listed for the worker.
    expect(asked).toBeLessThanOrEqual(1);
    await expectHolds(store, file, start + 900);
  });
});
