// A playback's changes, read ahead from the query worker a page at a time, so the player on main
// always has the next changes at hand and never reads the recording itself. Pages grow with the
// recording's density times the speed, so a dense recording at 100x is still a few round trips a
// second. Changes arrive as rows projected in the worker, or (for kinds projected on main) as JSON
// text parsed when applied: the player's frame budget bounds the parsing too.
import type { HistoryQueries, PlaybackChange, PlaybackQuery, PlaybackSpan } from '../history/history-queries';
import type { Clock } from '../cache/clock';
import type { PlaybackStart, PlayerTiming } from './playback-view';

/** What playback asks of the query worker. */
export type PlaybackReads = Pick<HistoryQueries, 'openPlayback' | 'playbackChanges' | 'closePlayback'>;

/**
 * How the read-ahead sizes itself to the recording's density at the speed played: pages of about
 * pageWallMs of playback each (a few round trips a second, however dense), and about aheadWallMs of
 * playback kept read, so a page late by less than that never holds the moment back. Bounded both ways:
 * sparse recordings still read whole pages, and a relist's burst (thousands of changes at one moment)
 * is read in bounded pages, its rows (or, without rows, its far larger JSON) bounded in memory. A page
 * of rows is structured-cloned onto main's thread as it arrives, in one piece: pages of rows stay at a
 * few thousand so that copy stays within a frame (a JSON page is strings, copied whole, far cheaper).
 */
const pageWallMs = 250;
const aheadWallMs = 1_000;
const firstPage = 500;
const bounds = {
  rows: { page: 2_500, ahead: 20_000 },
  json: { page: 1_000, ahead: 5_000 },
};
const leastAhead = 2_000;
/**
 * Pages asked for at once. With one, the worker idled from sending a page until main, busy with its
 * own work, took it in and asked for the next: at 10x under churn on a loaded machine the worker was
 * a third idle while the moment fell behind. Its answers come in the order asked, so pages still
 * arrive in recorded order.
 */
const pagesInFlight = 2;

export interface ReadAheadOptions {
  /** The playback speed: how many recorded ms each wall ms plays. */
  readonly speed: number;
  /** The wall clock, whose time rows are projected at. */
  readonly now: () => number;
}

export class PlaybackReadAhead {
  /** Changes read, oldest first; those before `next` were taken. */
  private ahead: PlaybackChange[];
  private next = 0;
  /** Pages asked for and not answered yet, and the changes they were asked for. */
  private reading = 0;
  private asked = 0;
  /** The worker has sent the last change (and closed its playback), or can send no more. */
  private exhausted: boolean;
  private closed = false;
  /** Changes per recorded ms, as the last page read showed. */
  private density: number;

  /**
   * Opens a playback of `file` in the worker and resolves once its first page is read, with the span
   * it covers.
   */
  static async open(
    reads: PlaybackReads,
    file: string,
    query: PlaybackQuery,
    options: ReadAheadOptions,
  ): Promise<{ readAhead: PlaybackReadAhead; span: PlaybackSpan }> {
    const span = await reads.openPlayback(file, query);
    try {
      const first = await reads.playbackChanges(span.id, firstPage, options.now());
      const limits = query.rows ? bounds.rows : bounds.json;
      const steps = query.rows && query.stepMs ? { from: query.from, ms: query.stepMs } : undefined;
      return { readAhead: new PlaybackReadAhead(reads, span.id, first, options, limits, steps), span };
    } catch (error) {
      reads.closePlayback(span.id);
      throw error;
    }
  }

  private constructor(
    private readonly reads: PlaybackReads,
    private readonly playback: number,
    first: { changes: PlaybackChange[]; done: boolean },
    private readonly options: ReadAheadOptions,
    private readonly limits: { readonly page: number; readonly ahead: number },
    /** The worker's steps (see PlaybackQuery.stepMs): changes come squashed, stamped at step ends. */
    private readonly steps?: { readonly from: number; readonly ms: number },
  ) {
    this.ahead = first.changes;
    this.exhausted = first.done;
    this.density = densityOf(first.changes, steps?.ms) ?? 1 / 1_000;
  }

  /** Changes a wall second of playback takes, by the density last read. */
  private get perWallSecond(): number {
    return this.density * this.options.speed * 1_000;
  }

  /** The size of the next page: about pageWallMs of playback. */
  get pageSize(): number {
    return clamp(Math.round((this.perWallSecond * pageWallMs) / 1_000), firstPage, this.limits.page);
  }

