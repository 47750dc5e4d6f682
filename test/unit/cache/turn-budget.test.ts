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
