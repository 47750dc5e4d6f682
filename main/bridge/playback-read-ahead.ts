// A playback's changes, read ahead from the query worker a page at a time, so the player on main
// always has the next changes at hand and never reads the recording itself. Each change arrives as
// JSON text and is parsed when taken: the player's frame budget bounds the parsing too.
import type { HistoryQueries, PlaybackChange, PlaybackQuery, PlaybackSpan } from '../history/history-queries';
import type { RecordedChange } from '../history/recorded-change';

/** What playback asks of the query worker. */
export type PlaybackReads = Pick<HistoryQueries, 'openPlayback' | 'playbackChanges' | 'closePlayback'>;

/** Changes per question: a page of realistic pods is a few MB, little for main to receive. */
const readAheadPage = 500;
/**
 * Changes kept read ahead: pages are asked for, one at a time, until this many wait. At 100x of a
 * busy recording (6,000 changes a second of wall time) that is about a third of a second.
 */
const readAheadChanges = 2000;

export class PlaybackReadAhead {
  /** Changes read, oldest first; those before `next` were taken. */
  private ahead: PlaybackChange[];
  private next = 0;
  private reading = false;
  /** The worker has sent the last change (and closed its playback), or can send no more. */
  private exhausted: boolean;
  private closed = false;

  /**
   * Opens a playback of `file` in the worker and resolves once its first page is read, with the span
   * it covers.
   */
  static async open(
    reads: PlaybackReads,
    file: string,
    query: PlaybackQuery,
  ): Promise<{ readAhead: PlaybackReadAhead; span: PlaybackSpan }> {
    const span = await reads.openPlayback(file, query);
    try {
      const first = await reads.playbackChanges(span.id, readAheadPage);
      return { readAhead: new PlaybackReadAhead(reads, span.id, first), span };
    } catch (error) {
      reads.closePlayback(span.id);
      throw error;
    }
  }

  private constructor(
    private readonly reads: PlaybackReads,
    private readonly playback: number,
    first: { changes: PlaybackChange[]; done: boolean },
  ) {
    this.ahead = first.changes;
    this.exhausted = first.done;
  }

  /** The next change, if it is stamped at or before `time`. */
  take(time: number): RecordedChange | undefined {
    const upcoming = this.ahead[this.next];
    if (!upcoming || upcoming.time > time) return undefined;
    this.next++;
    if (this.next >= readAheadChanges) {
      this.ahead = this.ahead.slice(this.next);
      this.next = 0;
    }
    return JSON.parse(upcoming.json) as RecordedChange;
  }

  /**
   * True when every change up to `time` has been taken; false while the next one is still being
   * read, whatever its time.
   */
  reached(time: number): boolean {
    const upcoming = this.ahead[this.next];
    return upcoming ? upcoming.time > time : this.exhausted;
  }

  /** Asks for pages, one at a time, while fewer than readAheadChanges wait. */
  fill(): void {
    if (this.closed || this.reading || this.exhausted) return;
    if (this.ahead.length - this.next >= readAheadChanges) return;
    this.reading = true;
    this.reads.playbackChanges(this.playback, readAheadPage).then(
      ({ changes, done }) => {
        this.reading = false;
        this.exhausted = done;
        this.ahead.push(...changes);
        this.fill();
      },
      () => {
        // The worker failed or was closed: what was read is played, and playback ends there.
        this.reading = false;
        this.exhausted = true;
      },
    );
  }

  /** Closes the worker's playback (it closed it itself after the last page). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (!this.exhausted) this.reads.closePlayback(this.playback);
  }
}
