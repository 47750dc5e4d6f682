// Playback through a list's burst (issue 12): thousands of pods listed within one recorded second,
// played at 10x on an injected clock against a query worker that takes the time the real one takes
// (answering in order: a change read ahead costs 50 µs, a moment's row rebuilt from row frames 5 µs),
// while main is charged for every row it sends. Read change by change, the burst alone would hold
// the moment a second behind the view clock; the player jumps over it instead.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Clock, Timer } from '../../../main/cache/clock';
import { FakeClock } from '../../../main/cache/fake-clock';
import { HistoryQueries } from '../../../main/history/history-queries';
import type { MomentSize } from '../../../main/history/history-queries';
import { ReplaySubscription } from '../../../main/bridge/history-replay';
import type { PlayerReads } from '../../../main/bridge/player';
import { RowProjector } from '../../../main/bridge/row-projection';
import { messageValue } from '../../../main/bridge/outgoing-message';
import type { EncodedRows } from '../../../main/bridge/encoded-rows';
import { printerFor } from '../../../shared/kinds/columns';
import { RecordingWriter } from '../../../main/history/recording-writer';
import { openForWriting } from '../../../main/history/schema';
import type { KubeObject } from '../../../shared/kube/object';
import type { HistoryCursorMessage } from '../../../shared/protocol';
import { tempDirectory } from '../history/fixtures';

const pods = { group: '', version: 'v1', resource: 'pods' };
const queries = new HistoryQueries();
afterAll(() => queries.close());
const start = Date.UTC(2026, 10, 30, 12);
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

const speed = 10;
/** Pods listed within one recorded second, from burstAt on. */
const burst = 20_000;
const burstAt = start + 10_000;
/** How long the recordings run, unless a test says otherwise. */
const recordedMs = 30_000;
/** The burst's recording, written once for the tests that play it. */
let burstRecording: { file: string; end: number } | undefined;
/** How long the short span's recording runs on after its burst, in recorded ms. */
const shortTail = 10_000;
const recordedBurst = () => (burstRecording ??= recordBurst(burst, 1));

/** Each test plays seconds of a recording on a loaded machine: bounded, not quick. */
const timeoutMs = 120_000;
/** What the modelled worker and main spend. */
const readChangeMs = 0.05;
const rebuildRowMs = 0.005;
const sendRowMs = 0.005;

function pod(name: string, resourceVersion: number): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'shop', uid: `uid-${name}`, resourceVersion: String(resourceVersion) },
    status: { phase: 'Running' },
  };
}

/**
 * `steady` pods (20) at the start, updated in turn `perTick` times every 100 ms for `recorded` ms,
 * and `listed` pods listed over `listMs` (one second) from `listAt` (burstAt); written a recorded second a transaction with its row frames, as
 * the recording worker writes them. `listing`: the pods' stream is in a listing gap from the start until
 * its list is in (the end of the burst), as when recording starts on a cluster; 'after-recorder-down':
 * not recorded until the list begins, then listing until it is in; 'still-open': listing from the
 * start, the gap never closed (the list still being written when the recording ends).
 */
function recordBurst(
  listed: number,
  perTick: number,
  recorded = recordedMs,
  listing: boolean | 'after-recorder-down' | 'still-open' = false,
  steady = 20,
  listAt = burstAt,
  listMs = 1_000,
): { file: string; end: number } {
  const directory = tempDirectory();
  afterAll(directory.remove);
  const file = directory.file('burst.kubetide');
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
  if (listing === 'after-recorder-down') {
    writer.writeMark({ kind: 'gap', reason: 'not-recording', stream, start, end: listAt, detail: '' });
    writer.writeMark({
      kind: 'gap',
      reason: 'listing',
      stream,
      start: listAt,
      end: listAt + listMs,
      detail: '',
    });
  } else if (listing === 'still-open')
    writer.writeMark({ kind: 'gap', reason: 'listing', stream, start, end: undefined, detail: '' });
  else if (listing)
    writer.writeMark({ kind: 'gap', reason: 'listing', stream, start, end: listAt + listMs, detail: '' });
  for (let second = 0; second * 1_000 <= recorded; second++) {
    const from = start + second * 1_000;
    writer.transaction(() => {
      if (second === 0) for (let index = 0; index < steady; index++) write(start, `steady-${index}`, 'Added');
      for (let tick = from + 100; tick <= from + 1_000 && tick <= start + recorded; tick += 100) {
        if (tick >= listAt && tick < listAt + listMs) {
          const first = Math.round(((tick - listAt) / listMs) * listed);
          const last = Math.round(((tick + 100 - listAt) / listMs) * listed);
          for (let index = first; index < last; index++) write(tick, `listed-${index}`, 'Added');
        }
        for (let change = 0; change < perTick; change++)
          write(tick, `steady-${resourceVersion % steady}`, 'Updated');
      }
      writer.writeRowFramesDue(from + 1_000);
      writer.touch(Math.min(from + 1_000, start + recorded));
    });
  }
  database.close();
  return { file, end: start + recorded };
}

