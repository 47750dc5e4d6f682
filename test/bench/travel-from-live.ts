// The travel bench's travels from live (issues 12 and 15): the renderer holds the live rows (here: the
// recording's newest moment, as a page that watched it holds them) and a click on the timeline asks a
// moment against them. Two ways, each in a worker of its own whose timeline had it decode the newest
// row frames first (prewarm, as a window showing the timeline does):
//   worker compares: main lists which version each live row is (listIdentities, a slice per task),
//                    the worker sends only the rows that differ and the keys the moment lacks;
//   main compares:   the worker sends every row of the moment, main compares each chunk with the live
//                    rows (MomentDifference) and reads the keys the moment lacks (the way before);
//   journal:         the live rows sent as a live stream sends them (SentRows, batches of 2,000),
//                    whose identity journal the worker reads at the first travel (every row's line,
//                    flat texts), then at a second travel only what it has not read (nothing: the
//                    rows did not change), see IdentityJournal and LiveListings.
// Wall time, the process's CPU (workers and this thread) and this thread's own CPU (main's share).
import { listIdentities } from '../../main/bridge/base-identities';
import { decodeRows } from '../../main/bridge/encoded-rows';
import { MomentDifference } from '../../main/bridge/moment-difference';
import type { BaseRows } from '../../main/bridge/sent-rows';
import { SentRows } from '../../main/bridge/sent-rows';
import { LiveJournalFeed } from '../../main/bridge/journal-feed';
import { HistoryQueries } from '../../main/history/history-queries';
import { threadCpuMs } from '../../main/history/thread-cpu-time';
import type { Row } from '../../shared/protocol/row';

export interface FromLive {
  readonly ms: number;
  readonly cpuMs: number;
  /** This thread's CPU: what main would spend. */
  readonly mainCpuMs: number;
  /** Rows that crossed from the worker. */
  readonly crossed: number;
  readonly rows: number;
}

const pods = { group: '', version: 'v1', resource: 'pods' };
const nextTask = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The rows of the moment at `time`, whole (what a live page holds when `time` is the newest). */
export async function liveRowsAt(file: string, time: number): Promise<Map<string, Row>> {
  const queries = new HistoryQueries({ prewarm: false });
  try {
    const rows = new Map<string, Row>();
    await queries.stateRows(file, { gvr: 'pods.v1', time }, Date.now(), (chunk) => {
      for (const row of decodeRows(chunk)) rows.set(row.key, row);
    });
    return rows;
  } finally {
    queries.close();
  }
}

function baseOf(rows: Map<string, Row>): BaseRows {
  return { seq: 1, size: rows.size, get: (key) => rows.get(key), keys: () => rows.keys(), release: () => {} };
}

/** A travel from `live` to `time`, the moment compared with them by the worker or by main. */
export async function travelFromLive(
  file: string,
  time: number,
  live: Map<string, Row>,
  comparer: 'worker' | 'main',
): Promise<FromLive> {
  const queries = new HistoryQueries();
  try {
    await queries.timeline(file, { buckets: 1, now: Date.now() });
    await queries.prewarm(file);
    const begun = performance.now();
    const cpuBefore = process.cpuUsage();
    const mainBefore = threadCpuMs() ?? 0;
    let crossed = 0;
    let rows = 0;
    if (comparer === 'worker') {
      const listing = await listIdentities(baseOf(live), nextTask, () => true);
      const state = await queries.stateRows(
        file,
        { gvr: 'pods.v1', time },
        Date.now(),
        (chunk) => (crossed += chunk.keys.length),
        undefined,
        undefined,
        listing!.text,
      );
      rows = state.rows ?? crossed;
    } else {
      const difference = new MomentDifference(baseOf(live), new Set());
      await queries.stateRows(file, { gvr: 'pods.v1', time }, Date.now(), (chunk) => {
        crossed += chunk.keys.length;
        difference.changed(chunk);
      });
      await difference.deletes(nextTask);
      rows = crossed;
    }
    const cpu = process.cpuUsage(cpuBefore);
    return {
      ms: performance.now() - begun,
      cpuMs: (cpu.user + cpu.system) / 1000,
      mainCpuMs: (threadCpuMs() ?? 0) - mainBefore,
      crossed,
      rows,
    };
  } finally {
    queries.close();
  }
}

/** Rows per batch of the live stream's snapshot (BatchStream's default batch). */
const snapshotBatchRows = 2_000;

/**
 * Two travels from `live` to `time` through their identity journal (see above): the first, when the
 * worker reads every row's line, and the second, when it has read them all. With `warm`, the journal
 * is first fed to the worker as a timeline question feeds it (LiveJournalFeed, a piece per task, the
 * last compared with the newest state), timed as `feed`: the first travel then reads no backlog.
 */
export async function travelFromLiveJournal(
  file: string,
  time: number,
  live: Map<string, Row>,
  warm = false,
): Promise<{ first: FromLive; again: FromLive; feed?: FromLive }> {
  const sent = new SentRows();
  const rows = [...live.values()];
  for (let at = 0; at < rows.length; at += snapshotBatchRows)
    sent.sent({
      upserts: rows.slice(at, at + snapshotBatchRows),
      deletes: [],
      ...(at === 0 ? { replace: true } : {}),
      ...(at + snapshotBatchRows >= rows.length ? { snapshotEnd: true } : {}),
    });
  const queries = new HistoryQueries();
  try {
    await queries.timeline(file, { buckets: 1, now: Date.now() });
    await queries.prewarm(file);
    const travel = async (): Promise<FromLive> => {
      const begun = performance.now();
      const cpuBefore = process.cpuUsage();
      const mainBefore = threadCpuMs() ?? 0;
      let crossed = 0;
      const base = sent.base(1)!;
      const journal = base.journal!;
      // The base's keys, as MomentSending keeps them for the renderer's.
      const keys = [...base.keys()];
      void keys;
      base.release();
      const state = await queries.stateRows(
        file,
        { gvr: 'pods.v1', time },
        Date.now(),
        (chunk) => (crossed += chunk.keys.length),
        (moment) => {
          if (moment.liveAt !== undefined) base.acknowledgeJournal!(journal.epoch, moment.liveAt);
        },
        undefined,
        journal,
      );
      const cpu = process.cpuUsage(cpuBefore);
      return {
        ms: performance.now() - begun,
        cpuMs: (cpu.user + cpu.system) / 1000,
        mainCpuMs: (threadCpuMs() ?? 0) - mainBefore,
        crossed,
        rows: state.rows ?? crossed,
      };
    };
    let feed: FromLive | undefined;
    if (warm) {
      const begun = performance.now();
      const cpuBefore = process.cpuUsage();
      const mainBefore = threadCpuMs() ?? 0;
      const feeder = new LiveJournalFeed({
        read: (journal, compare) => queries.readLiveJournal(journal, compare),
        nextTask,
      });
      await feeder.feed(
        { gvr: pods, namespace: '', journal: sent.journal },
        { file, query: { gvr: 'pods.v1' } },
      );
      const cpu = process.cpuUsage(cpuBefore);
      const rows = live.size;
      feed = {
        ms: performance.now() - begun,
        cpuMs: (cpu.user + cpu.system) / 1000,
        mainCpuMs: (threadCpuMs() ?? 0) - mainBefore,
        crossed: rows,
        rows,
      };
    }
    const first = await travel();
    const again = await travel();
    return { first, again, ...(feed ? { feed } : {}) };
  } finally {
    queries.close();
  }
}
