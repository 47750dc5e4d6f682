import { describe, expect, it, vi } from 'vitest';
import { FakeClock } from '../../../main/cache/fake-clock';
import { TurnBudget, turnBudgetMs, turnsAfterWorkMs } from '../../../main/cache/turn-budget';

/** Items spent until the budget says the turn is over (the item that ended it not counted). */
function itemsInTurn(budget: TurnBudget, eachItem: () => void = () => {}): number {
  let items = 0;
  while (!budget.spend()) {
    items++;
    eachItem();
  }
  return items;
}

describe('TurnBudget', () => {
  it('ends a turn after maxItems items when they are quick', () => {
    const budget = new TurnBudget(new FakeClock(), 100);
    expect(itemsInTurn(budget)).toBe(100);
    expect(itemsInTurn(budget)).toBe(100);
  });

  it('ends a turn once it has run for its time, checked every 16 items', () => {
    const clock = new FakeClock();
    const budget = new TurnBudget(clock, 1_000);
    // The 16th call reads the clock: 15 items of 1 ms each have used up the budget.
    expect(turnBudgetMs).toBeLessThanOrEqual(15);
    expect(itemsInTurn(budget, () => clock.step(1))).toBe(15);
  });

  it('starts a new turn after reset, when the loop waited for work', () => {
    const budget = new TurnBudget(new FakeClock(), 10);
    for (let item = 0; item < 8; item++) budget.spend();
    budget.reset();
    expect(itemsInTurn(budget)).toBe(10);
  });
});

/** Resolves once the loop has run its timers phase again: the iteration the budgets shared is over. */
function nextIteration(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 2));
}

/**
 * Opens a turn with `open` and resolves in the next timers phase, right after that turn's closing
 * timer has run (it begins the next iteration) and before the check phase ends that iteration. The
 * resolution is chained onto the closing timer itself: a timer of the test's own, set just after it,
 * lands in a later iteration whenever a millisecond boundary falls between the two (Node reads the
 * loop's time afresh for each timer), and its check phase has already run.
 */
function openTurnThenItsNextIteration(open: () => void): Promise<void> {
  const realSetTimeout = globalThis.setTimeout;
  return new Promise((resolve) => {
    const closing = vi.spyOn(globalThis, 'setTimeout').mockImplementationOnce(((
      callback: () => void,
      delayMs?: number,
    ) =>
      realSetTimeout(() => {
        callback();
        resolve();
      }, delayMs)) as typeof setTimeout);
    open();
    expect(closing).toHaveBeenCalledTimes(1);
    closing.mockRestore();
  });
}

describe('TurnBudget stages sharing one iteration of the event loop', () => {
  it('ends a stage early when stages before it in the iteration spent the budget', async () => {
    await nextIteration();
    const clock = new FakeClock();
    const watch = new TurnBudget(clock, 10);
    const pops = new TurnBudget(clock, 1_000);
    // The watch's turn ends at its count, 5 ms into the iteration.
    expect(itemsInTurn(watch, () => clock.step(0.5))).toBe(10);
    // Alone, the pops would run until their own 8 ms at their 32nd item; the iteration's 8 ms are
    // up at their 16th, when their clock is read.
    expect(itemsInTurn(pops, () => clock.step(0.5))).toBe(15);
  });

  it('gives a turn started after the iteration was spent one item, and a full turn in the next', async () => {
    await nextIteration();
    const clock = new FakeClock();
    const busy = new TurnBudget(clock, 1_000);
    const late = new TurnBudget(clock, 50);
    itemsInTurn(busy, () => clock.step(1));
    expect(itemsInTurn(late)).toBe(1);
    await nextIteration();
    expect(itemsInTurn(late)).toBe(50);
  });

  it('resumes a turn cut short by the others before the turns that had their share', async () => {
    await nextIteration();
    const clock = new FakeClock();
    const greedy = new TurnBudget(clock, 1_000);
    const starved = new TurnBudget(clock, 1_000);
    itemsInTurn(greedy, () => clock.step(1));
    itemsInTurn(starved);
    const order: string[] = [];
    const resumed = [
      greedy.nextTurn().then(() => order.push('greedy')),
      starved.nextTurn().then(() => order.push('starved')),
    ];
    await Promise.all(resumed);
    expect(order).toEqual(['starved', 'greedy']);
  });

  it('resumes turns that ended on their own budgets in the order they yielded', async () => {
    await nextIteration();
    const clock = new FakeClock();
    const first = new TurnBudget(clock, 5);
    const second = new TurnBudget(clock, 5);
    itemsInTurn(first);
    itemsInTurn(second);
    const order: string[] = [];
    await Promise.all([
      second.nextTurn().then(() => order.push('second')),
      first.nextTurn().then(() => order.push('first')),
    ]);
    expect(order).toEqual(['second', 'first']);
  });

  it('keeps the iterations of different clocks apart', async () => {
    await nextIteration();
    const spentClock = new FakeClock();
    itemsInTurn(new TurnBudget(spentClock, 1_000), () => spentClock.step(1));
    expect(itemsInTurn(new TurnBudget(new FakeClock(), 50))).toBe(50);
  });

  it("counts the iteration's work before its first turn (a collection run as a task) against its budget", async () => {
    await nextIteration();
    const clock = new FakeClock();
    // The next iteration's timers phase: the turns' closing timer has just run, then this continuation.
    await openTurnThenItsNextIteration(() => itemsInTurn(new TurnBudget(clock, 1)));
    // A 12 ms scavenge before any turn resumes: the iteration has had its 8 ms, and its turns get
    // turnsAfterWorkMs: the 16th item's clock reading finds 8 - 2 + 15 x 0.25 ms spent. Without the
    // scavenge counted, the turn would have run until its own 8 ms, at its 48th.
    clock.work(12);
    expect(turnsAfterWorkMs).toBe(2);
    expect(itemsInTurn(new TurnBudget(clock, 1_000), () => clock.step(0.25))).toBe(15);
  });

  it('leaves a turn what an iteration did not spend before it', async () => {
    await nextIteration();
    const clock = new FakeClock();
    await openTurnThenItsNextIteration(() => itemsInTurn(new TurnBudget(clock, 1)));
    clock.work(4);
    // 4 ms of the 8 are left: the 32nd item's clock reading finds 4 + 31 x 0.25 ms spent; alone, the
    // turn would have run until its own 8 ms, at its 48th.
    expect(itemsInTurn(new TurnBudget(clock, 1_000), () => clock.step(0.25))).toBe(31);
  });

  it('does not count work of an earlier iteration, or time the loop waited for I/O', async () => {
    await nextIteration();
    const clock = new FakeClock();
    await openTurnThenItsNextIteration(() => itemsInTurn(new TurnBudget(clock, 1)));
    clock.step(50);
    // The check phase that ends the iteration passes; the work after it is the next one's business.
    await new Promise((resolve) => setImmediate(resolve));
    clock.work(12);
    expect(itemsInTurn(new TurnBudget(clock, 50))).toBe(50);
  });
});
