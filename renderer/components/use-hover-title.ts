// A table cell's whole text as its title, set on the cell the pointer is over instead of on every cell
// a render writes. Chromium's own stylesheet matches on the title attribute (abbr[title]), so each
// title written invalidates its element's style: a keystroke's answer wrote ~460 titles into the rows
// in view and restyled ~630 elements (4-5 ms of the page's thread at 150,000 pods), churn restyled
// every changed row's cells, and only the one hovered cell ever shows its tooltip.
//
// The invariant: the cell under the pointer has a title that is its text (or the one its renderer
// gave it, as an age's timestamp), and no other cell carries a title this hook set.
import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';

export function useHoverTitle(containerRef: RefObject<HTMLElement | null>): void {
  /** The cell this hook gave a title (the hovered one), if any. */
  const titled = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const clear = () => {
      titled.current?.removeAttribute('title');
      titled.current = null;
    };
    const over = (event: PointerEvent) => {
      const target = event.target instanceof Element ? event.target : null;
      const cell = target?.closest<HTMLElement>('[role="gridcell"]') ?? null;
      if (cell === titled.current) return;
      clear();
      // A cell whose renderer gave it a title of its own keeps it.
      if (!cell || cell.hasAttribute('title')) return;
      cell.title = cell.textContent ?? '';
      titled.current = cell;
    };
    container.addEventListener('pointerover', over);
    container.addEventListener('pointerleave', clear);
    return () => {
      container.removeEventListener('pointerover', over);
      container.removeEventListener('pointerleave', clear);
      clear();
    };
  }, [containerRef]);

  // Rows are keyed by position: after a commit the hovered cell may hold another row's text.
  useLayoutEffect(() => {
    const cell = titled.current;
    if (!cell) return;
    if (!cell.isConnected) {
      titled.current = null;
      return;
    }
    const text = cell.textContent ?? '';
    if (cell.title !== text) cell.title = text;
  });
}
