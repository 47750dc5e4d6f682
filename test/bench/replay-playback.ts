// Playback at production settings on the real clock, run by hand (not part of npm test or npm run
// bench): `npx tsx test/bench/replay-playback.ts [--pods 1000] [--rate 100] [--seconds 120]
// [--list-seconds 0] [--from-seconds 0] [--speeds 10,100] [--page-rows 8000] [--live-base]`.
// Writes a recording of --pods realistic pods (managedFields included) changing --rate times a second
// for --seconds, then plays it through a ReplaySubscription at each speed with the default frame
// (100 ms), budget (50 ms) and jump lag, acknowledging batches as a renderer would (one frame every
// 16 ms applying at most --page-rows rows, 8,000 as the page's MirrorStore does; fewer for a page
// slower to take rows in, as at 150,000 pods), and prints the view clock's rate
// against the wall clock, the moment's error after the first 5 s (the ui bench's measure), the
// longest wall time between cursor moves, how many cursors said the playback was catching up or
// rebuilding (a jump), the longest timer callback (a frame of the player's work, or a flush) and the
// longest event-loop stall (perf_hooks) while playing. With --list-seconds the pods are listed over
// the recording's first seconds (a burst, as the initial list is, inside a listing gap as the recorder
// marks it) and played from the recording's start, before the list (or --from-seconds after it).
// --live-base: the page also mirrors the pods live (the recording's last moment, as a live subscription
// sent it) and the travel names them as its base, as the app's page does; the script then also prints
// how many rows (and bytes of batches) went out before the first move. Goals (issue 12): N x within
// 10%, no stall over 250 ms.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { Clock, Timer } from '../../main/cache/clock';
import { realClock } from '../../main/cache/real-clock';
import { decodeRows } from '../../main/bridge/encoded-rows';
import { HistorySource } from '../../main/bridge/history-source';
import { ReplaySubscription } from '../../main/bridge/history-replay';
import type { ReplayBase } from '../../main/bridge/history-replay';
import { BatchStream } from '../../main/bridge/batch-stream';
import { threadCpuMs } from '../../main/history/thread-cpu-time';
import type { Row } from '../../shared/protocol/row';
import { HistoryQueries } from '../../main/history/history-queries';
import { RowProjector } from '../../main/bridge/row-projection';
import { messageValue } from '../../main/bridge/outgoing-message';
import { printerFor } from '../../shared/kinds/columns';
import { RecordingWriter } from '../../main/history/recording-writer';
import { openForWriting } from '../../main/history/schema';
import type { KubeObject } from '../../shared/kube/object';
import type { HistoryCursorMessage } from '../../shared/protocol';
import type { DeltaBatch } from '../../shared/protocol/server-messages';
import { realisticPod, tempDirectory } from '../unit/history/fixtures';

const { values } = parseArgs({
  options: {
    pods: { type: 'string', default: '1000' },
    rate: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '120' },
    'list-seconds': { type: 'string', default: '0' },
    'from-seconds': { type: 'string', default: '0' },
    speeds: { type: 'string', default: '10,100' },
    'page-rows': { type: 'string', default: '8000' },
    'live-base': { type: 'boolean', default: false },
  },
});
const podCount = Number(values.pods);
const rate = Number(values.rate);
const seconds = Number(values.seconds);
const listMs = Number(values['list-seconds']) * 1000;
/** Where playback starts, after the recording's start (past the list: under churn alone). */
const fromMs = Number(values['from-seconds']) * 1000;
const speeds = values.speeds.split(',').map(Number);
/** Rows the modelled page applies a frame (a batch at least). */
const pageRows = Number(values['page-rows']);
/** The ui bench's measure: how far the moment moved in this much wall time, from the first cursor. */
const windowMs = 5_000;

/** A change to write: the pod's version at `time` (Added when first listed). */
interface PodChange {
  readonly time: number;
  readonly type: 'Added' | 'Updated';
  readonly pod: KubeObject;
}

