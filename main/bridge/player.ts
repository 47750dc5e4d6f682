// A replay subscription's playback: a view clock that runs at the speed played, held at the moment
// shown only while the next changes are still being read (PlaybackClock: a video player's clock,
// which stops while it buffers, not for a late frame), applying per frame the changes it passed
// (the rows catch up when a frame could not), which the query worker reads ahead a page at a time:
// main never reads the recording itself.
// When the rows cannot follow for long (a list's burst: thousands of changes in a recorded second), or
// are in a gap whose end (a list) the view clock is about to reach, the player jumps: it rebuilds the
// moment about where the view clock will be once that is done, as a travel does, and plays on from
// there; the clock runs on to that moment meanwhile and is held there until its rows are whole. The
// rows, their stream to the renderer and the cursor are the subscription's (PlaybackView): the player
// only says what to apply and when.
import type { Clock, Timer } from '../cache/clock';
import type { RecordingMark } from '../history/recorded-change';
import { JumpEstimate } from './jump-estimate';
import { PlaybackClock } from './playback-clock';
import { PlaybackLag } from './playback-lag';
import { openPlayerReadAhead } from './playback-read-ahead';
import type { PlaybackReadAhead } from './playback-read-ahead';
import { gapCovering, gapEnd, listFillsGapsAt } from './replay-gaps';
import type { PlaybackStart, PlaybackView, PlayerTiming } from './playback-view';

export type { MomentReads, PlaybackStart, PlaybackView, PlayerReads, PlayerTiming } from './playback-view';

/**
 * How much playback, in wall ms, the changes read must cover before a held clock runs (at the start, or
 * after the rows could not follow it): a few frames, so that a clock held for a late page does not
 * run one frame and stop again.
 */
const resumeAheadMs = 300;
/**
 * Before the first move, a gap's end (a list) due within this much wall time of playback is jumped
 * to at once (see frame): about what the list's burst would take to play through, not so far that a
 * playback from inside a long gap (the recorder behind) leaps to its end and stops there.
 */
const preRollMs = 4_000;
/** The longest a jump may be expected to take (see JumpEstimate) for the lag to call for one. */
const maxJumpMs = 2_000;
/**
 * How early a frame's timer may fire by the wall clock (Node's timers keep whole ms of the event
 * loop's own clock, not Date.now()'s: a frame due 100 ms after the last came 99 ms after it). A
 * resumed clock runs from that much before the start of the frame that resumed it, so that each
 * frame after, due a whole number of frames later, finds it past the end of its step.
 */
export const timerSlackMs = 5;

