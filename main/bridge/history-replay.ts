// One replay subscription: the rows of (gvr, namespace) as they were at a moment, sent through the same
// BatchStream a live subscription uses (snapshot runs, coalescing, acks, backpressure), so the
// renderer's mirror, filters and indexes work on the past exactly as on the present. Every batch is
// followed by a historyCursor saying how much of the moment has been sent and whether the recording
// saw it, so the renderer never takes a half-sent past for the whole one. Playback runs a view clock
// derived from wall time (moment = start + elapsed × speed), applying per frame the changes it passed,
// which the query worker reads ahead a page at a time: main never reads the recording itself. When the
// moment falls far behind the view clock (a list's burst: thousands of changes in a recorded second),
// the player jumps: it rebuilds the moment at the view clock as a travel does, and plays on from there.
import type { Clock, Timer } from '../cache/clock';
import type { GroupVersionResource } from '../../shared/kube/object';
import { gvrKey } from '../../shared/kube/object';
import type { HistoryStateReply, ReplayGap } from '../../shared/protocol/history-messages';
import type { EncodedRows } from './encoded-rows';
import type { OutgoingBatch, OutgoingMessage } from './outgoing-message';
import { upsertCount } from './outgoing-message';
import { printerFor } from '../../shared/kinds/columns';
import { objectKey } from '../../shared/protocol/row';
import type { Row } from '../../shared/protocol/row';
import type { HistoryQueries, MomentSize, PlaybackChange } from '../history/history-queries';
import type { RecordedChange, RecordingMark } from '../history/recorded-change';
import { BatchStream } from './batch-stream';
import type { BatchStreamOptions } from './batch-stream';
import type { RowProjector } from './row-projection';
import { PlaybackLag } from './playback-lag';
import { PlaybackReadAhead } from './playback-read-ahead';
import type { PlaybackReads } from './playback-read-ahead';

/** What rebuilding a moment asks of the query worker. */
type MomentReads = Pick<HistoryQueries, 'stateRows' | 'stateAt'>;
/** What playback asks of the query worker: its pages of changes, and the moments it jumps to. */
export type PlayerReads = PlaybackReads & MomentReads;

export interface ReplaySubscriptionOptions {
  readonly subscriptionId: string;
  readonly gvr: GroupVersionResource;
  readonly namespace: string;
  readonly projector: RowProjector;
  readonly clock: Clock;
  readonly send: (message: OutgoingMessage) => void;
  readonly bufferedBytes?: () => number;
  readonly batch?: Partial<Omit<BatchStreamOptions, 'subscriptionId' | 'clock' | 'send' | 'bufferedBytes'>>;
  /**
   * Wall time between playback frames, in ms (default 100). Each frame applies the changes the view
   * clock has passed and moves the cursor, so the view never stands still for longer than a frame
   * plus that frame's work.
   */
  readonly frameMs?: number;
  /**
   * Wall time one frame may spend applying changes, in ms (default 50): a relist's burst is spread over
   * frames rather than stalling one (the cursor still moves every frameMs plus this), and the moment
   * shown waits at the last change applied until the frames catch up.
   */
  readonly frameBudgetMs?: number;
  /**
   * How far the moment may fall behind the view clock, in wall ms at the speed played (default 250),
   * before the player stops catching up change by change and jumps: it rebuilds the moment at the view
   * clock, as a travel does, and plays on from there. A burst (the initial list: every pod in a few
   * recorded seconds) costs a jump the size of the moment, not a frame's work per few thousand changes
   * while the view clock runs away. Only for a lag change by change cannot close soon (see
   * PlaybackLag), and never while the renderer is behind (a snapshot would only wait too).
   */
  readonly jumpLagMs?: number;
}