/** The list (over listMs after the start, or all at the start), then `rate` updates a second. */
function* podChanges(start: number): Generator<PodChange> {
  const pods = Array.from({ length: podCount }, (_, index) =>
    realisticPod(`web-${index}-x7k2p`, `ns-${index % 20}`),
  );
  let resourceVersion = 1;
  for (const [index, pod] of pods.entries()) {
    pod.metadata.resourceVersion = String(resourceVersion++);
    const time = listMs > 0 ? start + 1 + Math.floor((index * listMs) / podCount) : start;
    yield { time, type: 'Added', pod };
  }
  for (let index = 0; index < rate * seconds; index++) {
    const previous = pods[index % podCount]!;
    const pod: KubeObject = {
      ...previous,
      metadata: {
        ...previous.metadata,
        resourceVersion: String(resourceVersion++),
        labels: { ...previous.metadata.labels, step: String(index) },
      },
    };
    pods[index % podCount] = pod;
    yield { time: start + listMs + Math.round(((index + 1) * 1000) / rate), type: 'Updated', pod };
  }
}

/**
 * Writes the recording as the recording worker does: a transaction per second of recorded time (at
 * most 5,000 changes), then the row frames due and a keyframe every 20,000 changes (its defaults).
 */
function record(file: string, start: number): number {
  const database = openForWriting(file, 'bench', start);
  const writer = new RecordingWriter(database);
  const stream = writer.stream({ gvr: 'pods.v1', scope: '' });
  // As the recorder marks a stream from its start until its first list is in: a listing gap, whose
  // end the list's last pod is stamped just before.
  if (listMs > 0)
    writer.writeMark({ kind: 'gap', reason: 'listing', stream, start, end: start + listMs + 1, detail: '' });
  let batch: PodChange[] = [];
  let sinceKeyframe = 0;
  let end = start;
  const flush = () => {
    writer.transaction(() => {
      for (const { time, type, pod } of batch) {
        writer.writeChange({
          time,
          stream,
          type,
          finalStateUnknown: false,
          object: pod,
          key: `${pod.metadata.namespace}/${pod.metadata.name}`,
        });
      }
      sinceKeyframe += batch.length;
      if (sinceKeyframe >= 20_000) {
        writer.writeKeyframe(stream, end);
        sinceKeyframe = 0;
      }
      writer.writeRowFramesDue(end);
      writer.touch(end);
    });
    batch = [];
  };
  for (const change of podChanges(start)) {
    if (batch.length >= 5_000 || (batch.length > 0 && change.time - batch[0]!.time >= 1_000)) flush();
    batch.push(change);
    end = change.time;
  }
  flush();
  database.close();
  return Math.max(end, start + listMs);
}

const pods = { group: '', version: 'v1', resource: 'pods' };

/** The real clock, timing each timer callback: a player's frame, or a batch stream's flush. */
class TimedClock implements Clock {
  longest = 0;
  now(): number {
    return realClock.now();
  }
  setTimeout(callback: () => void, delayMs: number): Timer {
    return realClock.setTimeout(() => {
      const began = performance.now();
      callback();
      this.longest = Math.max(this.longest, performance.now() - began);
    }, delayMs);
  }
  sleep(delayMs: number, signal?: AbortSignal): Promise<void> {
    return realClock.sleep(delayMs, signal);
  }
}

/**
 * A page's MirrorStore: one frame every 16 ms, applying at most pageRows rows of batches (a larger
 * batch over several frames), each acknowledged once applied.
 */
