// The live rows' identity journal read by the travel worker ahead of a travel (LiveJournalFeed): the
// timeline's question names the live subscription, the worker reads its journal in pieces meanwhile,
// and the first travel from it posts no backlog, ending with exactly the rows of the whole moment.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BatchStream } from '../../../main/bridge/batch-stream';
import type { ClusterSession } from '../../../main/bridge/cluster-session';
import { decodeRows } from '../../../main/bridge/encoded-rows';
import { HistoryService } from '../../../main/bridge/history-service';
import { IdentityJournal } from '../../../main/bridge/identity-journal';
import { LiveJournalFeed, linesPerPiece } from '../../../main/bridge/journal-feed';
import type { JournalComparison } from '../../../main/bridge/journal-feed';
import { RowProjector } from '../../../main/bridge/row-projection';
import { FakeClock } from '../../../main/cache/fake-clock';
import { HistoryQueries } from '../../../main/history/history-queries';
import type { LiveJournal } from '../../../main/history/query-protocol';
import type { Recorder } from '../../../main/history/recorder';
import { ManualFrameScheduler } from '../../../renderer/store/frame-scheduler';
import { MirrorStore } from '../../../renderer/store/mirror-store';
import { printerFor } from '../../../shared/kinds/columns';
import type { OutgoingMessage } from '../../../main/bridge/outgoing-message';
import type { Row } from '../../../shared/protocol/row';
import { pageLink } from './page-link';
import { recordReplay, recordingStart } from './replay-recording';

const pods = { group: '', version: 'v1', resource: 'pods' };
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

/** The rows of `file`'s moment at `time`, whole, as a live page that watched it holds them. */
async function rowsAt(file: string, time: number): Promise<Row[]> {
  const queries = new HistoryQueries({ prewarm: false });
  cleanups.push(() => queries.close());
  const rows: Row[] = [];
  await queries.stateRows(file, { gvr: 'pods.v1', time }, time, (chunk) => {
    rows.push(...decodeRows(chunk));
  });
  return rows;
}

function row(index: number): Row {
  return { key: `shop/p${index}`, uid: `uid-${index}`, resourceVersion: '1' } as Row;
}

