// A playback from a recording's start (issue 12): the moment played from is inside the pods' listing
// gap, nearly empty, and the player's first step is a jump to the list's end. Sent against that
// nearly empty moment, every row of the list crossed from the worker and reached the page (at
// 150,000 pods, seconds of the page's parse before the first move); sent against the live rows the
// page holds, only the rows changed since do. Through the real query worker and the page's store: the
// page must end with exactly the rows of the list's moment.
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { BatchStream } from '../../../main/bridge/batch-stream';
import { decodeRows } from '../../../main/bridge/encoded-rows';
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
import type { Row } from '../../../shared/protocol/row';
import type { DeltaBatch, ServerMessage } from '../../../shared/protocol/server-messages';
import { tempDirectory } from '../history/fixtures';
import { pageLink } from './page-link';
import { pod } from './replay-recording';

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

const start = Date.UTC(2026, 11, 3, 12);
/** Pods listed over one recorded second from listAt, at the end of the listing gap the recording starts in. */
const listed = 600;
const listAt = start + 2_000;
const recordedMs = 8_000;

/**
 * 20 pods at the start, in a listing gap that ends once `listed` pods are listed (listAt to listAt +
 * 1 s); every 100 ms one steady pod changes and, after the list, one listed pod: the present differs
 * from the list's moment by some rows. Written a recorded second a transaction, with row frames, as
 * the recording worker writes it.
 */
function recordListing(): { file: string; end: number } {
  const directory = tempDirectory();
  cleanups.push(directory.remove);
  const file = directory.file('listing.kubetide');
  const database = openForWriting(file, 'test', start);
  const writer = new RecordingWriter(database);
  const stream = writer.stream({ gvr: 'pods.v1', scope: '' });
  let resourceVersion = 1;
  const write = (time: number, name: string, type: 'Added' | 'Updated') =>
    writer.writeChange({
      time,
      stream,
      type,
      finalStateUnknown: false,
      object: pod(name, resourceVersion++),
      key: `shop/${name}`,
    });
  writer.writeMark({ kind: 'gap', reason: 'listing', stream, start, end: listAt + 1_000, detail: '' });
  let tick = 0;
  for (let second = 0; second * 1_000 < recordedMs; second++) {
    const from = start + second * 1_000;
    writer.transaction(() => {
      if (second === 0) for (let index = 0; index < 20; index++) write(start, `steady-${index}`, 'Added');
      for (let time = from + 100; time <= from + 1_000; time += 100, tick++) {
        if (time >= listAt && time < listAt + 1_000) {
          const first = Math.round(((time - listAt) / 1_000) * listed);
          const last = Math.round(((time + 100 - listAt) / 1_000) * listed);
          for (let index = first; index < last; index++) write(time, `listed-${index}`, 'Added');
        }
        write(time, `steady-${tick % 20}`, 'Updated');
        if (time >= listAt + 1_000) write(time, `listed-${(tick * 7) % listed}`, 'Updated');
      }
      writer.writeRowFramesDue(from + 1_000);
      writer.touch(from + 1_000);
    });
  }
  database.close();
  return { file, end: start + recordedMs };
}

async function wholeMoment(file: string, time: number): Promise<Map<string, Row>> {
  const rows = new Map<string, Row>();
  await reference.stateRows(file, { gvr: 'pods.v1', time }, start + 60_000, (chunk) => {
    for (const row of decodeRows(chunk)) rows.set(row.key, row);
  });
  return rows;
}