function pageOf(acknowledge: (seq: number) => void) {
  const waiting: { seq: number; rows: number }[] = [];
  const frames = setInterval(() => {
    let budget = pageRows;
    let last: number | undefined;
    while (waiting.length > 0 && budget > 0) {
      const batch = waiting[0]!;
      const taken = Math.min(batch.rows, budget);
      batch.rows -= taken;
      budget -= taken;
      if (batch.rows > 0) break;
      waiting.shift();
      last = batch.seq;
    }
    if (last !== undefined) acknowledge(last);
  }, 16);
  return {
    receive: (batch: DeltaBatch) =>
      waiting.push({ seq: batch.seq, rows: Math.max(1, batch.upserts.length + batch.deletes.length) }),
    close: () => clearInterval(frames),
  };
}

async function play(source: HistorySource, start: number, end: number, speed: number): Promise<void> {
  const cursors: { wall: number; cursor: HistoryCursorMessage }[] = [];
  /** Rows and bytes of the batches sent since play, until the first move. */
  const sentSincePlay = { rows: 0, bytes: 0, counting: false };
  let done: () => void = () => {};
  const finished = new Promise<void>((resolve) => (done = resolve));
  const clock = new TimedClock();
  const page = pageOf((seq) => replay.acknowledge(seq));
  const replay: ReplaySubscription = new ReplaySubscription({
    subscriptionId: 'bench',
    gvr: pods,
    namespace: '',
    // The app's projector for pods: the worker projects their rows (a CRD's would come as JSON).
    projector: new RowProjector(printerFor(pods)),
    clock,
    send: (outgoing) => {
      const message = messageValue(outgoing);
      if (message.type === 'batch') {
        page.receive(message);
        if (sentSincePlay.counting) {
          sentSincePlay.rows += message.upserts.length + message.deletes.length;
          sentSincePlay.bytes += JSON.stringify(message).length;
        }
      }
      if (message.type !== 'historyCursor') return;
      cursors.push({ wall: performance.now(), cursor: message });
      if (!message.playing && cursors.length > 1 && message.time >= end) done();
    },
  });
  const queries = new HistoryQueries();
  const base = values['live-base'] ? await liveBase(queries, source.file, end, clock) : undefined;
  await replay.showState(queries, source.file, start, base);
  await new Promise((resolve) => setTimeout(resolve, 500));
  cursors.length = 0;
  clock.longest = 0;
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const began = performance.now();
  const cpuBefore = process.cpuUsage();
  const mainBefore = threadCpuMs() ?? NaN;
  let firstMoveMainMs: number | undefined;
  sentSincePlay.counting = true;
  let firstMoveCpuMs: number | undefined;
  const watchFirstMove = setInterval(() => {
    if (!cursors.some((entry) => entry.cursor.playing && entry.cursor.time !== start)) return;
    sentSincePlay.counting = false;
    const used = process.cpuUsage(cpuBefore);
    firstMoveCpuMs = (used.user + used.system) / 1000;
    firstMoveMainMs = (threadCpuMs() ?? NaN) - mainBefore;
    clearInterval(watchFirstMove);
  }, 5);
  await replay.play(queries, source.file, speed);
  const starting = performance.now() - began;
  await finished;
  delay.disable();
  replay.close();
  page.close();
  queries.close();
  const wall = performance.now() - began;
  const moving = cursors.filter((entry) => entry.cursor.playing);
  let longest = 0;
  for (let index = 1; index < moving.length; index++)
    longest = Math.max(longest, moving[index]!.wall - moving[index - 1]!.wall);
  // The ui bench's measure: from the first cursor that moved (playing starts there: the clock is held
  // at the moment played from until its first stretch is read), the last one within windowMs.
  const first = moving.find((entry) => entry.cursor.time !== start) ?? moving[0]!;
  // The longest the moment stood still once playing, as the ui bench samples it.
  let still = first;
  let stillMax = 0;
  for (const entry of moving) {
    if (entry.wall < first.wall) continue;
    if (entry.cursor.time !== still.cursor.time) still = entry;
    stillMax = Math.max(stillMax, entry.wall - still.wall);
  }
  const last = moving.filter((entry) => entry.wall - first.wall <= windowMs).at(-1)!;
  const expected = speed * (last.wall - first.wall);
  const windowError = (Math.abs(last.cursor.time - first.cursor.time - expected) / expected) * 100;
  const whole = (cursor: HistoryCursorMessage) =>
    cursor.total !== undefined && cursor.rebuilt >= cursor.total;
  const rebuilding = moving.filter((entry) => !whole(entry.cursor)).length;
  // A jump: from a cursor reading a moment (no total yet) to the next whole one.
  const jumps: number[] = [];
  let jumped: number | undefined;
  for (const entry of moving) {
    if (entry.cursor.total === undefined && jumped === undefined) jumped = entry.wall;
    if (whole(entry.cursor) && jumped !== undefined) {
      jumps.push(entry.wall - jumped);
      jumped = undefined;
    }
  }
  console.log(
    `${speed}x: ${((end - start) / wall).toFixed(2)}x over ${Math.round(wall)} ms (goal ${speed}x ±10%), ` +
      `error over the first ${Math.round(last.wall - first.wall)} ms ${windowError.toFixed(1)}%, ` +
      `first move ${Math.round(first.wall - began)} ms after play, still at most ${Math.round(stillMax)} ms, ` +
      `longest between cursors ${Math.round(longest)} ms, longest timer callback ${Math.round(clock.longest)} ms, ` +
      `longest event-loop stall ${Math.round(delay.max / 1e6)} ms, ` +
      `${moving.length} cursors (${moving.filter((entry) => entry.cursor.catchingUp).length} catching up, ` +
      `${rebuilding} rebuilding), ${jumps.length} jumps (${jumps.map(Math.round).join(', ')} ms), ` +
      `play() itself ${Math.round(starting)} ms; before the first move ${sentSincePlay.rows} rows sent ` +
      `(${(sentSincePlay.bytes / 1e6).toFixed(1)} MB of batches), this process's CPU ${Math.round(firstMoveCpuMs ?? NaN)} ms ` +
      `(this thread's ${Math.round(firstMoveMainMs ?? NaN)} ms: the batches parsed as a page would)`,
  );
}

