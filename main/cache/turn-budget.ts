// Work done back to back in one task of the event loop (a watch burst, a relist's pops, a listener's
// notifications) is bounded by count and by time, so no burst holds the thread (timers, I/O, IPC) for
// long. Between turns the loop yields with a macrotask: a microtask would not let I/O or timers run.
import type { Clock } from './clock';

/** A turn ends after this long even below its item count: cold code, a slow or busy machine. */
export const turnBudgetMs = 8;

export class TurnBudget {
  private count = 0;
  private start = 0;

  constructor(
    private readonly clock: Clock,
    readonly maxItems: number,
    private readonly maxMs = turnBudgetMs,
  ) {}

  /** Counts one item; true once more than maxItems, or maxMs, went into this turn (then await nextTurn()). */
  spend(): boolean {
    if (++this.count === 1) {
      this.start = this.clock.now();
      return false;
    }
    // The clock is read every 16 items only: reading it per item would cost more than most items.
    if (
      this.count > this.maxItems ||
      ((this.count & 15) === 0 && this.clock.now() - this.start >= this.maxMs)
    ) {
      this.count = 0;
      return true;
    }
    return false;
  }

  /** The loop waited for more work (I/O): the next item starts a new turn. */
  reset(): void {
    this.count = 0;
  }
}

/** Resolves in a later task of the event loop, after pending I/O and timers. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