interface Player {
  readonly reads: PlayerReads;
  readonly file: string;
  /**
   * The changes of (gvr, namespace) from startMoment (or the last jump's moment) to end, as the
   * worker reads them; undefined while a jump rebuilds its moment.
   */
  changes: PlaybackReadAhead | undefined;
  readonly speed: number;
  /** The view clock's origin: the moment at `startedAt` on the wall clock. */
  readonly startMoment: number;
  readonly startedAt: number;
  readonly end: number;
  /**
   * How long the last jump took, from its start to its first page read: the next one aims that far
   * ahead of the view clock, so that its moment is about due when its rows are whole. Before the
   * first, the lag that calls for a jump (a jump also waits for the pages already asked for).
   */
  jumpMs: number;
  /** How far the moment has been behind the view clock, frame by frame: when to jump. */
  readonly lag: PlaybackLag;
  /** The recording's gaps over [startMoment, end], for the cursor's gap as the moment moves. */
  readonly marks: readonly RecordingMark[];
  timer?: Timer;
}

export class ReplaySubscription {
  readonly subscriptionId: string;
  readonly gvr: GroupVersionResource;
  readonly namespace: string;
  private readonly stream: BatchStream;
  /** Keys the renderer holds, so a recorded change becomes an add, an update or a delete. */
  private readonly keySet = new Set<string>();
  /**
   * Keys of the moment's chunks not yet in keySet (none of them is): hashed into it only when playback
   * needs them, since most moments are never played and a 150,000-pod one costs main about 0.1-0.3 s
   * to hash.
   */
  private unhashedKeys: (readonly string[])[] = [];
  private unhashedCount = 0;
  private moment = 0;
  private gap: ReplayGap | undefined;
  /** Set while the moment is read (no total yet), then while its snapshot is sent: rows sent, of total. */
  private rebuilding: { rebuilt: number; total?: number } | undefined;
  private player: Player | undefined;
  /**
   * Set when rebuilding the moment failed after some of its rows were sent: the cursor keeps counting
   * them against the moment's total, so the renderer never takes what it holds for the whole moment.
   */
  private cutShort = false;
  /** The moment waits behind the player's view clock (see HistoryCursorMessage.catchingUp). */
  private catchingUp = false;
  private closed = false;
  /** Bumped by each showState, so a slower earlier one does not overwrite a later one. */
  private generation = 0;
  /** Bumped by each play and stop, so a playback still opening when superseded never starts. */
  private playGeneration = 0;

  constructor(private readonly options: ReplaySubscriptionOptions) {
    this.subscriptionId = options.subscriptionId;
    this.gvr = options.gvr;
    this.namespace = options.namespace;
    this.stream = new BatchStream({
      ...options.batch,
      subscriptionId: options.subscriptionId,
      clock: options.clock,
      send: (batch) => this.sent(batch),
      ...(options.bufferedBytes ? { bufferedBytes: options.bufferedBytes } : {}),
    });
  }

  private get jumpLagMs(): number {
    return this.options.jumpLagMs ?? 250;
  }

  /** The moment the rows show. */
  get time(): number {
    return this.moment;
  }

  get playing(): boolean {
    return this.player !== undefined;
  }

  /**
   * Stops any playback and sends the state at `time` as a snapshot, rebuilt by `queries` off the main
   * thread, each chunk passed on to the renderer as it is rebuilt, its progress in cursors. A later
   * showState supersedes one still rebuilding: only the latest moment asked for is sent.
   */
  async showState(queries: HistoryQueries, file: string, time: number): Promise<HistoryStateReply> {
    this.stop(false);
    return this.rebuild(queries, file, time);
  }