/**
 * The pods mirrored live, as the page holds them: the recording's last moment, sent by a live
 * subscription's stream (acknowledged at once), named as the travel's base.
 */
async function liveBase(
  queries: HistoryQueries,
  file: string,
  end: number,
  clock: Clock,
): Promise<ReplayBase> {
  const rows: Row[] = [];
  await queries.stateRows(file, { gvr: 'pods.v1', time: end }, end, (chunk) => {
    for (const row of decodeRows(chunk)) rows.push(row);
  });
  const live: BatchStream = new BatchStream({
    subscriptionId: 'live',
    clock,
    send: (outgoing) => {
      const message = messageValue(outgoing);
      if (message.type === 'batch') queueMicrotask(() => live.acknowledge(message.seq));
    },
  });
  live.snapshot(rows);
  // Its rows serve as a base once the snapshot has ended (every batch sent).
  for (;;) {
    const base = live.baseRows();
    if (base !== undefined) {
      base.release();
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { subscriptionId: 'live', rows: () => live.baseRows() };
}

const directory = tempDirectory();
// The history query worker is unref'd (it never keeps an app alive): while this script waits on it,
// nothing else would, and Node would exit mid-benchmark.
const keepAlive = setInterval(() => {}, 60_000);
try {
  const start = Date.now() - 3_600_000;
  const file = directory.file('playback.kubetide');
  const writing = performance.now();
  const end = record(file, start);
  console.log(
    `recorded ${podCount} pods and ${rate * seconds} changes over ${seconds} s in ${Math.round(performance.now() - writing)} ms`,
  );
  const source = new HistorySource({ file, context: 'bench' });
  for (const speed of speeds) await play(source, start + fromMs, end, speed);
} finally {
  clearInterval(keepAlive);
  directory.remove();
}
