// What a player is given and what it moves: the query worker's reads, its timing, the rows it plays
// (the replay subscription's) and where it starts. Types only, so the subscription and the player
// share them without the one importing the other's logic.
import type { ReplayGap } from '../../shared/protocol/history-messages';
import type { HistoryQueries, PlaybackChange, PlaybackQuery } from '../history/history-queries';
import type { PlaybackReads } from './playback-read-ahead';

/** What rebuilding a moment asks of the query worker. */
export type MomentReads = Pick<HistoryQueries, 'stateRows' | 'stateAt'> &
  Partial<Pick<HistoryQueries, 'momentSize'>>;
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
  /**
   * The rows of a moment rebuilt (a jump's) are still on their way to the page: its snapshot not all
   * sent, or the renderer still taking it in (a batch sent not yet acknowledged as applied). Until they are on the page
   * the jump has not landed: the moment is not shown, so the clock does not run from it.
   */
  rebuiltRowsPending(): boolean;
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
