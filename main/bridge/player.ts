// A replay subscription's playback: a view clock derived from wall time (moment = start + elapsed ×
// speed), applying per frame the changes it passed, which the query worker reads ahead a page at a
// time: main never reads the recording itself. When the moment falls far behind the view clock (a
// list's burst: thousands of changes in a recorded second), or is in a gap whose end (a list) the view
// clock is about to reach, the player jumps: it rebuilds the moment about where the view clock will be
// once that is done, as a travel does, and plays on from there; the cursor follows the view clock
// meanwhile. The rows, their stream to the renderer and the cursor are the subscription's
// (PlaybackView): the player only says what to apply and when.
import type { Clock, Timer } from '../cache/clock';
import type { ReplayGap } from '../../shared/protocol/history-messages';
import type { HistoryQueries, PlaybackChange, PlaybackQuery } from '../history/history-queries';
import type { RecordingMark } from '../history/recorded-change';
import { JumpEstimate } from './jump-estimate';
import { PlaybackLag } from './playback-lag';
import { PlaybackReadAhead } from './playback-read-ahead';
import { gapCovering } from './replay-gaps';
import type { PlaybackReads } from './playback-read-ahead';

/** What rebuilding a moment asks of the query worker. */
export type MomentReads = Pick<HistoryQueries, 'stateRows' | 'stateAt'>;
/** What playback asks of the query worker: its pages of changes, and the moments it jumps to. */
export type PlayerReads = PlaybackReads & MomentReads;

export interface PlayerTiming {
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

/** The rows a player moves: the replay subscription's, with their stream to the renderer and cursor. */
export interface PlaybackView {
  /** The moment the rows hold. */
  moment(): number;
  /** The renderer is behind with earlier rows still waiting unsent. */
  rendererBehind(): boolean;
  /** Applies one recorded change to the rows; the moment moves to its time. */
  apply(change: PlaybackChange): void;
  /** Sends the rows applied so far, so they go out before the cursor that names their moment. */
  flush(): void;
  /** Rebuilds the rows at `time` as a travel does, playback going on (a jump). */
  rebuild(reads: MomentReads, file: string, time: number): Promise<unknown>;
  /**
   * A frame's outcome: the moment the rows hold, the recording's gap covering it, and whether it waits
   * behind the view clock.
   */
  hold(moment: number, gap: ReplayGap | undefined, catchingUp: boolean): void;
  /** Sends a cursor: the moment the rows hold, still playing. */
  announce(): void;
  /** The playback ended: the recording's end was reached, or a jump failed. The rows stay as they are. */
  ended(): void;
}

/** Where a playback starts: a recording, the view's kind and namespace, a moment and a speed. */
export interface PlaybackStart {
  readonly reads: PlayerReads;
  readonly file: string;
  /** The worker's query, without its moment: (gvr, namespace), and whether it projects rows. */
  readonly query: Omit<PlaybackQuery, 'from'>;
  readonly from: number;
  readonly speed: number;
  /**
   * How long the subscription's last rebuild took (the moment played from), in wall ms: the first
   * jump's guess at its own time.
   */
  readonly previousRebuildMs?: number;
}

export class Player {
  /**
   * The changes of (gvr, namespace) from startMoment (or the last jump's moment) to end, as the
   * worker reads them; undefined while a jump rebuilds its moment.
   */
  private changes: PlaybackReadAhead | undefined;
  /** The view clock's origin: the moment at `startedAt` on the wall clock, set by start. */
  private startedAt = 0;
  /**
   * How long a jump takes, from its start to its first page read: a jump aims that far ahead of the
   * view clock, so that its moment is about due when its rows are whole.
   */
  private readonly jumps: JumpEstimate;
  /** How far the moment has been behind the view clock, frame by frame: when to jump. */
  private readonly lag: PlaybackLag;
  private timer: Timer | undefined;
  private closed = false;

  /**
   * Opens the worker's reads from `start.from` to the end of the recording as it is now, resolving
   * once the first page is read. The player plays once started.
   */
  static async open(
    view: PlaybackView,
    start: PlaybackStart,
    clock: Clock,
    timing: PlayerTiming,
  ): Promise<Player> {
    const { readAhead, span } = await openReadAhead(start, start.from, clock);
    return new Player(view, start, clock, timing, readAhead, span.end, span.marks);
  }

  private constructor(
    private readonly view: PlaybackView,
    private readonly start: PlaybackStart,
    private readonly clock: Clock,
    private readonly timing: PlayerTiming,
    changes: PlaybackReadAhead,
    private readonly end: number,
    /** The recording's gaps over [from, end], for the cursor's gap as the moment moves. */
    private readonly marks: readonly RecordingMark[],
  ) {
    this.changes = changes;
    // No jump is expected quicker than the lag that calls for one (it also waits for the pages already
    // asked for).
    this.jumps = new JumpEstimate(this.jumpLagMs, start.previousRebuildMs);
    this.lag = new PlaybackLag(this.jumpLagMs * start.speed);
  }

  private get jumpLagMs(): number {
    return this.timing.jumpLagMs ?? 250;
  }

  /** Starts the view clock: the moment advances at the speed played from now, whatever each frame costs. */
  play(): void {
    this.startedAt = this.clock.now();
    // Reading ahead goes on from now, not from the first frame: by then the clock has passed a frame
    // of changes, which the first page alone may not hold.
    this.changes?.fill();
    this.scheduleFrame();
  }

  /**
   * The view clock: the moment playback has reached by the wall clock, whatever the rows hold. Within
   * the recording (it stops at its end).
   */
  viewClock(): number {
    return Math.min(this.end, this.start.from + (this.clock.now() - this.startedAt) * this.start.speed);
  }