/** The wall clock of a busy main thread: timers fire on the fake clock, and work moves it on. */
class WorkingClock implements Clock {
  private worked = 0;
  /** Work done in each timer callback and each worker reply handled, in ms. */
  readonly tasks: number[] = [];
  constructor(readonly fake: FakeClock) {}
  work(ms: number): void {
    this.worked += ms;
  }
  now(): number {
    return this.fake.now() + this.worked;
  }
  /** Runs `task` and what it queued (its promises' continuations), noting the work they did. */
  async run(task: () => void): Promise<void> {
    const before = this.worked;
    task();
    await new Promise((resolve) => setImmediate(resolve));
    this.tasks.push(this.worked - before);
  }
  setTimeout(callback: () => void, delayMs: number): Timer {
    return this.fake.setTimeout(() => {
      const before = this.worked;
      callback();
      this.tasks.push(this.worked - before);
    }, delayMs);
  }
  sleep(delayMs: number, signal?: AbortSignal): Promise<void> {
    return this.fake.sleep(delayMs, signal);
  }
}

/**
 * The query worker as main sees it: the real answers, each handed over once the modelled worker,
 * answering in order, would have finished it. `settle` waits for the real answers asked so far;
 * `deliver` hands over those due by now.
 */
class ModelledWorker {
  private busyUntil = 0;
  private readonly asked: Promise<unknown>[] = [];
  private readonly answers: { due: number; deliver: () => void }[] = [];

  constructor(private readonly clock: WorkingClock) {}

  /** Playbacks opened and not yet closed, nor read to their end. */
  readonly open = new Set<number>();

  readonly reads: PlayerReads = {
    openPlayback: (file, query) =>
      this.model(queries.openPlayback(file, query), (span) => (this.open.add(span.id), 1)),
    playbackChanges: (id, max, now) =>
      this.model(queries.playbackChanges(id, max, now), (page) => {
        if (page.done) this.open.delete(id);
        return page.changes.length * readChangeMs;
      }),
    closePlayback: (id) => {
      this.open.delete(id);
      queries.closePlayback(id);
    },
    stateAt: () => Promise.reject(new Error('pods are projected in the worker')),
    stateRows: (file, query, now, onRows, onMoment) => {
      const chunks: EncodedRows[] = [];
      let size: MomentSize | undefined;
      const moment = queries.stateRows(
        file,
        query,
        now,
        (rows) => chunks.push(rows),
        (found) => (size = found),
      );
      return this.model(
        moment,
        () => (size?.total ?? 0) * rebuildRowMs,
        () => {
          if (size) onMoment?.(size);
          for (const rows of chunks) onRows(rows);
        },
      );
    },
  };

  private model<T>(answer: Promise<T>, cost: (value: T) => number, before?: () => void): Promise<T> {
    const asked = this.clock.now();
    this.asked.push(answer);
    return new Promise<T>((resolve, reject) => {
      answer.then(
        (value) => {
          this.busyUntil = Math.max(asked, this.busyUntil) + cost(value);
          this.answers.push({ due: this.busyUntil, deliver: () => (before?.(), resolve(value)) });
        },
        (error: unknown) => {
          this.busyUntil = Math.max(asked, this.busyUntil);
          this.answers.push({ due: this.busyUntil, deliver: () => reject(error) });
        },
      );
    });
  }

