// By hand (issue 12): the recording's start-up gap, event by event from the backend's start.
//
//   npx tsx test/bench/recording-start.ts [--pods 50000] [--churn 2000] [--wait 180] [--driver cdp]
//
// Seeds the ui bench's cluster, starts Kubetide in browser mode in this process (recording on, as the
// app), opens the page and waits for its "synced", then turns the churn on (as the ui bench does) and
// waits until every recorded stream's listing gap is closed in the file (its gap-close mark written by
// the recording worker), or --wait seconds. It prints, in ms from the backend's start: the pods feed's
// phases, the page's first rows and synced, the hold on whole caches released (the later kinds
// started), each later kind's feed synced, and for every stream its whole-cache record started
// (list-start queued), its last slice queued (gap-close queued) and written (the worker's reply for
// that batch); beside each, the main thread's CPU, the recording worker's (the CPU its replies count:
// reading, encoding, compressing, SQLite, row frames) and the recorder's written / queued changes.
// Between the events, it says per phase where the CPU went: the main thread's time in whole-cache
// slices (wall time inside CaptureQueue's forced appends, each an object serialized into the batch)
// and the worker's per change written.
import { parseArgs } from 'node:util';
import { gvrKey } from '../../shared/kube/object';
import type { CaptureQueue } from '../../main/history/capture-queue';
import type { RecordingChannel } from '../../main/history/recording-channel';
import type { RecordingReply } from '../../main/history/recording-protocol';
import { parseDriver, UiBenchSession } from './ui-session';
import { threadCpu } from './thread-cpu';
import { startupTimes } from './ui-scenario';

const { values } = parseArgs({
  options: {
    pods: { type: 'string', default: '50000' },
    churn: { type: 'string', default: '2000' },
    wait: { type: 'string', default: '180' },
    driver: { type: 'string' },
  },
});
const pods = Number(values.pods);
const started = performance.now();
const log = (message: string) =>
  console.log(`${((performance.now() - started) / 1000).toFixed(1)} s ${message}`);

interface Moment {
  readonly at: number;
  readonly what: string;
  readonly mainMs: number;
  readonly workerMs: number;
  readonly written: number;
  readonly buffered: number;
  /** Main thread wall time in forced appends (whole-cache records) so far. */
  readonly sliceMs: number;
}