  /** showState's rebuild, leaving any playback as it is (a player's jump rebuilds while it plays). */
  private async rebuild(queries: MomentReads, file: string, time: number): Promise<HistoryStateReply> {
    const generation = ++this.generation;
    const shown = { moment: this.moment, gap: this.gap, rebuilding: this.rebuilding };
    // Said first: the renderer knows its moment is being read, not merely asked for.
    this.moment = time;
    this.rebuilding = { rebuilt: 0 };
    this.announce();
    const now = this.options.clock.now();
    const current = () => generation === this.generation && !this.closed;
    let snapshot: ReturnType<BatchStream['openSnapshot']> | undefined;
    let received = 0;
    // The moment's size comes before its rows: the renderer is told "rebuilding 0 of N", and keeps
    // the rows it has until the snapshot's end drops those the moment lacks.
    const begin = (moment: MomentSize) => {
      if (!current()) return;
      this.gap = replayGapOf(moment.gap);
      this.keySet.clear();
      this.unhashedKeys = [];
      this.unhashedCount = 0;
      this.cutShort = false;
      this.rebuilding = { rebuilt: 0, total: moment.total };
      snapshot = this.stream.openSnapshot();
      this.announce();
    };
    // Rows projected in the worker come encoded, and are passed on as they are: only their keys are
    // read here.
    const add = (rows: Row[] | EncodedRows) => {
      if (!current()) return;
      const keys = 'json' in rows ? rows.keys : rows.map((row) => row.key);
      if (!snapshot) begin({ total: keys.length, gap: undefined });
      received += keys.length;
      this.unhashedKeys.push(keys);
      this.unhashedCount += keys.length;
      snapshot!.add(rows);
    };
    let state: Awaited<ReturnType<HistoryQueries['stateAt']>>;
    try {
      const query = { gvr: gvrKey(this.gvr), time, ...(this.namespace ? { namespace: this.namespace } : {}) };
      const projector = this.options.projector;
      // The worker projects with shared/'s printers; a kind printed otherwise (a CRD's columns) is
      // projected here, from its objects.
      state = await (projector.printer === printerFor(this.gvr)
        ? queries.stateRows(file, query, now, add, begin)
        : queries.stateAt(
            file,
            query,
            (objects) => add(objects.map((object) => projector.project(object, now))),
            begin,
          ));
    } catch (error) {
      if (current() && snapshot === undefined) {
        // No row of this moment was sent: the rows are still those of the moment shown before.
        ({ moment: this.moment, gap: this.gap, rebuilding: this.rebuilding } = shown);
        this.announce();
      } else if (current()) {
        // Rows of this moment replaced some of those shown before: the snapshot ends with them, and
        // the cursor goes on counting them short of the moment's total, never saying it is whole.
        this.cutShort = true;
        snapshot!.end();
      }
      throw error;
    }
    const gap = replayGapOf(state.gap);
    const reply = { time, count: received, complete: state.complete, ...(gap ? { gap } : {}) };
    if (!current()) return reply;
    if (!snapshot) begin({ total: 0, gap: state.gap });
    this.gap = gap;
    // Versions that could not be read were left out: the moment is whole with the rows that came.
    this.rebuilding = { rebuilt: this.rebuilding?.rebuilt ?? 0, total: received };
    snapshot!.end();
    return reply;
  }

  /**
   * Plays forward from the current moment to the end of the recording `file` as it is now, the moment
   * advancing at `speed` times the wall clock whatever each frame costs. Resolves once playing, with
   * the first page of changes read; the view clock starts then.
   */
  async play(reads: PlayerReads, file: string, speed: number): Promise<void> {
    this.stop(false);
    const generation = this.playGeneration;
    const from = this.moment;
    const { readAhead, span } = await this.readAhead(reads, file, from, speed);
    if (generation !== this.playGeneration || this.closed) {
      readAhead.close();
      return;
    }
    this.player = {
      reads,
      file,
      changes: readAhead,
      speed,
      startMoment: from,
      startedAt: this.options.clock.now(),
      end: span.end,
      marks: span.marks,
      jumpMs: this.jumpLagMs,
      lag: new PlaybackLag(this.jumpLagMs * speed),
    };
    // Reading ahead goes on from now, not from the first frame: by then the clock has passed a frame
    // of changes, which the first page alone may not hold.
    readAhead.fill();
    this.announce();
    this.scheduleFrame(this.player);
  }