  /** The worker's thread stalls `ms` from now, as main's does (a machine busy elsewhere). */
  pause(ms: number): void {
    this.busyUntil = Math.max(this.busyUntil, this.clock.now()) + ms;
  }

  async settle(): Promise<void> {
    while (this.asked.length > 0) await this.asked.shift()!.catch(() => undefined);
    // The answers' own continuations (which queue them) run after the awaits above.
    await new Promise((resolve) => setImmediate(resolve));
  }

  async deliver(): Promise<void> {
    while (this.answers.length > 0 && this.answers[0]!.due <= this.clock.now()) {
      // The player's continuation (and what it asks next) runs before the next answer.
      await this.clock.run(this.answers.shift()!.deliver);
    }
  }
}

/** The pods' resourceVersions by key at `time`, as the recording says. */
async function stateAt(file: string, time: number): Promise<Map<string, string>> {
  const state = new Map<string, string>();
  await queries.stateAt(file, { gvr: 'pods.v1', time }, (objects) => {
    for (const object of objects)
      state.set(`${object.metadata.namespace}/${object.metadata.name}`, object.metadata.resourceVersion!);
  });
  return state;
}

interface Played {
  readonly seen: { wall: number; cursor: HistoryCursorMessage; rows?: Map<string, string> }[];
  /** When play resolved (the first page read). */
  readonly began: number;
  /**
   * The first cursor that moved from the moment played from: playing starts there, as the ui bench
   * measures it (before it, the clock is held while the first stretch is read).
   */
  readonly first: { readonly wall: number; readonly time: number };
  /** Work done in each timer callback and each worker reply handled, in ms. */
  readonly tasks: number[];
  /** The worker's playbacks opened and not closed (a closed one may have ended by itself). */
  readonly open: ReadonlySet<number>;
}

/**
 * Plays `file` from `from` to its end at 10x, acknowledging every batch at once; every third whole
 * moment shown keeps a copy of the page's rows. `pauseAt`: main and the worker stall 1.5 s once,
 * that far into the playback (the machine busy elsewhere); `pauseAfterFirstMove`: as much, that far
 * after the cursor first moves. `stopOnJump`: the user stops the playback
 * as soon as it jumps, and the worker's answers are then handed over until none is left.
 */
