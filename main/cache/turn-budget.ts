// Work done back to back in one task of the event loop (a watch burst, a relist's pops, a listener's
// notifications) is bounded by count and by time, so no burst holds the thread (timers, I/O, IPC) for
// long. Between turns the loop yields with a macrotask: a microtask would not let I/O or timers run.
//
// The stages of one informer (watch decode, DeltaFIFO pops, each listener's deliveries), and those of
// every other informer, resume in the same iteration of the loop: bounded each on its own, their turns
// would run back to back and the loop would stall for their sum. So every TurnBudget on a clock also
// spends from one LoopTurn, that iteration's budget: once the iteration has had its turnBudgetMs,
// every stage ends its turn after its next item.
//
// The iteration's budget also counts the work it did before its first turn: a collection the engine
// ran as a task (V8 posts scavenges as tasks, which Node runs in the poll phase, before the check
// phase resumes the turns), or any other callback. Counted from the first turn only, an iteration
// held that and a full budget of turns besides: a 15 ms scavenge and 8 ms of turns, back to back.
import type { Clock } from './clock';

/** A turn ends after this long even below its item count: cold code, a slow or busy machine. */
export const turnBudgetMs = 8;

/**
 * What an iteration's turns get whatever work came before them (see LoopTurn.enter): work outside
 * the turns that returns every iteration (a decoder's I/O callbacks, their scavenges) would otherwise
 * leave the turns one item each per iteration, and the informers behind would never catch up.
 */
export const turnsAfterWorkMs = 2;

/** What work split into turns asks of its budget (TurnBudget, or a test's). */
export interface Turns {
  /** Counts one item; true when the turn is over (then await nextTurn()). */
  spend(): boolean;
  nextTurn(): Promise<void>;
}

export class TurnBudget implements Turns {
  private count = 0;
  private start = 0;
  private readonly loop: LoopTurn;
  /** The last turn ended because other stages had spent the iteration (see LoopTurn.wait). */
  private starved = false;

  constructor(
    private readonly clock: Clock,
    readonly maxItems: number,
    private readonly maxMs = turnBudgetMs,
  ) {
    this.loop = loopTurnOf(clock);
  }

  /**
   * Counts one item; true once more than maxItems, or maxMs, went into this turn, or once the loop's
   * iteration has been spent by every stage together (then await nextTurn()). The first item of a
   * turn always runs, so each stage moves on in every iteration it gets.
   */
  spend(): boolean {
    if (++this.count === 1) {
      this.start = this.clock.now();
      this.loop.enter(this.start);
      return false;
    }
    if (this.count > this.maxItems) return this.end(false);
    if (this.loop.exhausted) return this.end(true);
    // The clock is read every 16 items only: reading it per item would cost more than most items.
    if ((this.count & 15) === 0) {
      const now = this.clock.now();
      // Asked first, so the iteration learns it is spent even from a turn that ends on its own time.
      const iterationSpent = this.loop.spentBy(now);
      if (now - this.start >= this.maxMs) return this.end(false);
      if (iterationSpent) return this.end(true);
    }
    return false;
  }

  /** The loop waited for more work (I/O): the next item starts a new turn. */
  reset(): void {
    this.count = 0;
  }

  /**
   * Resolves in a later iteration of the loop, after pending I/O and timers. A turn cut short by the
   * others' share of the iteration goes first in the next one, so a stage that is always ready (a
   * watch burst) cannot starve the ones after it (pops, deliveries).
   */
  nextTurn(): Promise<void> {
    return this.loop.wait(this.starved);
  }

  private end(byLoop: boolean): true {
    // Cut short: the turn ran less than half its own time before the others' share ran out.
    this.starved = byLoop && this.clock.now() - this.start < this.maxMs / 2;
    this.count = 0;
    return true;
  }
}

/**
 * One iteration of the event loop as every TurnBudget on a clock shares it: it opens with the first
 * item any of them takes and closes when the loop's timers phase next runs, which is where an
 * iteration begins (so the socket reads of the poll phase and the resumed turns of the check phase
 * share it). Turns that yield wait here, for one resumption per iteration, in order: the starved
 * first, then the rest, in the order they yielded.
 */
