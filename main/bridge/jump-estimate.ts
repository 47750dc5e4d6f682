// How long a player's next jump will take, so it can aim that far ahead of the view clock: its rows
// are then whole about when the view clock reaches their moment. An aim too short leaves the cursor
// waiting at the jump's moment until its rows are whole; one too long has the cursor leap ahead of
// the view clock when they are, and wait there for it. A jump rebuilds a moment (its rows read from
// the recording's row frames and sent), so its time follows the moment's rows and how busy the
// machine is: the jumps this playback made say it best, averaged over the last few since one alone is
// at the mercy of a single pause of the machine. Before the first, the subscription's last rebuild
// (the travel that showed the moment played from) is the best guess: the same kind, about the same
// rows, on the same machine a moment ago.

/** Jumps remembered: enough to smooth one slow or quick jump, few enough to follow a change of load. */
const jumpsRemembered = 3;

export class JumpEstimate {
  private readonly jumps: number[] = [];

  /**
   * `leastMs`: no jump is expected quicker. `previousMs`: the subscription's last rebuild before
   * playing, if any.
   */
  constructor(
    private readonly leastMs: number,
    private readonly previousMs?: number,
  ) {}

  /** Notes how long a jump of this playback took, in wall ms. */
  observe(ms: number): void {
    this.jumps.push(ms);
    if (this.jumps.length > jumpsRemembered) this.jumps.shift();
  }

  /** How long the next jump is expected to take, in wall ms. */
  get expectedMs(): number {
    const jumps = this.jumps;
    const expected =
      jumps.length > 0 ? jumps.reduce((sum, ms) => sum + ms, 0) / jumps.length : (this.previousMs ?? 0);
    return Math.max(this.leastMs, expected);
  }
}
