// The travel benchmark (issue 12's goal: travel to any moment of a 150,000-pod recording, complete
// table <= 1 s): a recording of --travel-pods pods (default 150,000) listed, then as many changes of
// them (history-stream's nextVersion, one pod at a time, a keyframe every 20,000 and the row frames
// due every 200, as the recorder writes them), then the table rows of moments asked of HistoryQueries,
// as a replay asks them: the moment rebuilt from row frames and the versions after them in the query
// worker, its rows sent to this thread chunk by chunk as JSON text (which main passes on unparsed).
//   cold:   a moment in the last quarter, the first question (nothing kept from an earlier one, no
//           row frame decoded ahead: HistoryQueries without prewarm, as an imported file's first
//           travel asked at once);
//   nearby: 2 s of recorded time later (4,000 changes), after the cold one, asked against it (as a
//           replay whose renderer holds the cold moment whole asks: the worker sends only the rows
//           whose version differs, see MomentRows);
//   far:    back to the middle of the recording, after the nearby one, against it;
//   warmed: the cold moment again, the first question of another HistoryQueries whose timeline had
//           its worker decode the newest row frames meanwhile (awaited: prewarm), as a window that
//           shows the timeline for a while before a click on it.
//   from live: 10 s before the recording's end, against the rows of its end (what a page that watched
//           it live holds), compared by the worker (the rows that differ cross) and, for the
//           figures of the way before, by main (every row crosses); see travel-from-live.ts.
// Then an export of a range starting late in the recording (see timeRangeExport), and a cold travel
// to the middle of that range in the exported file (an imported recording's first travel).
// The recording is written directly by a RecordingWriter (the recorder's own cost is the history
// benchmark's), so it takes a minute or two of its own.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportInWorker } from '../../main/history/export-in-worker';
import { HistoryQueries } from '../../main/history/history-queries';
import { RecordingWriter } from '../../main/history/recording-writer';
import { openForWriting } from '../../main/history/schema';
import type { KubeObject } from '../../shared/kube/object';
import { realisticPod } from '../unit/history/fixtures';
import type { BenchOptions, BenchResult } from './harness';
import { atMost, round } from './harness';
import { nextVersion } from './history-stream';
import { liveRowsAt, travelFromLive, travelFromLiveJournal } from './travel-from-live';

/** Changes per transaction while writing the recording. */
const batchSize = 5_000;
/** Recorded time between two changes, in ms: 2,000 changes a second, the ui benchmark's churn. */
const changeSpacingMs = 0.5;
/** Changes between keyframes: the recorder's keyframeEveryChanges. */
const keyframeEvery = 20_000;
/** Changes between two checks for row frames due: a recorder flushes a batch every 100 ms. */
const framesCheckedEvery = 200;