export class Player {
  /**
   * The changes of (gvr, namespace) from startMoment (or the last jump's moment) to end, as the
   * worker reads them; undefined while a jump rebuilds its moment.
   */
  private changes: PlaybackReadAhead | undefined;
  /** The moment `changes` reads after: a gap ending there is behind the rows, not ahead of them. */
  private readFrom: number;
  /** The last moment whose rows all went out to the renderer: the furthest the cursor may name. */
  private sent: number;
  /** A jump's moment, until it lands (its rows on the page): the view clock is held there till then. */
  private jumpingTo: number | undefined;
  /** When the jump under way began, in wall ms: how long jumps take, to their landing. */
  private jumpBegan = 0;
  /** The view clock: runs at the speed played, held while the next changes are read (buffering). */
  private readonly clock: PlaybackClock;
  /**
   * How long a jump takes, from its start to its landing (its rows on the page): a jump aims that far
   * ahead of the view clock, so that its moment is about due when its rows are whole.
   */
  private readonly jumps: JumpEstimate;
  /** How far the moment has been behind the view clock, frame by frame: when to jump. */
  private readonly lag: PlaybackLag;
  private timer: Timer | undefined;
  /** When the frame under way (or the next) was due: frames are due every frameMs (see scheduleFrame). */
  private due = 0;
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
    const { readAhead, span } = await openPlayerReadAhead(start, start.from, clock, timing);
    return new Player(view, start, clock, timing, readAhead, span.end, span.marks);
  }

  private constructor(
    private readonly view: PlaybackView,
    private readonly start: PlaybackStart,
    private readonly wall: Clock,
    private readonly timing: PlayerTiming,
    changes: PlaybackReadAhead,
    private readonly end: number,
    /** The recording's gaps over [from, end], for the cursor's gap as the moment moves. */
    private readonly marks: readonly RecordingMark[],
  ) {
    this.changes = changes;
    this.readFrom = start.from;
    this.sent = start.from;
    this.clock = new PlaybackClock(() => wall.now(), start.from, start.speed, end);
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
    this.clock.start();
    // The first frame, now, asks for the pages after the first (it reads ahead at its end): the clock
    // runs once the changes of its first stretch are read (resumeAheadMs), and the first page alone
    // may not hold them. Not before it: a frame that jumps at once (a list due within preRollMs)
    // drops these changes, and pages asked for them would be read by the worker ahead of the jump's
    // rebuild (at 150,000 pods, two pages of the list's burst read change by change).
    this.due = this.wall.now();
    this.frame();
  }

  /** The view clock: the moment playback has reached (the rows catch up with it), within the recording. */
  viewClock(): number {
    return this.clock.time();
  }

  /** Stops playing; the rows stay at the moment reached. */
  close(): void {
    this.closed = true;
    this.timer?.stop();
    this.changes?.close();
  }

  /**
   * Frames are due every frameMs of wall time from the first: the time a frame worked is taken from
   * the wait after it, and a timer firing a ms early or late shifts no later frame (the steps of
   * changes, a frame's recording each, stay in phase with the frames that apply them). Past the next
   * frame's due time (a frame that worked longer, a busy machine), the next is due at the next of
   * those times after now, never a burst of frames to catch up.
   */
  private scheduleFrame(): void {
    const frameMs = this.timing.frameMs ?? 100;
    const now = this.wall.now();
    this.due += frameMs;
    if (this.due < now) this.due += Math.ceil((now - this.due) / frameMs) * frameMs;
    this.timer = this.wall.setTimeout(() => this.frame(), this.due - now);
  }

  /**
   * Applies the changes up to the view clock's moment (within the frame budget), then moves the cursor
   * to the moment the rows sent hold. During a jump, only moves the cursor: it follows the view clock
   * up to the jump's moment, held there until the rows are whole.
   */
  private frame(): void {
    if (this.closed) return;
    const changes = this.changes;
    const view = this.view;
    const jumpingTo = this.jumpingTo;
    // A jump has landed once its rows are on the page, not once they are read: a moment of 150,000
    // rows takes the page seconds to take in, and a clock run from it meanwhile (the cursor standing
    // at the jump's moment, the rows behind it) is a still of that length, then a race to catch up.
    if (!changes || (jumpingTo !== undefined && view.rebuiltRowsPending())) {
      if (jumpingTo !== undefined && this.clock.time() >= jumpingTo) this.clock.hold(jumpingTo);
      changes?.fill();
      view.announce();
      this.scheduleFrame();
      return;
    }
    if (jumpingTo !== undefined) this.land(jumpingTo);
    const target = this.clock.time();
    const began = this.wall.now();
    const deadline = began + (this.timing.frameBudgetMs ?? 50);
    // A renderer still behind with earlier rows (some wait unsent) is given no more: the moment waits
    // until it catches up, rather than the cursor naming a moment ever further from the rows it has.
    const rendererBehind = view.rendererBehind();
    // A gap the rows are in ends with a list (every object the informer held, within moments): read
    // change by change it would hold the moment back for seconds, so the player jumps over it as soon
    // as the jump would land about when the view clock gets there. A gap ending where the changes
    // are read from is behind the rows (a jump landed there).
    const listAt = gapEnd(this.marks, this.start.query.gvr, view.moment(), this.end);
    const expectedMs = this.jumps.expectedMs;
    if (listAt !== undefined && listAt > this.readFrom && !rendererBehind) {
      // Before the first move (playing from inside a gap: a recording's start, its initial list
      // still coming in), a list due within preRollMs of playback is the first step, its moment
      // rebuilt while the clock is held at the moment played from (sent as its difference from the
      // moment the travel there left whole): the clock then runs from the list, never through its
      // burst of single changes. So is a list however far off when the gaps before it hold the list's
      // own record (listFillsGapsAt: played from inside it, or from the recorder down just before
      // it): a list written at the recording process's pace spans tens of recorded seconds at
      // 150,000 pods, all of it the list filling in, thousands of changes a recorded second that no
      // playback at speed can apply. A list further off after gaps with nothing recorded in them (a
      // watch down) is played to, as later in a playback.
      if (
        !this.clock.ran &&
        (listAt - target <= Math.max(preRollMs, expectedMs) * this.start.speed ||
          listFillsGapsAt(this.marks, this.start.query.gvr, view.moment()))
      ) {
        void this.jump(listAt);
        return;
      }
      if (listAt - target <= expectedMs * this.start.speed) {
        void this.jump(this.aim(Math.max(listAt, target + expectedMs * this.start.speed)));
        return;
      }
    }
    for (let change = rendererBehind ? undefined : changes.take(target); change;) {
      view.apply(change);
      if (this.wall.now() >= deadline) break;
      change = changes.take(target);
    }
    view.flush();
    changes.fill();
    // Rows applied but held back by the stream (the renderer behind with earlier ones) are not shown
    // yet: the cursor stays at the last moment whose rows all went out, never ahead of them.
    const unsent = view.rendererBehind();
    const caughtUp = !rendererBehind && !unsent && changes.reached(target);
    // Waiting for the next page (every change read applied), the clock is held where it is, as a
    // video player's while it buffers. Cut short by the budget or the renderer (main or the page slow,
    // a loaded machine), it runs on and the next frames catch the rows up, each key's last change a
    // step: a pause of the machine costs the rows a moment of catching up, not the playback its
    // length. A held clock runs on once the rows reach it and the next stretch is read (or, as many
    // changes as are kept read covering less, a dense recording at 100x, a frame's worth).
    const frameAhead = (this.timing.frameMs ?? 100) * this.start.speed;
    const covered = changes.covers(target + (changes.full ? frameAhead : resumeAheadMs * this.start.speed));
    // Resumed, it runs from this frame's start (less timerSlackMs), and the frames are due from there
    // (see scheduleFrame), in phase with it: run from the end of the frame's work, each later frame
    // found it that much short of its step's end (1 s of recording at 10x, 100 ms of wall time), so
    // the moment stood at the step before: the first move after a jump's landing came two frames
    // after it, 200 ms, and the page's own work after the landing stretched that still to 250-390 ms
    // (ui bench). From when this frame was due instead, a frame fired late would leap the moment on.
    if (!rendererBehind && changes.drained && !caughtUp) this.clock.hold(this.clock.time());
    else if (caughtUp && covered && this.clock.held) {
      this.due = began;
      this.clock.resume(began - timerSlackMs);
    }
    // While the rows are behind the clock, or the changes kept read do not cover a frame (a burst),
    // the lag is measured against the clock as if it had run on: one that keeps growing is a stretch
    // the rows cannot follow soon, which waiting would only stall on. Rows caught up, waiting for a
    // page, are no lag: a jump would only start its reads over.
    const burst = caughtUp && this.clock.held && changes.full && !covered;
    const lag = !caughtUp || burst ? this.clock.running() - view.moment() : 0;
    const jumping = this.lag.observe(lag, this.wall.now());
    // A jump expected over maxJumpMs (a loaded machine) would stand the cursor still that long:
    // catching up moves it every frame.
    if (jumping && !rendererBehind && expectedMs <= maxJumpMs) {
      // Ahead of the clock (which runs on while the rows are behind it) by the jump's time: its rows
      // are whole about when the clock gets there.
      void this.jump(this.aim(this.clock.time() + Math.max(expectedMs, resumeAheadMs) * this.start.speed));
      return;
    }
    // A jump that aimed ahead holds its moment until the view clock gets there: its rows already hold
    // the changes up to it.
    const applied = caughtUp ? Math.max(view.moment(), changes.settled(target)) : view.moment();
    const moment = unsent ? this.sent : applied;
    this.sent = moment;
    // Catching up: the clock held (buffering) or the rows behind it.
    view.hold(moment, gapCovering(this.marks, this.start.query.gvr, moment), this.clock.held || !caughtUp);
    if (caughtUp && target >= this.end) {
      this.close();
      view.ended();
      return;
    }
    view.announce();
    this.scheduleFrame();
  }

  /**
   * A jump's rows are on the page: a clock held short of its moment (before the first move, or too
   * close to run to it) moves there with them, still held; it runs on from there once the changes
   * after it are read (see frame), as from any hold. What lies between was read as one moment, not
   * played.
   */
  private land(time: number): void {
    this.jumpingTo = undefined;
    this.clock.seek(time);
    this.jumps.observe(this.wall.now() - this.jumpBegan);
    this.lag.reset();
  }

  /** A jump's moment: `time`, within the recording. */
  private aim(time: number): number {
    return Math.min(this.end, time);
  }

  /**
   * Moves the playback to `time` (about where the view clock will be once the jump is done) by
   * rebuilding that moment, its rows sent as a snapshot with its progress in cursors (still playing),
   * then reads on from it. The view clock runs on meanwhile up to `time`, and the cursor with it (see
   * ReplaySubscription.announce), held there until the rows are whole; once they are, the next frames
   * apply what the view clock passed during the rebuild, or hold the moment until it gets there. A
   * close meanwhile supersedes the jump; a failure ends the playback where its rows are.
   */
  private async jump(time: number): Promise<void> {
    this.changes?.close();
    this.changes = undefined;
    this.jumpingTo = time;
    // The clock runs on to the jump's moment meanwhile, unless it has not run yet (a jump before the
    // first move: the playback starts from the jump's rows) or the moment is too close to be worth
    // running to: held, it waits for the rows there, as it would for the changes of a stretch.
    if (this.clock.ran && time - this.clock.time() >= resumeAheadMs * this.start.speed) this.clock.resume();
    this.jumpBegan = this.wall.now();
    this.scheduleFrame();
    // The changes after the moment are asked for with it: the worker reads their first page once
    // the moment is rebuilt, not a round trip later.
    const reading = openPlayerReadAhead(this.start, time, this.wall, this.timing);
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
      // The changes after the moment are read meanwhile; the frames land the jump once its rows are
      // on the page (see frame and land).
      this.changes = readAhead;
      this.readFrom = time;
      this.sent = time;
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
