import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../../main/cache/fake-clock';
import { TurnBudget, turnBudgetMs } from '../../../main/cache/turn-budget';

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
});