export async function runTravel(options: BenchOptions): Promise<BenchResult> {
  const log = (message: string) => {
    if (!options.json) process.stderr.write(`${message}\n`);
  };
  const pods = options.travelPods;
  const directory = mkdtempSync(join(tmpdir(), 'kubetide-bench-travel-'));
  const queries = new HistoryQueries({ prewarm: false });
  // The query worker does not keep a process alive (see HistoryQueries); this one has nothing else.
  const keepAlive = setInterval(() => {}, 1_000);
  try {
    const file = join(directory, 'recording.kubetide');
    log(`  travel: writing a recording of ${pods} pods and ${pods} changes...`);
    const { start, end } = writeTravelRecording(file, pods);
    // CPU time is this process's (the worker and this thread, which do nothing else meanwhile): on a
    // shared machine the wall time is mostly waiting for a core.
    // The moment the last travel named, which the next one is asked against (see `since`).
    let held: number | undefined;
    const travel = async (time: number, recording = file, asked = queries, since?: number) => {
      const begun = performance.now();
      const cpuBefore = process.cpuUsage();
      let sent = 0;
      const state = await asked.stateRows(
        recording,
        { gvr: 'pods.v1', time },
        Date.now(),
        (chunk) => (sent += chunk.keys.length),
        (moment) => (held = moment.moment),
        since,
      );
      const cpu = process.cpuUsage(cpuBefore);
      const rows = state.rows ?? sent;
      return { ms: performance.now() - begun, cpuMs: (cpu.user + cpu.system) / 1000, rows, sent };
    };
    const coldMoment = Math.floor(start + (end - start) * 0.8);
    // The worker's first question also opens the file (quick_check): asked first, it is not timed.
    await queries.timeline(file, { buckets: 1, now: Date.now() });
    const cold = await travel(coldMoment);
    const nearby = await travel(coldMoment + 2_000, file, queries, held);
    const far = await travel(Math.floor(start + (end - start) * 0.5), file, queries, held);
    log(`  travel: cold ${round(cold.ms)} ms, nearby ${round(nearby.ms)} ms, far ${round(far.ms)} ms (wall)`);
    const warmedQueries = new HistoryQueries();
    let warmed: Awaited<ReturnType<typeof travel>>;
    try {
      await warmedQueries.timeline(file, { buckets: 1, now: Date.now() });
      await warmedQueries.prewarm(file);
      warmed = await travel(coldMoment, file, warmedQueries);
    } finally {
      warmedQueries.close();
    }
    log(`  travel: cold after the newest frames were decoded ahead ${round(warmed.ms)} ms (wall)`);
    const live = await liveRowsAt(file, end);
    const fromLive = await travelFromLive(file, end - 10_000, live, 'worker');
    const fromLiveOnMain = await travelFromLive(file, end - 10_000, live, 'main');
    const fromJournal = await travelFromLiveJournal(file, end - 10_000, live);
    const fed = await travelFromLiveJournal(file, end - 10_000, live, true);
    const warmFeed = fed.feed!;
    log(
      `  travel: from live to 10 s ago ${round(fromLive.ms)} ms (wall), ${round(fromLiveOnMain.ms)} ms compared on main, ` +
        `by journal ${round(fromJournal.first.ms)} ms first, ${round(fromJournal.again.ms)} ms again, ` +
        `${round(fed.first.ms)} ms first after the journal was fed ahead (${round(warmFeed.ms)} ms)`,
    );
    const exportFile = join(directory, 'export.kubetide');
    const exported = await timeRangeExport(file, exportFile, start, end);
    log(`  travel: exported ${exported.changes} changes in ${round(exported.ms)} ms (wall)`);
    await queries.timeline(exportFile, { buckets: 1, now: Date.now() });
    const inExport = await travel(Math.floor(start + (end - start) * 0.85), exportFile);
    log(`  travel: in the export, cold ${round(inExport.ms)} ms (wall)`);
    return {
      bench: 'travel',
      fields: {
        travel_pods: cold.rows,
        travel_cold_ms: round(cold.ms),
        travel_nearby_ms: round(nearby.ms),
        travel_far_ms: round(far.ms),
        travel_cold_cpu_ms: round(cold.cpuMs),
        travel_nearby_cpu_ms: round(nearby.cpuMs),
        travel_far_cpu_ms: round(far.cpuMs),
        travel_nearby_rows_sent: nearby.sent,
        travel_far_rows_sent: far.sent,
        travel_warmed_ms: round(warmed.ms),
        travel_warmed_cpu_ms: round(warmed.cpuMs),
        travel_from_live_ms: round(fromLive.ms),
        travel_from_live_cpu_ms: round(fromLive.cpuMs),
        travel_from_live_main_cpu_ms: round(fromLive.mainCpuMs),
        travel_from_live_rows_sent: fromLive.crossed,
        travel_from_live_on_main_ms: round(fromLiveOnMain.ms),
        travel_from_live_on_main_cpu_ms: round(fromLiveOnMain.cpuMs),
        travel_from_live_on_main_main_cpu_ms: round(fromLiveOnMain.mainCpuMs),
        travel_from_live_journal_ms: round(fromJournal.first.ms),
        travel_from_live_journal_cpu_ms: round(fromJournal.first.cpuMs),
        travel_from_live_journal_main_cpu_ms: round(fromJournal.first.mainCpuMs),
        travel_from_live_journal_again_ms: round(fromJournal.again.ms),
        travel_from_live_journal_again_cpu_ms: round(fromJournal.again.cpuMs),
        travel_from_live_journal_again_main_cpu_ms: round(fromJournal.again.mainCpuMs),
        travel_from_live_fed_ms: round(fed.first.ms),
        travel_from_live_fed_cpu_ms: round(fed.first.cpuMs),
        travel_from_live_fed_main_cpu_ms: round(fed.first.mainCpuMs),
        journal_feed_ms: round(warmFeed.ms),
        journal_feed_cpu_ms: round(warmFeed.cpuMs),
        journal_feed_main_cpu_ms: round(warmFeed.mainCpuMs),
        export_range_ms: round(exported.ms),
        export_range_cpu_ms: round(exported.cpuMs),
        export_range_changes: exported.changes,
        export_range_bytes_per_change: round(exported.bytes / exported.changes),
        travel_export_cold_ms: round(inExport.ms),
        travel_export_cold_cpu_ms: round(inExport.cpuMs),
      },
      goals: [
        atMost('travel: any moment, cold, at most 1 s', cold.ms, 1_000, ' ms'),
        atMost('travel: a nearby moment at most 1 s', nearby.ms, 1_000, ' ms'),
        atMost('export: a range starting mid-recording at most 10 s', exported.ms, 10_000, ' ms'),
      ],
      notes: [
        `travel: ${pods} pods listed then ${pods} changes at 2,000/s of recorded time; rows of a moment in the last quarter (cold), 2 s later (nearby), then the middle (far)`,
        'travel_nearby, travel_far: asked against the moment before (held whole, as a replay holds it), the worker sends only the rows that differ (*_rows_sent) and the keys it lacks',
        'travel_warmed: the cold moment asked of another worker, after its timeline had it decode the newest row frames (prewarm, awaited); travel_cold has nothing decoded ahead',
        "travel_from_live: 10 s before the end, against the rows of the end (a page watching live holds them), in a prewarmed worker: the worker compares (main lists the live rows' versions as text, session 11's way, which the app no longer takes: the worker now reads it into a map; *_main_cpu_ms is this thread's own CPU) or, on_main, main compares every row (the way before)",
        "travel_from_live_journal: the same, the live rows' identities read by the worker from their journal (SentRows' batches): first every row's line, again (a second travel) only what it has not read",
        "travel_from_live_fed: the journal's first travel after LiveJournalFeed fed it to the worker ahead (as each timeline question does), a piece per task, the last compared with the newest state (journal_feed_*: that feed, off the click's path)",
        'travel: *_cpu_ms is the CPU this process used (query worker and main thread), steadier than wall time on a shared machine',
        'export_range: the recording from 80% to 90% of its span, exported by exportInWorker; every pod live at the start stands alone in the file',
        'travel_export_cold: the first travel in that exported file, to the middle of its range (as an imported recording travels)',
      ],
    };
  } finally {
    clearInterval(keepAlive);
    queries.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

/**
 * Issue 12's demanding export, "the last few minutes" of a big cluster: the range from 80% to 90% of
 * the recording, by the export's worker thread. Each pod live at its start whose version was stored
 * against an earlier change is rewritten whole. CPU is this process's (the export worker's; this
 * thread waits).
 */
async function timeRangeExport(
  file: string,
  destination: string,
  start: number,
  end: number,
): Promise<{ ms: number; cpuMs: number; changes: number; bytes: number }> {
  const begun = performance.now();
  const cpuBefore = process.cpuUsage();
  const summary = await exportInWorker(file, destination, {
    from: Math.floor(start + (end - start) * 0.8),
    to: Math.floor(start + (end - start) * 0.9),
  });
  const cpu = process.cpuUsage(cpuBefore);
  const ms = performance.now() - begun;
  return {
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    changes: summary.changes,
    bytes: statSync(destination).size,
  };
}

/** Lists `pods` pods, then changes them `pods` times at random; returns the recorded span. */
export function writeTravelRecording(file: string, pods: number): { start: number; end: number } {
  const start = Date.UTC(2026, 10, 30, 8);
  const database = openForWriting(file, 'bench', start);
  const writer = new RecordingWriter(database);
  const stream = writer.stream({ gvr: 'pods.v1', scope: '' });
  writer.resetStream(stream);
  writer.writeKeyframe(stream, start);
  const current: KubeObject[] = [];
  let random = 7;
  const nextRandom = () => (random = (random * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  let written = 0;
  const write = (object: KubeObject, type: 'Added' | 'Updated') => {
    const time = Math.floor(start + written++ * changeSpacingMs);
    const key = `${object.metadata.namespace}/${object.metadata.name}`;
    writer.writeChange({ time, stream, type, finalStateUnknown: false, object, key });
    if (written % keyframeEvery === 0) writer.writeKeyframe(stream, time);
    // A recorder writes a batch every 100 ms or so, the frames due at its end.
    if (written % framesCheckedEvery === 0) writer.writeRowFramesDue(time);
  };
  for (let first = 0; first < 2 * pods; first += batchSize) {
    writer.transaction(() => {
      for (let index = first; index < Math.min(2 * pods, first + batchSize); index++) {
        if (index < pods) {
          const pod = realisticPod(`app${index % 500}-7d9f8c6b5-${index}`, `ns-${index % 100}`);
          pod.metadata.resourceVersion = String(index + 1);
          current.push(pod);
          write(pod, 'Added');
        } else {
          const which = Math.floor(nextRandom() * pods);
          write((current[which] = nextVersion(current[which], index, index + 1)), 'Updated');
        }
      }
    });
  }
  database.close();
  return { start, end: Math.floor(start + written * changeSpacingMs) };
}
