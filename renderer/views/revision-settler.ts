// When a view may follow its mirror's newest revision: no sooner than a gap after it last did, and,
// for live rows, not while the user scrolls (InputQuiet). The end of a kind's first list is followed
// at once, whatever the gap: that revision is the one that turns the table from "listing" to every
// row, and a listing's gap is long (a second at 150,000 rows: see useKindRows' requeryGapMs).
// Plain TypeScript on an injected clock and timers (useKindRows binds it to React).

export interface RevisionSettlerOptions {
  /** The mirror's revision now. */
  readonly revision: () => number;
  /** Called with the revision to follow; the same one again renders nothing (React bails out). */
  readonly settle: (revision: number) => void;
  /** The least time from one settle to the next, as of now. */
  readonly gapMs: () => number;
  /** How much longer work due since `dueAt` should wait for the user's input to pause (InputQuiet). */
  readonly holdFor: (dueAt: number) => number;
  /** True once the mirror's first snapshot has ended (its list is whole). */
  readonly hasSnapshot: () => boolean;
  readonly now: () => number;
  readonly setTimer: (callback: () => void, delayMs: number) => unknown;
  readonly clearTimer: (timer: unknown) => void;
}

export class RevisionSettler {
  private timer: unknown;
  /** When the pending settle's gap ran out (undefined: none pending, or its gap still runs). */
  private dueAt: number | undefined;
  private lastSettle = Number.NEGATIVE_INFINITY;
  /** The mirror had no whole snapshot at the last settle: its end settles at once. */
  private settledListing: boolean;

  constructor(private readonly options: RevisionSettlerOptions) {
    this.settledListing = !options.hasSnapshot();
  }

  /** The mirror's revision moved (or may have): settle now, or once the gap and the input allow. */
  changed(): void {
    if (this.settledListing && this.options.hasSnapshot()) {
      this.cancel();
      this.settleNow();
      return;
    }
    if (this.timer !== undefined) return;
    const wait = this.lastSettle + this.options.gapMs() - this.options.now();
    if (wait <= 0) this.tryToSettle();
    else this.timer = this.options.setTimer(() => this.tryToSettle(), wait);
  }

  dispose(): void {
    this.cancel();
  }

  private tryToSettle(): void {
    this.timer = undefined;
    this.dueAt ??= this.options.now();
    const hold = this.options.holdFor(this.dueAt);
    if (hold > 0) {
      this.timer = this.options.setTimer(() => this.tryToSettle(), hold);
      return;
    }
    this.settleNow();
  }

  private settleNow(): void {
    this.dueAt = undefined;
    this.lastSettle = this.options.now();
    this.settledListing = !this.options.hasSnapshot();
    this.options.settle(this.options.revision());
  }

  private cancel(): void {
    if (this.timer !== undefined) this.options.clearTimer(this.timer);
    this.timer = undefined;
    this.dueAt = undefined;
  }
}