class LoopTurn {
  private open = false;
  private start = 0;
  /**
   * The clock's loopBusyMs() when this iteration's timers phase ran (the closing timer), while the
   * iteration lasts (until the check phase's end); undefined otherwise, or on a clock that cannot
   * tell. The work since then, before the first turn, is part of the iteration's budget.
   */
  private busyAtIterationStart: number | undefined;
  /** Numbers the iterations, so a closing timer closes only its own. */
  private serial = 0;
  /** The iteration that was open once the last resumed turns had run (-1: none). */
  private openAfterResume = -1;
  /** The iteration has had its budget. */
  private spent = false;
  /** Read at every item: the iteration is spent, or starved turns wait to go first in the next. */
  exhausted = false;
  private starved: (() => void)[] = [];
  private waiting: (() => void)[] = [];
  private resumeScheduled = false;

  constructor(
    private readonly clock: Clock,
    private readonly budgetMs: number,
  ) {}

  enter(now: number): void {
    if (this.open) return;
    this.open = true;
    // Work done in this iteration before its first turn started is already spent from its budget,
    // all but turnsAfterWorkMs of it.
    const before = this.busyAtIterationStart;
    const workBefore = before === undefined ? 0 : Math.max(0, (this.clock.loopBusyMs?.() ?? before) - before);
    this.start = now - Math.min(workBefore, this.budgetMs - turnsAfterWorkMs);
    this.spent = false;
    this.exhausted = this.starved.length > 0;
    const serial = ++this.serial;
    // setTimeout, not the clock's: the iteration is the real loop's, whatever time a test's clock tells.
    setTimeout(() => {
      if (this.serial !== serial) return;
      this.close();
      this.beginIteration();
    }, 0);
  }

  /** True once the iteration has had its budget (remembered until it closes). */
  spentBy(now: number): boolean {
    if (!this.open) this.enter(now);
    else if (now - this.start >= this.budgetMs) this.spent = this.exhausted = true;
    return this.exhausted;
  }

  wait(starved: boolean): Promise<void> {
    return new Promise((resolve) => {
      if (starved) {
        this.starved.push(resolve);
        // Until they resume, the starved go first: a turn that I/O starts meanwhile takes one item.
        this.exhausted = true;
      } else this.waiting.push(resolve);
      if (this.resumeScheduled) return;
      this.resumeScheduled = true;
      setImmediate(() => this.resume());
    });
  }

  private close(): void {
    this.open = this.spent = false;
    this.exhausted = this.starved.length > 0;
  }

  /**
   * From the timers phase: an iteration starts now. Its check phase runs this immediate after the
   * turns resumed there (their resumption was queued before it, in the last iteration), and ends it.
   */
  private beginIteration(): void {
    const busy = this.clock.loopBusyMs?.();
    if (busy === undefined) return;
    this.busyAtIterationStart = busy;
    setImmediate(() => {
      if (this.busyAtIterationStart === busy) this.busyAtIterationStart = undefined;
    });
  }

  private resume(): void {
    // Still open from the last check phase: the loop has gone round since, in less than the timer's
    // millisecond (or on a test's clock), so this is a new iteration. One opened by I/O in this
    // iteration's poll phase stays open: the turns resumed now share it.
    if (this.open && this.serial === this.openAfterResume) this.close();
    const turns = this.starved.concat(this.waiting);
    this.starved = [];
    this.waiting = [];
    this.resumeScheduled = false;
    this.exhausted = this.spent;
    // Resolved in order, so their continuations run in this order, each until it yields again; this
    // microtask runs after them, and notes the iteration they ran in.
    for (const resume of turns) resume();
    queueMicrotask(() => {
      this.openAfterResume = this.open ? this.serial : -1;
    });
  }
}

const loopTurns = new WeakMap<Clock, LoopTurn>();

function loopTurnOf(clock: Clock): LoopTurn {
  let loop = loopTurns.get(clock);
  if (!loop) loopTurns.set(clock, (loop = new LoopTurn(clock, turnBudgetMs)));
  return loop;
}

/** Resolves in a later task of the event loop, after pending I/O and timers. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
