// A playback's view clock, as a video player's: it runs at the speed played from the moment the
// playback starts, and is held at the moment shown only while the recording's next changes are not
// read yet (buffering), resuming from there once they are. Main or the page slow to apply what was
// read (a pause of a loaded machine, a frame cut short by its budget, the renderer behind) do not
// hold it: the rows fall behind it and catch up (each key's last change a step), as a video player
// drops late frames rather than slow its clock, so the moment moves at the speed asked over any
// stretch the rows can follow. Held, it never runs on behind the rows' back: after buffering the
// moment plays on from where it stood.

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
   * Where the clock would be had it not been held since it last resumed (its time when running): how
   * far the rows have fallen behind the speed asked, for the player's decision to jump (PlaybackLag).
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

  /**
   * Runs on from the moment held (nothing when running): no moment is skipped. `since`: the wall time
   * it runs from, when that was earlier than now (the start of the frame that resumes it, see Player).
   */
  resume(since = this.now()): void {
    if (this.heldAt === undefined) return;
    this.origin = { moment: this.heldAt, wall: Math.min(since, this.now()) };
    this.heldAt = undefined;
    this.ran = true;
  }
}