async function playThrough(
  file: string,
  from: number,
  end: number,
  options: {
    pauseAt?: number;
    pauseAfterFirstMove?: number;
    stopOnJump?: boolean;
    pageRowsPerMs?: number;
  } = {},
): Promise<Played> {
  const { pauseAt, pauseAfterFirstMove, stopOnJump } = options;
  const clock = new WorkingClock(new FakeClock(end + 60_000));
  const worker = new ModelledWorker(clock);
  /** The page's rows, key -> resourceVersion, as the batches leave them. */
  const mirror = new Map<string, string>();
  const seen: Played['seen'] = [];
  let lastSeq = 0;
  /**
   * The page: with pageRowsPerMs, each batch is acknowledged once the page, applying that many rows a
   * ms one batch after the other, has applied it; else at once.
   */
  const applied: { seq: number; due: number }[] = [];
  let pageBusyUntil = 0;
  const acknowledge = () => {
    while (applied.length > 0 && applied[0]!.due <= clock.now()) lastSeq = applied.shift()!.seq;
    replay.acknowledge(lastSeq);
  };
  const replay = new ReplaySubscription({
    subscriptionId: 'burst',
    gvr: pods,
    namespace: '',
    projector: new RowProjector(printerFor(pods)),
    clock,
    send: (outgoing) => {
      const message = messageValue(outgoing);
      if (message.type === 'batch') {
        clock.work((message.upserts.length + message.deletes.length) * sendRowMs);
        if (message.replace) mirror.clear();
        for (const row of message.upserts) mirror.set(row.key, row.resourceVersion);
        for (const key of message.deletes) mirror.delete(key);
        const rows = message.upserts.length + message.deletes.length;
        if (options.pageRowsPerMs === undefined) lastSeq = message.seq;
        else {
          pageBusyUntil = Math.max(pageBusyUntil, clock.now()) + rows / options.pageRowsPerMs;
          applied.push({ seq: message.seq, due: pageBusyUntil });
        }
      } else if (message.type === 'historyCursor') {
        const whole = message.total !== undefined && message.rebuilt >= message.total;
        const compared = whole && !message.catchingUp && seen.length % 3 === 0;
        seen.push({ wall: clock.now(), cursor: message, ...(compared ? { rows: new Map(mirror) } : {}) });
      }
    },
  });
  cleanups.push(() => replay.close());
  await replay.showState(queries, file, from);
  // The moment played from is on the page before playing starts.
  lastSeq = applied.splice(0).at(-1)?.seq ?? lastSeq;
  replay.acknowledge(lastSeq);
  seen.length = 0;
  clock.tasks.length = 0;
  // The view clock starts once the first page is read (play resolves then).
  let began: number | undefined;
  void replay.play(worker.reads, file, speed).then(() => (began = clock.now()));
  let paused = pauseAt === undefined && pauseAfterFirstMove === undefined;
  const firstMove = () => seen.find(({ cursor }) => cursor.playing && cursor.time !== from)?.wall;
  for (let step = 0; step < 20_000 && (began === undefined || replay.playing); step++) {
    await worker.settle();
    await worker.deliver();
    const pauseFrom = pauseAt !== undefined ? began : firstMove();
    const pauseAfter = pauseAt ?? pauseAfterFirstMove!;
    if (!paused && pauseFrom !== undefined && clock.now() - pauseFrom >= pauseAfter) {
      worker.pause(1_500);
      clock.work(1_500);
      paused = true;
    }
    clock.fake.step(5);
    acknowledge();
    if (stopOnJump && seen.some(({ cursor }) => cursor.playing && cursor.total === undefined)) {
      replay.stop();
      for (let after = 0; after < 200; after++) {
        await worker.settle();
        await worker.deliver();
        clock.fake.step(5);
        acknowledge();
      }
      break;
    }
  }
  expect(replay.playing).toBe(false);
  if (began === undefined) throw new Error('playback never started');
  if (!stopOnJump) expect(seen.at(-1)!.cursor).toMatchObject({ time: end, playing: false });
  const moved = seen.find(({ cursor }) => cursor.playing && cursor.time !== from);
  const first = moved ? { wall: moved.wall, time: moved.cursor.time } : { wall: began, time: from };
  return { seen, began, first, tasks: clock.tasks, open: worker.open };
}

/** The whole playback's speed from its first move, as a fraction off 10x. */
function speedError({ seen, first }: Played, end: number): number {
  return Math.abs((end - first.time) / (seen.at(-1)!.wall - first.wall) - speed) / speed;
}

/** The view clock at 10x from the first move, as the ui bench draws its steady line. */
function steadyLine({ first }: Played, end: number): (wall: number) => number {
  return (wall) => Math.min(end, first.time + Math.max(0, wall - first.wall) * speed);
}

/** The longest the cursor stood still while playing, from its first move to the end, in wall ms. */
function longestStill({ seen, first }: Played): number {
  let still = first;
  let longest = 0;
  for (const { wall, cursor } of seen) {
    if (wall < first.wall || !cursor.playing) continue;
    if (cursor.time !== still.time) still = { wall, time: cursor.time };
    longest = Math.max(longest, wall - still.wall);
  }
  return longest;
}

/** Whether the player jumped: a moment rebuilt (read, no total yet) while playing. */
function jumped({ seen }: Played): boolean {
  return seen.some(({ cursor }) => cursor.playing && cursor.total === undefined);
}