  /** Stops playback where it is (the rows stay at the moment reached). */
  stop(announce = true): void {
    this.playGeneration++;
    const player = this.player;
    if (!player) return;
    player.timer?.stop();
    player.changes?.close();
    this.player = undefined;
    this.catchingUp = false;
    if (announce) this.announce();
  }

  acknowledge(seq: number): void {
    this.stream.acknowledge(seq);
  }

  close(): void {
    this.closed = true;
    this.stop(false);
    this.stream.close();
  }

  /** Frames start every frameMs of wall time: the time a frame worked is taken from the wait after it. */
  private scheduleFrame(player: Player, worked = 0): void {
    const delay = Math.max(0, (this.options.frameMs ?? 100) - worked);
    player.timer = this.options.clock.setTimeout(() => this.frame(player), delay);
  }

  /** Applies the changes up to the view clock's moment (within the frame budget), then moves the cursor. */
  private frame(player: Player): void {
    const changes = player.changes;
    if (this.player !== player || this.closed || !changes) return;
    const elapsed = this.options.clock.now() - player.startedAt;
    const target = Math.min(player.end, player.startMoment + elapsed * player.speed);
    const began = this.options.clock.now();
    const deadline = began + (this.options.frameBudgetMs ?? 50);
    // A renderer still behind with earlier rows (some wait unsent) is given no more: the moment waits
    // until it catches up, rather than the cursor naming a moment ever further from the rows it has.
    const rendererBehind = this.stream.pendingCount > 0 && this.stream.isBehind();
    for (let change = rendererBehind ? undefined : changes.take(target); change;) {
      this.apply(change);
      if (this.options.clock.now() >= deadline) break;
      change = changes.take(target);
    }
    // The rows of the moment go out before its cursor, not up to a flush interval after it.
    this.stream.flush();
    changes.fill();
    const caughtUp = !rendererBehind && changes.reached(target);
    const jumping = player.lag.observe(caughtUp ? 0 : target - this.moment, this.options.clock.now());
    if (jumping && !rendererBehind) {
      void this.jump(player, Math.min(player.end, target + player.jumpMs * player.speed));
      return;
    }
    // Cut short by the budget or by the renderer, or waiting for the next page, the moment stays at
    // the last change applied (apply moved it there): the rows hold that moment, not the target, and
    // the next frames catch up. A jump that aimed ahead holds its moment until the view clock gets
    // there: its rows already hold the changes up to it.
    if (caughtUp) this.moment = Math.max(this.moment, target);
    this.catchingUp = !caughtUp;
    this.gap = gapCovering(player.marks, gvrKey(this.gvr), this.moment);
    if (caughtUp && target >= player.end) {
      this.stop();
      return;
    }
    this.announce();
    this.scheduleFrame(player, this.options.clock.now() - began);
  }

  /**
   * Moves the playback to `time` (about where the view clock will be once the jump is done) by
   * rebuilding that moment, its rows sent as a snapshot with its progress in cursors (still playing),
   * then reads on from it. The view clock runs on meanwhile: the next frames apply what it passed
   * during the rebuild, or hold the moment until it gets there. A stop, a travel or another play
   * meanwhile supersedes the jump; a failure stops the playback where its rows are.
   */
  private async jump(player: Player, time: number): Promise<void> {
    player.changes?.close();
    player.changes = undefined;
    this.catchingUp = false;
    const began = this.options.clock.now();
    const current = () => this.player === player && !this.closed;
    // The changes after the moment are asked for with it: the worker reads their first page once
    // the moment is rebuilt, not a round trip later.
    const reading = this.readAhead(player.reads, player.file, time, player.speed);
    // Its failure is met below, once the moment is rebuilt; until then it is not left unhandled.
    reading.catch(() => {});
    try {
      await this.rebuild(player.reads, player.file, time).catch((error: unknown) => {
        void reading.then(
          ({ readAhead }) => readAhead.close(),
          () => {},
        );
        throw error;
      });
      const { readAhead } = await reading;
      if (!current()) {
        readAhead.close();
        return;
      }
      player.changes = readAhead;
      player.jumpMs = this.options.clock.now() - began;
      player.lag.reset();
      readAhead.fill();
      this.scheduleFrame(player);
    } catch {
      if (current()) this.stop();
    }
  }

