// Travels from live to moments that differ from the live rows in most rows (issue 12/15 travel): the
// recorder's listing gap and a recording's start, where the moment holds a few thousand rows and the
// page holds 150,000 live ones; and, for comparison, 10 s back in a fully recorded stretch.
//
//   npx tsx test/bench/gap-travel.ts [--pods 50000] [--repeat 2] [--only gap,start,back]
//
// A recording as travel.ts writes it (the list at 2,000 pods a second, then as many changes); the live
// rows are its newest moment, sent as a live stream sends them (SentRows) and their identity journal
// fed to the travel path's worker ahead (LiveJournalFeed, as a timeline question feeds it). Each travel
// goes from live, as a replay's MomentSending asks it: the journal's unread batches (none), and the
// worker answers against the live rows or whole. Figures: wall time, the process's CPU (worker and
// this thread) and its part beside this thread, the rows the moment holds, those that crossed, and
// the deletes.
//
// --listing: the ui bench's travels at 150,000 pods instead. The live rows are every pod, but the
// recording is still writing its first list inside a listing gap (as the recorder records the cache
// whole after synced, at ~100 us an object): it holds the first fifth of the list, and before each
// travel the next tenth is committed (a keyframe every 20,000 changes). The travels: into the gap
// (2 s into the list) and to the recording's start (0.3 s into it).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { LiveJournalFeed } from '../../main/bridge/journal-feed';
import { SentRows } from '../../main/bridge/sent-rows';
import { RowProjector } from '../../main/bridge/row-projection';
import { HistoryQueries } from '../../main/history/history-queries';
import { threadCpuMs } from '../../main/history/thread-cpu-time';
import { RecordingWriter } from '../../main/history/recording-writer';
import { openForWriting } from '../../main/history/schema';
import type { KubeObject } from '../../shared/kube/object';
import { printerFor } from '../../shared/kinds/columns';
import type { Row } from '../../shared/protocol/row';
import { realisticPod } from '../unit/history/fixtures';
import { round } from './harness';
import { writeTravelRecording } from './travel';
import { liveRowsAt } from './travel-from-live';

const { values } = parseArgs({
  options: {
    pods: { type: 'string', default: '50000' },
    repeat: { type: 'string', default: '2' },
    /** Only these travels (comma-separated: gap, start, back), e.g. to profile one. */
    only: { type: 'string', default: 'gap,start,back' },
    /** Instead: the recording still writing its listing gap under the travels (see above). */
    listing: { type: 'boolean', default: false },
  },
});
const pods = Number(values.pods);
const only = new Set(values.only.split(','));
const nextTask = () => new Promise<void>((resolve) => setImmediate(resolve));
const keepAlive = setInterval(() => {}, 1_000);
const directory = mkdtempSync(join(tmpdir(), 'kubetide-gap-travel-'));
/** Batch `seq` of a live stream's snapshot of `rows`, as SentRows records what a feed sent. */
function sentRowsOf(rows: readonly Row[]): SentRows {
  const sent = new SentRows();
  for (let at = 0; at < rows.length; at += 2_000)
    sent.sent({
      upserts: rows.slice(at, at + 2_000),
      deletes: [],
      ...(at === 0 ? { replace: true } : {}),
      ...(at + 2_000 >= rows.length ? { snapshotEnd: true } : {}),
    });
  return sent;
}

/** Feeds `sent`'s journal to `queries`' travel worker, as a timeline question does. */
async function feedJournal(queries: HistoryQueries, sent: SentRows, file: string): Promise<void> {
  const feeder = new LiveJournalFeed({
    read: (journal, compare) => queries.readLiveJournal(journal, compare),
    nextTask,
  });
  await feeder.feed(
    { gvr: { group: '', version: 'v1', resource: 'pods' }, namespace: '', journal: sent.journal },
    { file, query: { gvr: 'pods.v1' } },
  );
}

