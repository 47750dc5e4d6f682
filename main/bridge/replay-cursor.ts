// Where a replay's rows stand, as its historyCursor messages tell the renderer: the moment, the gap
// covering it, and while a moment is rebuilt how many of its rows were sent of how many, so the
// renderer never takes a half-sent past for the whole one.
import type { ReplayGap } from '../../shared/protocol/history-messages';
import type { OutgoingBatch, OutgoingMessage } from './outgoing-message';
import { upsertCount } from './outgoing-message';

export interface ReplayCursorOptions {
  readonly subscriptionId: string;
  readonly send: (message: OutgoingMessage) => void;
  /** How many rows the renderer holds once no moment is being sent. */
  readonly held: () => number;
  /** Rows of the moment being sent that its live base holds as they are (not sent), if compared. */
  readonly unchanged: () => number | undefined;
  /** The player's view clock while one plays. */
  readonly viewClock: () => number | undefined;
}

export class ReplayCursor {
  /** The moment the rows show. */
  moment = 0;
  gap: ReplayGap | undefined;
  /** Set while the moment is read (no total yet), then while its snapshot is sent: rows sent, of total. */
  rebuilding: { rebuilt: number; total?: number } | undefined;
  /**
   * Set when rebuilding the moment failed after some of its rows were sent: the cursor keeps counting
   * them against the moment's total, so the renderer never takes what it holds for the whole moment.
   */
  cutShort = false;
  /** The moment waits behind the player's view clock (see HistoryCursorMessage.catchingUp). */
  catchingUp = false;
  /**
   * A playback's jump rebuilt this moment and its rows are not on the page yet (see
   * PlaybackView.rebuiltRowsPending): while playing, the cursor is still counted short of whole and
   * follows the view clock, as while the moment is read; set when the jump starts, cleared by the
   * player's first frame once it lands.
   */
  landing = false;

  constructor(private readonly options: ReplayCursorOptions) {}

  /**
   * Counts a batch sent during a snapshot and says how far the rebuild has got; true when it ended the
   * snapshot of a whole moment.
   */
  counted(batch: OutgoingBatch): boolean {
    const rebuilding = this.rebuilding;
    if (!rebuilding) return false;
    rebuilding.rebuilt = (batch.replace ? 0 : rebuilding.rebuilt) + upsertCount(batch);
    const whole = batch.snapshotEnd === true && !this.cutShort;
    if (whole) this.rebuilding = undefined;
    this.announce();
    return whole;
  }

  announce(): void {
    const rebuilding = this.rebuilding;
    const held = this.options.held();
    const total = rebuilding ? rebuilding.total : held;
    let rebuilt = rebuilding ? rebuilding.rebuilt : held;
    const viewClock = this.options.viewClock();
    const landing = this.landing && viewClock !== undefined && !rebuilding;
    // The snapshot is all sent but the page is still taking it in: one row short of whole, so the
    // renderer does not take its rows for the moment's yet.
    if (landing && total !== undefined && total > 0) rebuilt = Math.min(rebuilt, total - 1);
    const unchanged = this.options.unchanged();
    if (rebuilding && unchanged !== undefined) {
      // Rows the renderer holds already are rebuilt too, but the total is reached only by the batch
      // that ends the snapshot (the renderer applies it whole then).
      rebuilt += unchanged;
      if (total !== undefined && rebuilt >= total) rebuilt = Math.max(0, total - 1);
    }
    // While a playback's jump rebuilds its moment (ahead of the view clock), no row of it is shown
    // yet: the cursor follows the view clock there rather than leaping ahead, and names the moment
    // once its rows are whole.
    const time =
      (rebuilding || landing) && viewClock !== undefined ? Math.min(this.moment, viewClock) : this.moment;
    this.options.send({
      type: 'historyCursor',
      subscriptionId: this.options.subscriptionId,
      time,
      playing: viewClock !== undefined,
      rebuilt,
      ...(total !== undefined ? { total } : {}),
      ...(this.gap ? { gap: this.gap } : {}),
      ...(this.catchingUp ? { catchingUp: true as const } : {}),
    });
  }
}