describe('the live journal read ahead of a travel', () => {
  it('feeds the journal in pieces of at most linesPerPiece rows, asking a comparison with the last', async () => {
    const journal = new IdentityJournal();
    journal.begin();
    const batch = Array.from({ length: 1_500 }, (_, index) => row(index));
    for (let count = 0; count < 6; count++) journal.record(batch, [], 9_000);
    const read: { journal: LiveJournal; compare: JournalComparison | undefined }[] = [];
    const feed = new LiveJournalFeed({
      read: (piece, compare) => {
        read.push({ journal: piece, compare });
        return Promise.resolve(piece.from + piece.batches.length);
      },
      nextTask: () => Promise.resolve(),
    });
    const compare = { file: 'recording', query: { gvr: 'pods.v1' } };
    await feed.feed({ gvr: pods, namespace: '', journal }, compare);
    expect(read.map((piece) => piece.journal.batches.length)).toEqual([2, 2, 2]);
    for (const piece of read)
      expect(piece.journal.batches.flat().length / 3).toBeLessThanOrEqual(linesPerPiece);
    expect(read.map((piece) => piece.journal.from)).toEqual([0, 2, 4]);
    expect(read.map((piece) => piece.compare)).toEqual([undefined, undefined, compare]);
    // Read, so let go: a travel now posts none of it.
    expect(journal.unread()!.batches).toEqual([]);
    expect(journal.unread()!.from).toBe(6);
  });

  it('takes no piece while a travel is answered: the worker reads the journal after it', async () => {
    const journal = new IdentityJournal();
    journal.begin();
    journal.record([row(1)], [], 1);
    let idle: () => void = () => {};
    const travelling = new Promise<void>((resolve) => (idle = resolve));
    const read: LiveJournal[] = [];
    const feed = new LiveJournalFeed({
      read: (piece) => {
        read.push(piece);
        return Promise.resolve(piece.from + piece.batches.length);
      },
      nextTask: () => Promise.resolve(),
      idle: () => travelling,
    });
    const fed = feed.feed(
      { gvr: pods, namespace: '', journal },
      { file: 'recording', query: { gvr: 'pods.v1' } },
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(read).toEqual([]);
    // Not taken either: a travel meanwhile posts it with its own journal.
    expect(journal.unread()!.batches.length).toBe(1);
    idle();
    await fed;
    expect(read.map((piece) => piece.from)).toEqual([0]);
  });

  it('drops a journal the worker could not read, so the next travel lists the rows whole', async () => {
    const journal = new IdentityJournal();
    journal.begin();
    journal.record([row(1)], [], 1);
    const feed = new LiveJournalFeed({
      read: () => Promise.resolve(undefined),
      nextTask: () => Promise.resolve(),
    });
    await feed.feed({ gvr: pods, namespace: '', journal }, { file: 'recording', query: { gvr: 'pods.v1' } });
    expect(journal.unread()).toBeUndefined();
  });

  it("has the first travel after a timeline question post no backlog, and end at the whole moment's rows", async () => {
    const { file, end } = recordReplay(cleanups);
    const clock = new FakeClock(end + 1_000);
    const link: OutgoingMessage[] = [];
    const live = new BatchStream({
      subscriptionId: 'live',
      clock,
      send: (message) => link.push(message),
      maxBatchRows: 40,
    });
    cleanups.push(() => live.close());
    const session = {
      context: 'test',
      starting: false,
      recording: {
        file,
        recorder: { holdWhile: () => {}, writingBehindMs: () => 0 } as unknown as Recorder,
        kinds: [],
      },
      projectorFor: () => new RowProjector(printerFor(pods)),
    } as unknown as ClusterSession;
    const history = new HistoryService({
      session: () => session,
      send: (message) => link.push(message),
      clock,
      liveRows: (id) => (id === 'live' ? live.baseRows() : undefined),
      liveJournal: (id) =>
        id === 'live' && live.identityJournal
          ? { gvr: pods, namespace: '', journal: live.identityJournal }
          : undefined,
    });
    cleanups.push(() => history.close());
    const store = new MirrorStore({
      scheduler: new ManualFrameScheduler(),
      onApplied: (id, seq) => (id === 'live' ? live.acknowledge(seq) : history.acknowledge(id, seq)),
    });
    const { deliver, settle } = pageLink(clock, store, link);
    store.open('live');
    live.snapshot(await rowsAt(file, end));
    await settle(Promise.resolve());
    const journal = live.identityJournal!;
    expect(journal.unread()!.batches.length).toBeGreaterThan(1);

    // What the worker is asked against at the travel.
    const journals: LiveJournal[] = [];
    const stateRows = HistoryQueries.prototype.stateRows;
    const asking = vi.spyOn(HistoryQueries.prototype, 'stateRows').mockImplementation(function (
      this: HistoryQueries,
      ...args
    ) {
      if (args[6] !== undefined && typeof args[6] !== 'string') journals.push(args[6]);
      return stateRows.apply(this, args);
    });
    cleanups.push(() => asking.mockRestore());

    await settle(
      history.serve({ type: 'historyTimeline', requestId: 1, buckets: 10, base: 'live' }) as Promise<unknown>,
    );
    // The feed goes on a piece per task: waited out as the clock steps.
    for (let round = 0; round < 200 && journal.unread()!.batches.length > 0; round++) {
      clock.step(1);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(journal.unread()!.batches).toEqual([]);

    const travel = async (id: string, time: number, base?: string) => {
      store.open(id, 0, { wholeSnapshots: true });
      await settle(
        history.serve({
          type: 'historyState',
          requestId: 2,
          subscriptionId: id,
          gvr: pods,
          time,
          ...(base ? { base } : {}),
        }) as Promise<unknown>,
      );
      deliver();
      return new Map(store.mirror(id)!.rows);
    };
    const fromLive = await travel('first', recordingStart + 1_000, 'live');
    // The first travel posted no batch: the worker had read them all ahead of it.
    expect(journals).toHaveLength(1);
    expect(journals[0].batches).toEqual([]);
    expect(journals[0].from).toBe(journal.end);
    expect(fromLive).toEqual(await travel('whole', recordingStart + 1_000));
  });
});
