import { describe, expect, it } from 'vitest';
import { noRenderedKeys, planRows, renderedRows } from '../../../renderer/components/held-overscan';
import type { RenderedKeys } from '../../../renderer/components/held-overscan';

const keysOf = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, index) => `${prefix}${index}`);
/** As VirtualTable renders at the top of a table: 26 rows in view, an overscan of 12 below them. */
const top = { start: 0, end: 38, first: 0, last: 26 };
const shown = (keys: readonly string[], window = top): RenderedKeys => ({
  start: window.start,
  first: window.first,
  keys: keys.slice(window.start, window.end),
  holding: false,
});

describe('planRows', () => {
  it('renders every position of the window when the rows in view were shown before (churn)', () => {
    const before = keysOf('pod-', 1000);
    // A pod deleted above the window moves every row up by one: the same keys, other positions.
    const after = before.slice(1);
    const plan = planRows(after, top, shown(before), false);
    expect(plan.holding).toBe(false);
    expect(plan.keys).toEqual(after.slice(0, 38));
    expect(renderedRows(top, plan)).toEqual({ start: 0, end: 38 });
  });

  it('holds the overscan and renders the rows in view when they are a new answer', () => {
    const before = keysOf('pod-', 1000);
    const answer = keysOf('web-', 500);
    const plan = planRows(answer, top, shown(before), false);
    expect(plan.holding).toBe(true);
    expect(plan.keys.slice(0, 26)).toEqual(answer.slice(0, 26));
    // Positions 26-37 keep the rows they showed, untouched in the DOM.
    expect(plan.keys.slice(26)).toEqual(before.slice(26, 38));
    // Only the rows in view show the answer: a scroll past them renders before its frame.
    expect(renderedRows(top, plan)).toEqual({ start: 0, end: 26 });
  });

  it('follows with the whole window once the rows in view are the ones shown', () => {
    const before = keysOf('pod-', 1000);
    const answer = keysOf('web-', 500);
    const held = planRows(answer, top, shown(before), false);
    const followed = planRows(answer, top, { start: 0, first: 0, keys: held.keys, holding: true }, false);
    expect(followed.holding).toBe(false);
    expect(followed.keys).toEqual(answer.slice(0, 38));
  });

  it('keeps holding through a render of the same answer before the overscan followed', () => {
    const before = keysOf('pod-', 1000);
    const answer = keysOf('web-', 500);
    const held = planRows(answer, top, shown(before), false);
    const committed = { start: 0, first: 0, keys: held.keys, holding: held.holding };
    // A metrics sample or a re-read row re-renders the window before the answer's frame is drawn.
    const again = planRows(answer, top, committed, true);
    expect(again.holding).toBe(true);
    expect(again.keys).toEqual(held.keys);
    expect(renderedRows(top, again)).toEqual({ start: 0, end: 26 });
    // A scroll never holds, pending follow or not.
    const scrolled = { start: 0, end: 41, first: 3, last: 29 };
    expect(planRows(answer, scrolled, committed, true).holding).toBe(false);
  });

  it('keeps holding through keystrokes that come before the overscan followed', () => {
    const before = keysOf('pod-', 1000);
    const first = planRows(keysOf('a-', 500), top, shown(before), false);
    const second = planRows(
      keysOf('ab-', 500),
      top,
      { start: 0, first: 0, keys: first.keys, holding: true },
      true,
    );
    expect(second.holding).toBe(true);
    expect(second.keys.slice(26)).toEqual(before.slice(26, 38));
  });

  it('leaves positions the render before had no row at empty (a first render, a longer answer)', () => {
    const plan = planRows(keysOf('pod-', 1000), top, noRenderedKeys, false);
    expect(plan.holding).toBe(true);
    expect(plan.keys.slice(26)).toEqual(new Array(12).fill(undefined));
    const few = planRows(keysOf('web-', 1000), top, shown(keysOf('pod-', 30)), false);
    expect(few.keys.slice(26, 30)).toEqual(['pod-26', 'pod-27', 'pod-28', 'pod-29']);
    expect(few.keys.slice(30)).toEqual(new Array(8).fill(undefined));
  });

  it('never holds for a scroll: the overscan is there for the next one', () => {
    const keys = keysOf('pod-', 150_000);
    // A jump of the scrollbar: every row in view is new, and all of the window renders.
    const deep = { start: 119_988, end: 120_038, first: 120_000, last: 120_026 };
    const jump = planRows(keys, deep, shown(keys), false);
    expect(jump.holding).toBe(false);
    expect(jump.keys).toEqual(keys.slice(119_988, 120_038));
    // A flick of the wheel 30 rows down between two renders, under churn (a new list of keys): most
    // rows in view were not rendered, and still the window renders whole.
    const flick = { start: 18, end: 68, first: 30, last: 56 };
    const churned = [...keys.slice(0, 30), 'pod-new', ...keys.slice(30)];
    expect(planRows(churned, flick, shown(keys), false).holding).toBe(false);
    // A wheel notch into the overscan: its rows were rendered already.
    expect(planRows(keys, { start: 0, end: 47, first: 9, last: 35 }, shown(keys), false).keys).toEqual(
      keys.slice(0, 47),
    );
  });

  it('holds nothing for an empty view', () => {
    const plan = planRows([], { start: 0, end: 0, first: 0, last: 0 }, shown(keysOf('pod-', 40)), false);
    expect(plan).toEqual({ keys: [], holding: false });
  });
});
