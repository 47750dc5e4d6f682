// Importing a big recording never stalls the main thread: opening it (schema, format, SQLite's
// quick_check, which reads every page) is the query worker's. The file is made big enough that the
// same open on this thread is measured to stall it well past the bound first (it grows until it
// does: a fixed 480 MB opened in 192 ms on a quiet fast machine), so the bound means something on
// this machine.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../main/cache/fake-clock';
import type { ClusterSession } from '../../../main/bridge/cluster-session';
import { HistoryService } from '../../../main/bridge/history-service';
import { RowProjector } from '../../../main/bridge/row-projection';
import { RecordingWriter } from '../../../main/history/recording-writer';
import { openRecording } from '../../../main/history/recording-reader';
import { openForWriting } from '../../../main/history/schema';
import type { HistoryTimeline, RecordingSource } from '../../../shared/protocol';
import { realisticPod, tempDirectory } from '../history/fixtures';

const start = Date.UTC(2026, 10, 30, 12);
/** The longest the main thread may be held while a big recording is imported and first read. */
const stallBoundMs = 100;

const directory = tempDirectory();
afterAll(() => directory.remove());

/** Filler pages (~3.9 KB each) added at a time until the open outlasts the bound: ~470 MB. */
const fillerStep = 120_000;
/** The most filler pages the recording gets (~1.9 GB), however fast this machine opens them. */
const fillerLimit = 4 * fillerStep;

/**
 * A recording of 200 pods with filler pages: quick_check reads every page whatever table holds it,
 * so filler pages cost it what a long recording's would, and are written in a second.
 */
function bigRecording(): string {
  const file = directory.file('big.kubetide');
  const database = openForWriting(file, 'far-away', start);
  const writer = new RecordingWriter(database);
  const stream = writer.stream({ gvr: 'pods.v1', scope: '' });
  writer.transaction(() => {
    for (let index = 0; index < 200; index++) {
      const object = realisticPod(`web-${index}`, 'shop');
      writer.writeChange({
        time: start + index,
        stream,
        type: 'Added',
        finalStateUnknown: false,
        object,
        key: `shop/web-${index}`,
      });
    }
    writer.touch(start + 1_000);
  });
  database.exec('CREATE TABLE filler (page BLOB)');
  database.close();
  return file;
}

/** Adds `pages` filler pages to `file`, written straight in, unsynced: a fixture nobody could lose. */
function addFiller(file: string, pages: number): void {
  const database = new Database(file);
  database.pragma('journal_mode = OFF');
  database.pragma('synchronous = OFF');
  database
    .prepare(
      'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO filler SELECT zeroblob(3900) FROM n',
    )
    .run(pages);
  database.close();
}

/**
 * How long opening `file` holds this thread, as import did before the query worker; filler is added
 * until it holds it past twice the bound (a faster machine opens the same file sooner).
 */
function openOnMainMs(file: string): number {
  let onMainMs = 0;
  for (let pages = fillerStep; pages <= fillerLimit && onMainMs <= 2 * stallBoundMs; pages += fillerStep) {
    addFiller(file, fillerStep);
    const before = performance.now();
    openRecording(file).close();
    onMainMs = performance.now() - before;
  }
  return onMainMs;
}

describe('importing a big recording', () => {
  it('never holds the main thread: the open and its integrity check run in the query worker', async () => {
    const file = bigRecording();
    // The same open here, on the main thread, as import did before: it must stall past the bound.
    const onMainMs = openOnMainMs(file);
    expect(onMainMs).toBeGreaterThan(2 * stallBoundMs);

    const session = {
      context: 'test',
      recording: undefined,
      projectorFor: () => new RowProjector(),
    } as unknown as ClusterSession;
    const history = new HistoryService({
      session: () => session,
      send: () => {},
      clock: new FakeClock(start + 60_000),
      pickFile: async () => file,
    });
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    try {
      const source = (await history.serve({
        type: 'historyImport',
        requestId: 1,
        source: 'dialog',
      })) as RecordingSource;
      expect(source).toMatchObject({ kind: 'imported', context: 'far-away', name: 'big.kubetide' });
      const timeline = (await history.serve({
        type: 'historyTimeline',
        requestId: 2,
        buckets: 10,
      })) as HistoryTimeline;
      expect(timeline.range?.end).toBe(start + 1_000);
    } finally {
      delay.disable();
      history.close();
    }
    console.log(
      `import of a ${Math.round(onMainMs)} ms open: longest main-thread stall ${Math.round(delay.max / 1e6)} ms`,
    );
    // A loaded machine stretches both the open and any stall (quiet: 13-14 ms against a 410-520 ms
    // open; in a loaded CI run 156 against 423): the bound grows with the open, and an open on this
    // thread (a stall at least as long as onMainMs) still fails it.
    expect(delay.max / 1e6).toBeLessThan(Math.max(stallBoundMs, onMainMs / 2));
  });
});