/** A travel from `sent`'s live rows to `time`, as MomentSending asks it; printed as `name`. */
async function travel(queries: HistoryQueries, sent: SentRows, file: string, name: string, time: number) {
  const begun = performance.now();
  const cpuBefore = process.cpuUsage();
  const mainBefore = threadCpuMs() ?? 0;
  let crossed = 0;
  let againstLive = false;
  const base = sent.base(1)!;
  const journal = base.journal!;
  base.release();
  const state = await queries.stateRows(
    file,
    { gvr: 'pods.v1', time },
    Date.now(),
    (chunk) => (crossed += chunk.keys.length),
    (moment) => {
      againstLive = moment.againstLive === true;
      if (moment.liveAt !== undefined) base.acknowledgeJournal!(journal.epoch, moment.liveAt);
    },
    undefined,
    journal,
  );
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  // The process less this thread: the worker's, and the collector's helper threads.
  const besideMain = cpuMs - ((threadCpuMs() ?? 0) - mainBefore);
  console.log(
    `${name}: ${round(performance.now() - begun)} ms wall, ${round(cpuMs)} ms CPU ` +
      `(${round(besideMain)} ms beside main), ` +
      `${state.rows ?? crossed} rows (${crossed} crossed, ${state.deletes?.length ?? 0} deletes, ` +
      `${againstLive ? 'against live' : 'whole'})`,
  );
}

/** The --listing travels (see above). */
async function listingTravels(file: string): Promise<void> {
  const start = Date.UTC(2026, 10, 30, 8);
  const database = openForWriting(file, 'bench', start);
  const writer = new RecordingWriter(database);
  const stream = writer.stream({ gvr: 'pods.v1', scope: '' });
  writer.resetStream(stream);
  writer.writeKeyframe(stream, start);
  writer.writeMark({
    kind: 'gap',
    reason: 'listing',
    stream,
    start,
    end: undefined,
    detail: 'waiting for the first list',
  });
  const objects: KubeObject[] = [];
  for (let index = 0; index < pods; index++) {
    const pod = realisticPod(`app${index % 500}-7d9f8c6b5-${index}`, `ns-${index % 100}`);
    pod.metadata.resourceVersion = String(index + 1);
    objects.push(pod);
  }
  const projector = new RowProjector(printerFor({ group: '', resource: 'pods' }));
  const sent = sentRowsOf(objects.map((object) => projector.project(object, Date.now())));
  let written = 0;
  const writeUpTo = (count: number) => {
    writer.transaction(() => {
      for (; written < Math.min(count, pods); written++) {
        const object = objects[written];
        const time = Math.floor(start + written * 0.5);
        const key = `${object.metadata.namespace}/${object.metadata.name}`;
        writer.writeChange({ time, stream, type: 'Replaced', finalStateUnknown: false, object, key });
        if ((written + 1) % 20_000 === 0) writer.writeKeyframe(stream, time);
        if ((written + 1) % 200 === 0) writer.writeRowFramesDue(time);
      }
    });
  };
  writeUpTo(pods / 5);
  const queries = new HistoryQueries();
  try {
    await queries.timeline(file, { buckets: 1, now: Date.now() });
    await queries.prewarm(file);
    await feedJournal(queries, sent, file);
    for (let step = 0; step < Number(values.repeat); step++) {
      writeUpTo(written + pods / 10);
      if (only.has('gap')) await travel(queries, sent, file, `gap, ${written} listed`, start + 2_000);
      if (only.has('start')) await travel(queries, sent, file, `start, ${written} listed`, start + 300);
    }
  } finally {
    queries.close();
    database.close();
  }
}

/** The travels of a whole recording: into its list, to its start, and 10 s back. */
async function recordedTravels(file: string): Promise<void> {
  const { start, end } = writeTravelRecording(file, pods);
  const live = await liveRowsAt(file, end);
  const sent = sentRowsOf([...live.values()]);
  const queries = new HistoryQueries();
  try {
    await queries.timeline(file, { buckets: 1, now: Date.now() });
    await queries.prewarm(file);
    await feedJournal(queries, sent, file);
    for (let round = 0; round < Number(values.repeat); round++) {
      if (only.has('gap')) await travel(queries, sent, file, 'gap (5 s into the list)', start + 5_000);
      if (only.has('start')) await travel(queries, sent, file, 'start (0.5 s into the list)', start + 500);
      if (only.has('back')) await travel(queries, sent, file, '10 s back', end - 10_000);
    }
  } finally {
    queries.close();
  }
}

try {
  if (values.listing) await listingTravels(join(directory, 'listing.kubetide'));
  else await recordedTravels(join(directory, 'recording.kubetide'));
} finally {
  clearInterval(keepAlive);
  rmSync(directory, { recursive: true, force: true });
}