  /** Stops playing; the rows stay at the moment reached. */
  close(): void {
    this.closed = true;
    this.timer?.stop();
    this.changes?.close();
  }

  /** Frames start every frameMs of wall time: the time a frame worked is taken from the wait after it. */
  private scheduleFrame(worked = 0): void {
    const delay = Math.max(0, (this.timing.frameMs ?? 100) - worked);
    this.timer = this.clock.setTimeout(() => this.frame(), delay);
  }

  /**
   * Applies the changes up to the view clock's moment (within the frame budget), then moves the cursor.
   * During a jump, only moves the cursor: it follows the view clock while the rows are rebuilt.
   */
  private frame(): void {
    if (this.closed) return;
    const changes = this.changes;
    const view = this.view;
    if (!changes) {
      view.announce();
      this.scheduleFrame();
      return;
    }
    const target = this.viewClock();
    const began = this.clock.now();
    const deadline = began + (this.timing.frameBudgetMs ?? 50);
    // A renderer still behind with earlier rows (some wait unsent) is given no more: the moment waits
    // until it catches up, rather than the cursor naming a moment ever further from the rows it has.
    const rendererBehind = view.rendererBehind();
    // A gap the rows are in ends with a list (every object the informer held, within moments): read
    // change by change it would hold the moment back for seconds, so the player jumps over it as soon
    // as the jump would land about when the view clock gets there.
    const listAt = this.gapEnd(view.moment());
    const expectedMs = this.jumps.expectedMs;
    if (listAt !== undefined && !rendererBehind && listAt - target <= expectedMs * this.start.speed) {
      void this.jump(this.aim(Math.max(listAt, target + expectedMs * this.start.speed)));
      return;
    }
    for (let change = rendererBehind ? undefined : changes.take(target); change;) {
      view.apply(change);
      if (this.clock.now() >= deadline) break;
      change = changes.take(target);
    }
    view.flush();
    changes.fill();
    const caughtUp = !rendererBehind && changes.reached(target);
    const jumping = this.lag.observe(caughtUp ? 0 : target - view.moment(), this.clock.now());
    if (jumping && !rendererBehind) {
      void this.jump(this.aim(this.viewClock() + expectedMs * this.start.speed));
      return;
    }
    // Cut short by the budget or by the renderer, or waiting for the next page, the moment stays at
    // the last change applied (apply moved it there): the rows hold that moment, not the target, and
    // the next frames catch up. A jump that aimed ahead holds its moment until the view clock gets
    // there: its rows already hold the changes up to it.
    const moment = caughtUp ? Math.max(view.moment(), target) : view.moment();
    view.hold(moment, gapCovering(this.marks, this.start.query.gvr, moment), !caughtUp);
    if (caughtUp && target >= this.end) {
      this.close();
      view.ended();
      return;
    }
    view.announce();
    this.scheduleFrame(this.clock.now() - began);
  }

  /** A jump's moment: `time`, within the recording. */
  private aim(time: number): number {
    return Math.min(this.end, time);
  }

  /**
   * Where the gap covering `time` ends, if it does within the recording played; through the gaps
   * that follow it without a break (the recorder down, then the kind listing once it is back).
   */
  private gapEnd(time: number): number | undefined {
    let end: number | undefined;
    for (let gap = gapCovering(this.marks, this.start.query.gvr, time); gap;) {
      end = gap.end;
      gap = end === undefined ? undefined : gapCovering(this.marks, this.start.query.gvr, end);
    }
    return end !== undefined && end <= this.end ? end : undefined;
  }

  /**
   * Moves the playback to `time` (about where the view clock will be once the jump is done) by
   * rebuilding that moment, its rows sent as a snapshot with its progress in cursors (still playing),
   * then reads on from it. The view clock runs on meanwhile, and the cursor with it (never past
   * `time`: see ReplaySubscription.announce); once the rows are whole, the next frames apply what the
   * view clock passed during the rebuild, or hold the moment until it gets there. A close meanwhile
   * supersedes the jump; a failure ends the playback where its rows are.
   */
  private async jump(time: number): Promise<void> {
    this.changes?.close();
    this.changes = undefined;
    const began = this.clock.now();
    this.scheduleFrame();
    // The changes after the moment are asked for with it: the worker reads their first page once
    // the moment is rebuilt, not a round trip later.
    const reading = openReadAhead(this.start, time, this.clock);
    // Its failure is met below, once the moment is rebuilt; until then it is not left unhandled.
    reading.catch(() => {});
    try {
      await this.view.rebuild(this.start.reads, this.start.file, time).catch((error: unknown) => {
        void reading.then(
          ({ readAhead }) => readAhead.close(),
          () => {},
        );
        throw error;
      });
      const { readAhead } = await reading;
      if (this.closed) {
        readAhead.close();
        return;
      }
      this.changes = readAhead;
      const jumpMs = this.clock.now() - began;
      this.jumps.observe(jumpMs);
      this.lag.reset();
      readAhead.fill();
      this.timer?.stop();
      this.scheduleFrame();
    } catch {
      if (this.closed) return;
      this.close();
      this.view.ended();
    }
  }
}

/** Opens the worker's reads of the changes after `from`, resolving with the first page read. */
function openReadAhead(start: PlaybackStart, from: number, clock: Clock) {
  return PlaybackReadAhead.open(
    start.reads,
    start.file,
    { ...start.query, from },
    { speed: start.speed, now: () => clock.now() },
  );
}
