// Which row each rendered position of a virtual table shows when the rows in view are a new answer
// (a keystroke's filter, a sort, a kind switch) in a view that did not move. The overscan, the rows
// rendered beyond the viewport so that a wheel notch finds them in the DOM, is not seen: in the frame
// that answers, rendering it costs as much per row as the rows in view (at the ui bench's window,
// 12 of 38 rows: their cells laid out, restyled and committed again, a third of the rows' work in a
// keystroke's task on the page's thread) and shows the user nothing. So the overscan holds the rows it
// showed, untouched in the DOM, and follows in a render after that frame is drawn. A scroll never
// holds: the overscan is there for the next scroll, and a scroll into rows not rendered renders
// them before its frame is drawn (useFixedRowWindow), so while the wheel turns a held overscan would
// move that work into every scroll frame.
//
// The hold lasts until the overscan follows, whatever renders in between: a metrics sample or a
// re-read row landing after the answer's commit but before its frame is drawn re-renders the window,
// and taken as the follow it rendered the overscan in that task after all (and left a table that
// showed the answer's overscan in the very frame that answered, one run in many).
//
// The invariant: a row in view always shows the answer's key at its position. A held row is outside
// the viewport; a scroll that brings one into view renders before its frame is drawn, since the rows
// that show the answer are only those in view until the overscan has followed (see renderedRows).

/**
 * The rows a render put in the DOM: the key each position from `start` showed (undefined: none), the
 * first row that was in view, and whether its overscan held an earlier answer's rows.
 */
export interface RenderedKeys {
  readonly start: number;
  readonly first: number;
  readonly keys: readonly (string | undefined)[];
  readonly holding: boolean;
}

export const noRenderedKeys: RenderedKeys = { start: 0, first: 0, keys: [], holding: false };

/** The positions a render covers: [start, end), of which [first, last) are in view. */
export interface RenderedWindow {
  readonly start: number;
  readonly end: number;
  readonly first: number;
  readonly last: number;
}

export interface RowPlan {
  /** The key each position from the window's start shows (undefined: no row there). */
  readonly keys: (string | undefined)[];
  /** Whether the overscan holds the rows it showed before (the rows in view are a new answer). */
  readonly holding: boolean;
}

/**
 * The keys of the window's positions in `keys`' order, or, when the view did not move since the render
 * `before` and most rows in view are keys it did not show (a new answer, not churn moving the same
 * rows by a position or two), the rows in view from `keys` and the overscan holding the key each of
 * its positions showed `before`. A hold `before` made lasts while `followPending` (its overscan has
 * not followed yet) and the view did not move.
 */
export function planRows(
  keys: readonly string[],
  window: RenderedWindow,
  before: RenderedKeys,
  followPending: boolean,
): RowPlan {
  const inView = window.last - window.first;
  const still = inView > 0 && window.first === before.first;
  let unseen = 0;
  if (still) {
    const shown = new Set(before.keys);
    for (let index = window.first; index < window.last; index++) if (!shown.has(keys[index])) unseen++;
  }
  const holding = unseen * 2 > inView || (still && before.holding && followPending);
  const planned: (string | undefined)[] = [];
  for (let index = window.start; index < window.end; index++) {
    const current = !holding || (index >= window.first && index < window.last);
    planned.push(current ? keys[index] : before.keys[index - before.start]);
  }
  return { keys: planned, holding };
}

/**
 * The positions whose rows show the answer after a render of `window` planned as `plan`: those in
 * view while the overscan holds, else all. A scroll that shows a row outside them renders first.
 */
export function renderedRows(window: RenderedWindow, plan: RowPlan): { start: number; end: number } {
  return plan.holding ? { start: window.first, end: window.last } : { start: window.start, end: window.end };
}
