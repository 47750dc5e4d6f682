// When a view beside the table (the Children tab, the namespace picker) asks main for its replay's
// moment. It asks a moment only once the one asked before is complete (a playing travel costs a
// rebuild now and then, never a queue of them), and at most every spacingMs while the moment moves.
// An ask that main refused or that the link lost is asked again, after a wait that doubles up to
// retryMaxMs, with its error kept meanwhile: a failure shows as an error that clears itself, never as
// a "Reading…" that lasts for good (an ask's failure used to be dropped, and the view waited on it
// for ever). A new connection holds no replay on main's side: reset() has the moment asked afresh.

/** What a side view does now for a moment: ask it, wait this many ms and look again, or nothing. */
export type SideViewStep = 'ask' | number | undefined;

export class SideViewAsks {
  /** The moment asked last, while its answer is awaited or holds; undefined before any, or failed. */
  private asked: number | undefined;
  private lastAskedAt = Number.NEGATIVE_INFINITY;
  /** Failed asks since the last answer: each doubles the wait before the next. */
  private failures = 0;
  private lastError: string | undefined;

  constructor(
    private readonly spacingMs = 500,
    private readonly retryMaxMs = 8_000,
  ) {}

  /** The moment asked last (what a complete replay must show to be this view's). */
  get moment(): number | undefined {
    return this.asked;
  }

  /** Why the last ask failed, until one is answered. */
  get error(): string | undefined {
    return this.lastError;
  }

  /**
   * The step for showing `time` at `now`, `complete` saying whether the replay holds the whole of the
   * moment it was last sent (an ask still being rebuilt is left to finish first).
   */
  next(time: number, complete: boolean, now: number): SideViewStep {
    if (this.asked === time) return undefined;
    if (this.asked !== undefined && !complete) return undefined;
    const spacing =
      this.failures === 0 ? this.spacingMs : Math.min(this.retryMaxMs, this.spacingMs * 2 ** this.failures);
    const wait = this.lastAskedAt + spacing - now;
    return wait > 0 ? wait : 'ask';
  }

  asking(time: number, now: number): void {
    this.asked = time;
    this.lastAskedAt = now;
  }

  /** Main answered the ask of `time`; says whether an error was cleared (the view shows it no more). */
  answered(time: number): boolean {
    if (this.asked !== time) return false;
    this.failures = 0;
    const cleared = this.lastError !== undefined;
    this.lastError = undefined;
    return cleared;
  }

  /** The ask of `time` failed: it is asked again (see next). */
  failed(time: number, message: string): void {
    if (this.asked !== time) return;
    this.asked = undefined;
    this.failures += 1;
    this.lastError = message;
  }

  /** Main's side holds the replay no more (a new connection): the moment is asked again at once. */
  reset(): void {
    this.asked = undefined;
    this.failures = 0;
    this.lastAskedAt = Number.NEGATIVE_INFINITY;
  }
}