  /** Opens the worker's reads of the changes after `from`, resolving with the first page read. */
  private readAhead(reads: PlaybackReads, file: string, from: number, speed: number) {
    const clock = this.options.clock;
    return PlaybackReadAhead.open(
      reads,
      file,
      {
        from,
        gvr: gvrKey(this.gvr),
        ...(this.namespace ? { namespace: this.namespace } : {}),
        // The worker projects with shared/'s printers; a kind printed otherwise is projected here.
        rows: this.options.projector.printer === printerFor(this.gvr),
      },
      { speed, now: () => clock.now() },
    );
  }

  private apply(change: PlaybackChange): void {
    this.moment = change.time;
    const { key, row } = 'json' in change ? this.project(JSON.parse(change.json) as RecordedChange) : change;
    if (!row) {
      if (this.keys.delete(key)) this.stream.record({ type: 'deleted', key });
      return;
    }
    const known = this.keys.has(key);
    this.keys.add(key);
    this.stream.record(known ? { type: 'updated', row } : { type: 'added', row });
  }

  /** A change read as JSON (a kind the worker does not project): its key, and its row unless deleted. */
  private project(change: RecordedChange): { key: string; row?: Row } {
    const key = objectKey(change.namespace, change.name);
    if (change.type === 'Deleted' || !change.object) return { key };
    return { key, row: this.options.projector.project(change.object, this.options.clock.now()) };
  }

  /** Keys the renderer holds (see keySet). */
  private get keys(): Set<string> {
    for (const keys of this.unhashedKeys) for (const key of keys) this.keySet.add(key);
    this.unhashedKeys = [];
    this.unhashedCount = 0;
    return this.keySet;
  }

  /** Passes a batch on; during a snapshot, counts its rows and says how far the rebuild has got. */
  private sent(batch: OutgoingBatch): void {
    this.options.send(batch);
    const rebuilding = this.rebuilding;
    if (!rebuilding) return;
    rebuilding.rebuilt = (batch.replace ? 0 : rebuilding.rebuilt) + upsertCount(batch);
    if (batch.snapshotEnd && !this.cutShort) this.rebuilding = undefined;
    this.announce();
  }

  private announce(): void {
    const rebuilding = this.rebuilding;
    const held = this.keySet.size + this.unhashedCount;
    const rebuilt = rebuilding ? rebuilding.rebuilt : held;
    const total = rebuilding ? rebuilding.total : held;
    this.options.send({
      type: 'historyCursor',
      subscriptionId: this.subscriptionId,
      time: this.moment,
      playing: this.playing,
      rebuilt,
      ...(total !== undefined ? { total } : {}),
      ...(this.gap ? { gap: this.gap } : {}),
      ...(this.catchingUp ? { catchingUp: true as const } : {}),
    });
  }
}

/** A recording's gap mark as the cursor reports it. */
function replayGapOf(mark: RecordingMark | undefined): ReplayGap | undefined {
  return (
    mark && {
      reason: mark.reason,
      detail: mark.detail,
      start: mark.start,
      ...(mark.end !== undefined ? { end: mark.end } : {}),
    }
  );
}

/**
 * The gap covering `time` for the kind `gvr` (or for the whole recording), as the cursor reports it. A
 * gap covers [start, end): at its end the list that closed it is in the recording.
 */
export function gapCovering(
  marks: readonly RecordingMark[],
  gvr: string,
  time: number,
): ReplayGap | undefined {
  const mark = marks.find(
    (candidate) =>
      candidate.kind === 'gap' &&
      (candidate.stream === undefined || candidate.stream.gvr === gvr) &&
      candidate.start <= time &&
      (candidate.end === undefined || candidate.end > time),
  );
  return replayGapOf(mark);
}