describe('playback through a burst', () => {
  it(
    `plays a list of ${burst} pods in one recorded second at ${speed}x within 15% once started, never still over 250 ms, no task over 250 ms, each whole moment shown as recorded`,
    async () => {
      const { file, end } = recordedBurst();
      // From just before the burst, as from a recording's start: nothing of it is read ahead yet.
      const from = burstAt - 500;
      const played = await playThrough(file, from, end);
      // The burst is within the first stretch played: the clock is held at the moment played from
      // while it is read (a second of the modelled worker), as a video player buffers before its
      // first frame, and then plays on it, held a frame at a time while main applies its 20,000 rows
      // (5 µs each: two frames' budget), which a held clock does not make up afterwards: about 250 ms
      // of this 2.2 s playback.
      expect(played.first.wall - played.began).toBeLessThanOrEqual(2_000);
      expect(speedError(played, end)).toBeLessThanOrEqual(0.15);
      expect(longestStill(played)).toBeLessThanOrEqual(250);
      // The moment is never more than 300 ms of wall time behind the view clock (read change by
      // change, the burst's 20,000 reads alone are a second of the worker: 780 ms behind).
      const lags = played.seen
        .filter((entry) => entry.cursor.playing)
        .map(({ wall, cursor }) => (steadyLine(played, end)(wall) - cursor.time) / speed);
      expect(Math.max(...lags)).toBeLessThanOrEqual(300);
      expect(Math.max(...played.tasks)).toBeLessThanOrEqual(250);
      const compared = played.seen.filter((entry) => entry.rows);
      expect(compared.length).toBeGreaterThanOrEqual(4);
      for (const { cursor, rows } of compared) expect(rows).toEqual(await stateAt(file, cursor.time));
    },
    timeoutMs,
  );

  it(
    `plays a short span ending ${shortTail} ms after a burst to its end, never still over 250 ms, the cursor never ahead of the view clock`,
    async () => {
      const { file, end } = recordBurst(burst, 1, burstAt - start + shortTail);
      const from = burstAt - 500;
      const played = await playThrough(file, from, end);
      const viewClock = steadyLine(played, end);
      // Whether the span ends before the jump's rows are whole or after, the cursor goes no further
      // than the view clock: not to the jump's moment while it is rebuilt (2.5 s of recording ahead at
      // least), nor past the end. The view clock runs from before the cursor's first move (the rows
      // catch up with it), so the line drawn from that move may trail it by up to a step.
      const stepMs = 100 * speed;
      for (const { wall, cursor } of played.seen)
        expect(cursor.time).toBeLessThanOrEqual(viewClock(wall) + stepMs);
      // Its speed is not asked: the frames held while the burst is applied (above) are a fifth of
      // this 1.2 s playback.
      expect(played.first.wall - played.began).toBeLessThanOrEqual(2_000);
      expect(longestStill(played)).toBeLessThanOrEqual(250);
    },
    timeoutMs,
  );

  it(
    'jumps over the list that ends a listing gap before the view clock gets there, never reading it change by change',
    async () => {
      const { file, end } = recordBurst(burst, 1, recordedMs, true);
      const from = burstAt - 500;
      const played = await playThrough(file, from, end);
      // The jump is under way (its moment being read) before the cursor moves (the list is too close
      // to run the clock to: it waits for the rows there), and no frame reads the list change by
      // change, catching up (before: three frames of it, 240 ms behind, before the lag called for a
      // jump once the view clock was 2.6 s past the list).
      const jumpedAt = played.seen.find(({ cursor }) => cursor.playing && cursor.total === undefined)!;
      expect(jumpedAt.wall).toBeLessThanOrEqual(played.first.wall);
      expect(played.first.time).toBeGreaterThanOrEqual(burstAt + 1_000);
      expect(played.seen.some(({ cursor }) => cursor.catchingUp)).toBe(false);
      expect(jumped(played)).toBe(true);
      expect(speedError(played, end)).toBeLessThanOrEqual(0.1);
      expect(longestStill(played)).toBeLessThanOrEqual(250);
      const compared = played.seen.filter((entry) => entry.rows);
      expect(compared.length).toBeGreaterThanOrEqual(4);
      for (const { cursor, rows } of compared) expect(rows).toEqual(await stateAt(file, cursor.time));
    },
    timeoutMs,
  );

  it(
    `plays from the start of a recording whose first seconds list ${burst} pods at ${speed}x within 10%, never still over 250 ms, on a page applying 50 rows a ms`,
    async () => {
      // The list inside the listing gap the recording starts with, as when recording starts on a
      // cluster; played from inside that gap, as the ui bench plays from the recording's start.
      // 5 s of recording from where it is played: further than the first jump's aim (the travel there
      // was quick), so only starting from the list keeps the clock off the burst.
      const listAt = start + 5_000;
      const { file, end } = recordBurst(burst, 1, 15_000, true, 20, listAt);
      const played = await playThrough(file, start + 500, end, { pageRowsPerMs: 50 });
      // The list's moment is the first step, rebuilt before the clock first moves: the clock runs
      // from there, never through the burst (read change by change, or applied 20,000 rows at once by
      // a page taking 400 ms for them, it would stand still while the view clock ran on).
      const jumpedAt = played.seen.find(({ cursor }) => cursor.playing && cursor.total === undefined)!;
      expect(jumpedAt.wall).toBeLessThanOrEqual(played.first.wall);
      expect(played.first.time).toBeGreaterThanOrEqual(listAt + 1_000);
      expect(played.seen.some(({ cursor }) => cursor.catchingUp)).toBe(false);
      expect(speedError(played, end)).toBeLessThanOrEqual(0.1);
      expect(longestStill(played)).toBeLessThanOrEqual(250);
      const compared = played.seen.filter((entry) => entry.rows);
      // (Fewer whole moments than elsewhere: while the page takes the list's rows in, the cursors
      // following are catching up.)
      expect(compared.length).toBeGreaterThanOrEqual(2);
      for (const { cursor, rows } of compared) expect(rows).toEqual(await stateAt(file, cursor.time));
    },
    2 * timeoutMs,
  );

  it(
    `plays from inside a list recorded over 40 s at ${speed}x within 10% from the list's moment, never through the list filling in`,
    async () => {
      // A list recorded at the recording process's pace: at 150,000 pods its objects are stamped as
      // they are written, over tens of recorded seconds, not one. Played from inside its listing gap
      // (as the ui bench plays from a recording's start), its end is further than the pre-roll reaches
      // (40 s at 10x), yet every change before it is the list filling in: the list's moment is the
      // first step. Played through, 1,000 changes a recorded second at 10x held the clock back.
      const listAt = start + 5_000;
      const listMs = 40_000;
      // The same played from the recorder down just before the list's record (the gaps chained).
      for (const listing of [true, 'after-recorder-down'] as const) {
        const { file, end } = recordBurst(40_000, 1, 60_000, listing, 20, listAt, listMs);
        const played = await playThrough(file, start + 500, end);
        const jumpedAt = played.seen.find(({ cursor }) => cursor.playing && cursor.total === undefined)!;
        expect(jumpedAt.wall).toBeLessThanOrEqual(played.first.wall);
        expect(played.first.time).toBeGreaterThanOrEqual(listAt + listMs);
        expect(speedError(played, end)).toBeLessThanOrEqual(0.1);
        expect(longestStill(played)).toBeLessThanOrEqual(250);
      }
    },
    2 * timeoutMs,
  );

  it(
    `plays from inside a list still being recorded at ${speed}x by jumping to the recording's end, never through the list filling in`,
    async () => {
      // The list's record still under way when the playback begins (at 150,000 pods it outlasts a
      // minute on a loaded machine): its gap has no end yet, and everything up to the recording's end
      // is the list filling in, 1,000 pods a recorded second. Played through, a page applying 50 rows
      // a ms fell behind the clock and the playback caught up to its end; the player rebuilds the
      // recording's end instead, the moment holding the most of the list, before the first move.
      const listAt = start + 5_000;
      const { file, end } = recordBurst(40_000, 1, recordedMs, 'still-open', 20, listAt, 40_000);
      const from = start + 500;
      const played = await playThrough(file, from, end, { pageRowsPerMs: 50 });
      // From the moment played from to the end in one step (playThrough: the playback ends there).
      expect(jumped(played)).toBe(true);
      const between = played.seen.filter(({ cursor }) => cursor.time > from && cursor.time < end);
      expect(between.map(({ cursor }) => cursor.time)).toEqual([]);
      expect(played.seen.some(({ cursor }) => cursor.catchingUp)).toBe(false);
      // Shown as the gap it is.
      const last = played.seen.at(-1)!;
      expect(last.cursor.gap).toMatchObject({ reason: 'listing' });
      expect(last.cursor.gap?.end).toBeUndefined();
    },
    2 * timeoutMs,
  );

  it(
    'after a pause of the machine catches the rows up with the clock, 10x within 10% over the playback, rebuilding no moment',
    async () => {
      // 5,000 changes a wall second at 10x, a quarter of what the worker reads. Each change of a step
      // is another pod's (2,000 of them, in turn), so squashing a step to each key's last change
      // leaves all 500 of them. Main and the worker stall 1.5 s a second in (a loaded machine): the
      // clock runs on meanwhile, and the frames after the pause catch the rows up with it (before,
      // the clock was held where the rows stood and played on from there: the pause was lost, 15 s of
      // recording in this 2.8 s playback, 35% slow).
      const { file, end } = recordBurst(0, 50, recordedMs, false, 2_000);
      const from = start + 2_000;
      const played = await playThrough(file, from, end, { pauseAt: 1_000 });
      expect(jumped(played)).toBe(false);
      expect(speedError(played, end)).toBeLessThanOrEqual(0.1);
      const playing = played.seen.filter(({ cursor }) => cursor.playing);
      // Behind the clock after the pause, and saying so, until the rows catch up...
      const behind = playing.findIndex(({ wall, cursor }) => wall > played.first.wall && cursor.catchingUp);
      expect(behind).toBeGreaterThan(0);
      const caughtUp = playing.slice(behind).find(({ cursor }) => !cursor.catchingUp)!;
      expect(caughtUp.wall - playing[behind]!.wall).toBeLessThanOrEqual(500);
      // ...then on the clock's line again: behind it by at most a step (the cursor names step ends,
      // 100 ms of playback) and the pages' round trip after the pause, while every change read was
      // applied and the clock was held for the next ones (buffering: 230 ms here).
      const line = steadyLine(played, end);
      for (const { wall, cursor } of playing.filter(({ wall }) => wall >= caughtUp.wall))
        expect((line(wall) - cursor.time) / speed).toBeLessThanOrEqual(400);
    },
    timeoutMs,
  );

  it(
    `from the start of a recording listing ${burst} pods, on a page taking 2 s for them, plays at 10x within 10% from the list's moment once the page has its rows, never still over 250 ms, the cursor never ahead of the rows sent`,
    async () => {
      // As the ui bench plays from a recording's start: the list's moment rebuilt first, then a page
      // applying 10 rows a ms takes 2 s for its 20,000 rows. The jump lands once the page has them:
      // until then the cursor stays where it was played from (the rebuild's progress shown), then
      // names the list's moment and runs from it at 10x. Before, the clock ran from the list's moment
      // as soon as its rows were read and the cursor stood there while the page took them in (still
      // for 2 s), then raced to catch up.
      const listAt = start + 5_000;
      const { file, end } = recordBurst(burst, 1, recordedMs, true, 20, listAt);
      const played = await playThrough(file, start + 500, end, { pageRowsPerMs: 10 });
      expect(played.first.time).toBeGreaterThanOrEqual(listAt + 1_000);
      expect(speedError(played, end)).toBeLessThanOrEqual(0.1);
      expect(longestStill(played)).toBeLessThanOrEqual(250);
      const compared = played.seen.filter((entry) => entry.rows);
      expect(compared.length).toBeGreaterThanOrEqual(1);
      for (const { cursor, rows } of compared) expect(rows).toEqual(await stateAt(file, cursor.time));
    },
    2 * timeoutMs,
  );

  it(
    'stops where the user stopped it during a jump: the jumped moment whole, nothing read on',
    async () => {
      const { file, end } = recordedBurst();
      const played = await playThrough(file, burstAt - 500, end, { stopOnJump: true });
      const stopped = played.seen.findIndex(({ cursor }) => !cursor.playing);
      expect(stopped).toBeGreaterThan(0);
      expect(played.seen.slice(stopped).every(({ cursor }) => !cursor.playing)).toBe(true);
      // The moment the jump was rebuilding is shown whole, as a travel there would show it.
      const last = played.seen.at(-1)!.cursor;
      expect(last.total).toBeGreaterThan(burst / 2);
      expect(last.rebuilt).toBe(last.total);
      expect(played.open.size).toBe(0);
    },
    timeoutMs,
  );
});