  /** How many changes are kept read: about aheadWallMs of playback. */
  get aheadSize(): number {
    return clamp(Math.round((this.perWallSecond * aheadWallMs) / 1_000), leastAhead, this.limits.ahead);
  }

  /** The next change, if it is stamped at or before `time`. */
  take(time: number): PlaybackChange | undefined {
    const upcoming = this.ahead[this.next];
    if (!upcoming || upcoming.time > time) return undefined;
    this.next++;
    // Taken changes are dropped in runs, not one by one: a shift per change would copy the array.
    if (this.next >= leastAhead) {
      this.ahead = this.ahead.slice(this.next);
      this.next = 0;
    }
    return upcoming;
  }

  /**
   * True when every change up to `time` has been taken; false while the next one is still being
   * read, whatever its time.
   */
  reached(time: number): boolean {
    const upcoming = this.ahead[this.next];
    return upcoming ? upcoming.time > time : this.exhausted;
  }

  /**
   * The latest moment at or before `time` that the changes taken up to `time` leave the rows at:
   * `time` itself change by change, or the end of the last step before it (the changes of the step
   * `time` falls in are stamped at its end, still to come), unless every change has been taken.
   */
  settled(time: number): number {
    const steps = this.steps;
    if (steps === undefined || (this.exhausted && this.next >= this.ahead.length)) return time;
    return steps.from + Math.floor((time - steps.from) / steps.ms) * steps.ms;
  }

  /**
   * True when every change up to `time` has been read (those after it are not needed before then): the
   * player's clock may run on from a hold to `time` without waiting.
   */
  covers(time: number): boolean {
    const waiting = this.ahead.length - this.next;
    return this.exhausted || (waiting > 0 && this.ahead.at(-1)!.time > time);
  }

  /**
   * Every change read has been taken and more are still to come: the playback waits for the worker
   * (buffering), not for main or the page to apply what it has.
   */
  get drained(): boolean {
    return this.next >= this.ahead.length && !this.exhausted;
  }

  /** As many changes wait as are kept read: no page is asked for until some are taken. */
  get full(): boolean {
    return this.ahead.length - this.next >= this.aheadSize;
  }

  /** Asks for pages, up to pagesInFlight at a time, while fewer than aheadSize wait or are asked for. */
  fill(): void {
    while (
      !this.closed &&
      !this.exhausted &&
      this.reading < pagesInFlight &&
      this.ahead.length - this.next + this.asked < this.aheadSize
    ) {
      const size = this.pageSize;
      this.reading++;
      this.asked += size;
      this.reads.playbackChanges(this.playback, size, this.options.now()).then(
        ({ changes, done }) => {
          this.reading--;
          this.asked -= size;
          // After the last page or a failure, a page asked for meanwhile has nothing to add (the
          // worker closed the playback): only pages in unbroken order are played.
          if (this.exhausted) return;
          this.exhausted = done;
          this.density = densityOf(changes, this.steps?.ms) ?? this.density;
          for (const change of changes) this.ahead.push(change);
          this.fill();
        },
        () => {
          // The worker failed or was closed: what was read is played, and playback ends there.
          this.reading--;
          this.asked -= size;
          this.exhausted = true;
        },
      );
    }
  }

  /** Closes the worker's playback (it closed it itself after the last page). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (!this.exhausted) this.reads.closePlayback(this.playback);
  }
}

/**
 * Changes per recorded ms over a page; undefined when it says nothing: change by change, a page of
 * changes at one moment (a burst) says nothing of the density after it. In steps (stamped at their
 * ends, `stepMs` apart), a page within one step held at least its changes over that step.
 */
function densityOf(changes: readonly PlaybackChange[], stepMs?: number): number | undefined {
  const span = changes.length > 1 ? changes.at(-1)!.time - changes[0]!.time : 0;
  if (span > 0) return (changes.length - 1) / span;
  return stepMs !== undefined && changes.length > 0 ? changes.length / stepMs : undefined;
}

function clamp(value: number, least: number, most: number): number {
  return Math.min(most, Math.max(least, value));
}

/**
 * Opens the worker's reads of the changes after `from`, resolving with the first page read: in steps of
 * a frame's recorded time (see PlaybackQuery.stepMs), so that what a frame applies is each key's last
 * change in it, and the rows at each step's end are that moment's.
 */
export function openPlayerReadAhead(start: PlaybackStart, from: number, clock: Clock, timing: PlayerTiming) {
  const stepMs = (timing.frameMs ?? 100) * start.speed;
  return PlaybackReadAhead.open(
    start.reads,
    start.file,
    { ...start.query, from, stepMs },
    { speed: start.speed, now: () => clock.now() },
  );
}
