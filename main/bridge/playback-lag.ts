// When a player stops catching up change by change and jumps (rebuilds the moment at its view clock,
// as a travel does). A jump costs a whole moment (seconds of the query worker at 150,000 pods), so it
// is for lags that change-by-change play cannot close soon: one that keeps growing (a list's burst:
// thousands of changes a recorded second), or one shrinking too slowly to close within
// catchUpLimitMs. A lag left by a pause of the machine (a collection, a late page) grows in one
// frame and shrinks in the next ones: it is caught up, never jumped.

/** Frames running in which the lag grew before it is taken for one that keeps growing. */
const framesGrowing = 3;
/** Frames after the lag's peak over which its shrinking is measured. */
const framesShrinking = 2;
/** The longest a shrinking lag may take to close, in wall ms, at the rate it shrank since its peak. */
const catchUpLimitMs = 2_000;

export class PlaybackLag {
  private last = 0;
  private growing = 0;
  /** The largest lag since the moment last caught up (or since the last jump). */
  private peak: { lag: number; at: number; framesSince: number } | undefined;

  /** `jumpLag`: the lag in recorded ms (the speed times wall ms) below which no jump is called for. */
  constructor(private readonly jumpLag: number) {}

  /**
   * Notes how far (recorded ms) the moment is behind the view clock at a frame at wall time `now`;
   * true when the player should jump.
   */
  observe(lag: number, now: number): boolean {
    this.growing = lag > this.last ? this.growing + 1 : 0;
    this.last = lag;
    if (lag <= 0) {
      this.peak = undefined;
      return false;
    }
    if (!this.peak || lag >= this.peak.lag) this.peak = { lag, at: now, framesSince: 0 };
    else this.peak.framesSince++;
    if (lag <= this.jumpLag) return false;
    if (this.growing >= framesGrowing) return true;
    if (this.peak.framesSince < framesShrinking) return false;
    // Recorded ms of lag closed per wall ms since the peak.
    const closing = (this.peak.lag - lag) / Math.max(1, now - this.peak.at);
    return lag / closing > catchUpLimitMs;
  }

  /** Forgets the lags seen: the moment was rebuilt where the view clock is. */
  reset(): void {
    this.last = 0;
    this.growing = 0;
    this.peak = undefined;
  }
}