describe('a playback from inside the listing gap', () => {
  it("sends its jump to the list's end against the live rows, not the nearly empty moment played from, reading no page of that moment beyond the first, and the page holds exactly the list's moment", async () => {
    const { file, end } = recordListing();
    const clock = new FakeClock(end + 60_000);
    const link: OutgoingMessage[] = [];
    const streams = new Map<string, { acknowledge(seq: number): void }>();
    const store = new MirrorStore({
      scheduler: new ManualFrameScheduler(),
      onApplied: (id, seq) => streams.get(id)?.acknowledge(seq),
    });
    const { deliver, settle } = pageLink(clock, store, link);
    const replayOf = (subscriptionId: string, send: (message: OutgoingMessage) => void) => {
      const replay = new ReplaySubscription({
        subscriptionId,
        gvr: pods,
        namespace: '',
        projector: new RowProjector(printerFor(pods)),
        clock,
        send,
        batch: { maxBatchRows: 100 },
      });
      cleanups.push(() => replay.close());
      streams.set(subscriptionId, replay);
      store.open(subscriptionId, 0, { wholeSnapshots: true });
      return replay;
    };
    // The live rows: the recording's present, as the live subscription sent them.
    const present = replayOf('present', (message) => link.push(message));
    await settle(present.showState(queries, file, end));
    const live = new BatchStream({ subscriptionId: 's1', clock, send: (message) => link.push(message) });
    streams.set('s1', live);
    store.open('s1');
    live.snapshot([...store.mirror('present')!.rows.values()]);
    deliver();
    const base = { subscriptionId: 's1', rows: () => live.baseRows() };

    // The travel to the recording's start (inside the gap: 20 rows, too few for the live rows to be
    // their base, so sent whole), then Space.
    const sent: ServerMessage[] = [];
    const replay = replayOf('travel', (message) => {
      sent.push(messageValue(message));
      link.push(message);
    });
    await settle(replay.showState(queries, file, start + 500, base));
    expect(store.mirror('travel')!.rows.size).toBe(20);
    const fromPlay = sent.length;
    // The worker's pages, by playback: the first opened reads from the moment played from.
    const opened: number[] = [];
    const pages = new Map<number, number>();
    const openPlayback = queries.openPlayback.bind(queries);
    const playbackChanges = queries.playbackChanges.bind(queries);
    const spies = [
      vi.spyOn(queries, 'openPlayback').mockImplementation(async (...args) => {
        const span = await openPlayback(...args);
        opened.push(span.id);
        return span;
      }),
      vi.spyOn(queries, 'playbackChanges').mockImplementation((id, ...rest) => {
        pages.set(id, (pages.get(id) ?? 0) + 1);
        return playbackChanges(id, ...rest);
      }),
    ];
    cleanups.push(() => spies.forEach((spy) => spy.mockRestore()));
    void replay.play(queries, file, 10);
    // The page applies what comes, acknowledging it, until the jump's snapshot has ended on it; the
    // player lands it at its next frame, so the rows are then exactly the jump's moment.
    let landed: { time: number; rows: Map<string, Row> } | undefined;
    for (let step = 0; step < 4_000 && !landed; step++) {
      clock.step(5);
      await new Promise((resolve) => setTimeout(resolve, 1));
      deliver();
      const ended = sent
        .slice(fromPlay)
        .find((message): message is DeltaBatch => message.type === 'batch' && message.snapshotEnd === true);
      if (ended && store.mirror('travel')!.lastSeq >= ended.seq)
        landed = { time: replay.time, rows: new Map(store.mirror('travel')!.rows) };
    }
    replay.stop();
    expect(landed).toBeDefined();
    // The jump went to the list's end (the listing gap's end), before the first move.
    expect(landed!.time).toBeGreaterThanOrEqual(listAt + 1_000);
    const jump = sent.slice(fromPlay).filter((message): message is DeltaBatch => message.type === 'batch');
    expect(jump[0].base?.subscriptionId).toBe('s1');
    // Only the rows changed since the list (a listed pod and a steady one every 100 ms after it)
    // crossed; against the moment played from, all 620 would have.
    const upserts = jump.reduce((count, batch) => count + batch.upserts.length, 0);
    expect(upserts).toBeLessThan(listed / 4);
    expect(landed!.rows).toEqual(await wholeMoment(file, landed!.time));
    // The moment played from was left for the list's at the first frame: only the page play() waits
    // for was read of it (before, two more were asked, which the worker read ahead of the rebuild).
    expect(opened.length).toBeGreaterThanOrEqual(2);
    expect(pages.get(opened[0])).toBe(1);
  }, 60_000);
});
