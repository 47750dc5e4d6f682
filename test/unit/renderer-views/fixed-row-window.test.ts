import { describe, expect, it } from 'vitest';
import { mustRenderInFrame, visibleRows } from '../../../renderer/components/use-fixed-row-window';

// Rows of 28 px under a sticky 29 px header: row i spans [29 + 28i, 29 + 28(i + 1)) of the content.
const options = { count: 150_000, rowHeight: 28, headerHeight: 29, overscan: 0 };

describe('visibleRows', () => {
  it('lists the rows below the header at the top', () => {
    // 300 px tall: 271 px of rows show rows 0-9 (the tenth, row 9, only in part).
    expect(visibleRows({ scrollTop: 0, height: 300 }, options)).toEqual([0, 10]);
  });

  it('starts at the row the header covers only in part', () => {
    // Scrolled 30 px: row 1 (content 57-85) is under the header's bottom edge (30-59) only in part.
    expect(visibleRows({ scrollTop: 30, height: 300 }, options)).toEqual([1, 11]);
    expect(visibleRows({ scrollTop: 56, height: 300 }, options)).toEqual([2, 12]);
  });

  it('stops at the last row, whatever the scroll position', () => {
    const few = { ...options, count: 5 };
    expect(visibleRows({ scrollTop: 0, height: 900 }, few)).toEqual([0, 5]);
    expect(visibleRows({ scrollTop: 5000, height: 900 }, few)).toEqual([5, 5]);
  });

  it('finds the window deep in 150,000 rows from scrollTop alone', () => {
    const top = 28 * 120_000;
    expect(visibleRows({ scrollTop: top, height: 900 }, options)).toEqual([120_000, 120_032]);
  });
});

describe('mustRenderInFrame', () => {
  // Rows 100-160 rendered: 30 in view and an overscan of 12 on either side, then 18 more below.
  const rendered = { start: 100, end: 160 };

  it('leaves a scroll within the rendered rows to a task after the frame', () => {
    // A wheel notch of 240 px (~9 rows) from rows 112-142: the rows in view are in the DOM already.
    expect(mustRenderInFrame(rendered, [121, 151])).toBe(false);
    expect(mustRenderInFrame(rendered, [100, 160])).toBe(false);
  });

  it('renders in the frame when a row in view is not rendered, on either side', () => {
    expect(mustRenderInFrame(rendered, [131, 161])).toBe(true);
    expect(mustRenderInFrame(rendered, [99, 129])).toBe(true);
    // A jump far past the window (the scrollbar dragged, End pressed).
    expect(mustRenderInFrame(rendered, [120_000, 120_030])).toBe(true);
  });

  it('has nothing to render for an empty view', () => {
    expect(mustRenderInFrame({ start: 0, end: 0 }, [0, 0])).toBe(false);
  });
});