const session = await UiBenchSession.start(pods, log);
try {
  const backendStart = performance.now();
  const mode = await session.startBackend(true);
  const clusterSession = mode.backend.host.session;
  const recorder = clusterSession.recording?.recorder;
  if (!recorder) throw new Error('the backend records nothing');
  const insides = recorder as unknown as { queue: CaptureQueue; channel: RecordingChannel };
  const { queue, channel } = insides;
  const mainCpu = () => threadCpu().find((thread) => thread.id === process.pid)?.ms ?? 0;
  let sliceMs = 0;
  let forced = 0;
  const moments: Moment[] = [];
  const note = (what: string) => {
    const stats = recorder.stats();
    moments.push({
      at: performance.now() - backendStart,
      what,
      mainMs: mainCpu(),
      workerMs: stats.writeCpuMs ?? Number.NaN,
      written: stats.changesWritten,
      buffered: stats.buffered,
      sliceMs,
    });
  };
  note('backend started');

  // Whole-cache records: every forced change (a Replaced of a cache recorded whole), timed.
  const appendObjectChange = queue.appendObjectChange.bind(queue);
  queue.appendObjectChange = (time, stream, code, key, object, force) => {
    if (!force) return appendObjectChange(time, stream, code, key, object, force);
    const before = performance.now();
    const bytes = appendObjectChange(time, stream, code, key, object, force);
    sliceMs += performance.now() - before;
    forced++;
    return bytes;
  };
  // Marks: each stream's name, its listing gap, its record's start and end, and the batch each is in.
  const streamNames = new Map<number, string>();
  const gapStreams = new Map<number, number>();
  /** Batch sequence -> what to note once the worker has written it. */
  const awaitingWrite = new Map<number, string[]>();
  const nextSequence = () => (channel as unknown as { sequence: number }).sequence + 1;
  const openGaps = new Set<number>();
  const otherGaps = new Set<number>();
  const appendMark = queue.appendMark.bind(queue);
  queue.appendMark = (text) => {
    appendMark(text);
    const mark = JSON.parse(text) as Record<string, unknown>;
    if (mark.mark === 'stream') streamNames.set(mark.stream as number, mark.gvr as string);
    const name = (stream: unknown) =>
      typeof stream === 'string' ? stream : (streamNames.get(stream as number) ?? `stream ${String(stream)}`);
    if (mark.mark === 'gap-open' && (mark.reason === 'listing' || mark.reason === 'relisting')) {
      gapStreams.set(mark.gap as number, mark.stream as number);
      openGaps.add(mark.gap as number);
      note(`${name(mark.stream)}: ${String(mark.reason)} gap opened`);
    } else if (mark.mark === 'gap-open') {
      otherGaps.add(mark.gap as number);
      note(`${name(mark.stream)}: ${String(mark.reason)} gap opened (${String(mark.detail)})`);
    } else if (mark.mark === 'list-start') {
      note(`${name(mark.stream)}: whole-cache record started (forced so far ${forced})`);
    } else if (
      mark.mark === 'gap-close' &&
      (gapStreams.has(mark.gap as number) || !otherGaps.has(mark.gap as number))
    ) {
      // A gap opened before this hook (the first kind's, attached as the backend started) is its listing gap.
      const stream = gapStreams.get(mark.gap as number) ?? 'the first kind';
      note(`${name(stream)}: gap-close queued (forced so far ${forced})`);
      const sequence = nextSequence();
      awaitingWrite.set(sequence, [
        ...(awaitingWrite.get(sequence) ?? []),
        `${name(stream)}: gap-close written`,
      ]);
      gapStreams.delete(mark.gap as number);
      openGaps.delete(mark.gap as number);
    }
  };
  let writtenCloses = 0;
  channel.process.onReply((reply: RecordingReply) => {
    if (reply.type !== 'written') return;
    // Later in the same turn than the channel's own listener, so stats() counts this batch.
    for (const [sequence, notes] of awaitingWrite) {
      if (sequence > reply.sequence) continue;
      awaitingWrite.delete(sequence);
      for (const what of notes) {
        note(what);
        writtenCloses++;
      }
    }
  });

  // Feeds' phases and the later kinds' start, looked at every 50 ms.
  const phases = new Map<string, string>();
  let laterStarted = false;
  const sample = () => {
    for (const feed of clusterSession.feeds.feeds()) {
      const state = feed.syncState();
      const key = gvrKey(feed.gvr);
      if (phases.get(key) === state.phase) continue;
      phases.set(key, state.phase);
      note(`${key} feed ${state.phase}`);
    }
    const pending = (clusterSession as unknown as { recordedKindsPending: boolean }).recordedKindsPending;
    if (!pending && !laterStarted) {
      laterStarted = true;
      note('hold released, later kinds started');
    }
  };
  const watch = setInterval(sample, 50);

  const browser = await session.openBrowser(parseDriver(values.driver));
  const page = await browser.newPage();
  const navigation = performance.now();
  await page.goto(mode.launchUrl());
  const startup = await startupTimes(page);
  moments.push({
    ...moments.at(-1)!,
    at: navigation - backendStart + startup.firstRows,
    what: 'page: first rows (CPU columns: a later look)',
  });
  note('page: synced; churn on');
  await session.cluster.setChurn(Number(values.churn));
  const deadline = performance.now() + Number(values.wait) * 1000;
  // Every kind's listing gap written closed, after the later kinds started.
  while (performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    if (laterStarted && openGaps.size === 0 && awaitingWrite.size === 0 && writtenCloses > 0) break;
  }
  clearInterval(watch);
  note(openGaps.size === 0 && awaitingWrite.size === 0 ? 'every listing gap written closed' : 'gave up');
  await session.cluster.setChurn(0);
  moments.sort((a, b) => a.at - b.at);
  const rows = moments.map((moment, index) => {
    const previous = moments[index - 1] ?? moment;
    const delta = (value: number, before: number) => ((value - before) / 1000).toFixed(2).padStart(6);
    return (
      `${(moment.at / 1000).toFixed(2).padStart(7)} s  main ${(moment.mainMs / 1000).toFixed(2).padStart(6)} ` +
      `(+${delta(moment.mainMs, previous.mainMs)}, slices +${delta(moment.sliceMs, previous.sliceMs)})  ` +
      `worker ${(moment.workerMs / 1000).toFixed(2).padStart(6)} (+${delta(moment.workerMs, previous.workerMs)})  ` +
      `written ${String(moment.written).padStart(7)} queued ${String(moment.buffered).padStart(7)}  ${moment.what}`
    );
  });
  console.log(
    [
      `pods ${pods}, churn ${values.churn}/s from the page's synced; first rows ${Math.round(startup.firstRows)} ms, ` +
        `synced ${Math.round(startup.synced)} ms from navigation (${Math.round(navigation - backendStart)} ms after the backend's start)`,
      `forced appends (whole caches): ${forced}, ${(sliceMs / 1000).toFixed(2)} s of main's wall time`,
      'ms from the backend start; CPU s so far (+ since the row before): main thread, its slices, recording worker',
      ...rows,
    ].join('\n'),
  );
} finally {
  await session.close();
}
