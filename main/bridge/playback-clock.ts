// A playback's view clock, as a video player's: it runs at the speed played from the moment shown
// while the rows follow it, and is held at the moment shown while they cannot (the next changes still
// being read, more of them than a frame applies, the renderer behind), resuming from there once they
// can. Held, it never runs on behind the rows' back: after a stall the moment plays on at the speed
// played from where it stood, rather than racing to a clock that kept running (the cursor would move
// faster than asked, then the stall would look made up for when it was not).

export class PlaybackClock {
  /** The clock runs from `moment` at wall time `wall`. */
  private origin: { moment: number; wall: number };
  /** The moment the clock is held at, while held. */
  private heldAt: number | undefined;
  /** The clock has run since playing was asked for (it is held until the rows can follow). */
  ran = false;

  constructor(
    private readonly now: () => number,
    from: number,
    /** Recorded ms per wall ms. */
    private readonly speed: number,
    /** The clock stops here: the end of the recording played. */
    private readonly end: number,
  ) {
    this.origin = { moment: from, wall: now() };
    this.heldAt = from;
  }

  /**
   * Playing is asked for from now: the clock stays held at the moment played from until the rows can
   * follow it (resume), as a video player buffers before its first frame moves.
   */
  start(): void {
    this.origin = { moment: this.time(), wall: this.now() };
  }

  /** The moment the view has reached: held, or running from its origin; never past the end. */
  time(): number {
    return this.heldAt ?? this.running();
  }

  get held(): boolean {
    return this.heldAt !== undefined;
  }

  /**
   * Where the clock would be had it not been held since it last resumed: how far the rows have fallen
   * behind the speed asked, for the player's decision to jump (see PlaybackLag).
   */
  running(): number {
    return Math.min(this.end, this.origin.moment + (this.now() - this.origin.wall) * this.speed);
  }

  /**
   * Holds the clock at `moment` (the moment shown), never ahead of where it runs nor behind where it
   * is already held: the cursor never moves back.
   */
  hold(moment: number): void {
    const at = Math.min(moment, this.running());
    this.heldAt = Math.max(at, this.heldAt ?? at);
  }

  /** A held clock moves on to `moment` (the rows jumped there), still held; a running one runs on. */
  seek(moment: number): void {
    if (this.heldAt !== undefined) this.heldAt = Math.max(this.heldAt, Math.min(moment, this.end));
  }

  /** Runs on from the moment held (nothing when running): no moment is skipped. */
  resume(): void {
    if (this.heldAt === undefined) return;
    this.origin = { moment: this.heldAt, wall: this.now() };
    this.heldAt = undefined;
    this.ran = true;
  }
}
