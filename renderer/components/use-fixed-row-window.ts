// The rows of a fixed-row-height list that are inside its scroll container's viewport, plus an
// overscan on each side. Every row is `rowHeight` tall, so the window is arithmetic on scrollTop: O(1)
// per render whatever the row count. @tanstack/react-virtual (still used where rows have measured
// heights, the log view) lays out all `count` items whenever the count or its options change; at
// 150,000 rows that was 5-10 ms per keystroke's answer and per scroll frame in the ui bench's profiles.
import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';

export interface RowWindow {
  /** The first row rendered (overscan included). */
  readonly start: number;
  /** One past the last row rendered. */
  readonly end: number;
  /** The first row in view. */
  readonly first: number;
  /** One past the last row in view. */
  readonly last: number;
  /**
   * Tells the window which rows the last commit left showing what they should, [start, end) unless
   * part of the overscan still holds an older answer (see held-overscan.ts): a scroll that brings a
   * row outside them into view renders before its frame is drawn. Called from a layout effect.
   */
  readonly markRendered: (rows: { start: number; end: number }) => void;
  /**
   * Scrolls the least needed to show row `index` whole below the sticky header (none if it is). The
   * same function for the hook's lifetime, so an effect that scrolls to a selection runs when the
   * selection moves, not whenever the row count does.
   */
  readonly scrollToIndex: (index: number) => void;
}

export interface RowWindowOptions {
  readonly count: number;
  readonly rowHeight: number;
  /** Height of a sticky header at the top of the scroll container, above the first row. */
  readonly headerHeight: number;
  readonly overscan: number;
}

export interface Viewport {
  readonly scrollTop: number;
  readonly height: number;
}

/**
 * Whether a scroll must render before its frame is drawn: when some row now in view is outside the
 * rows rendered, [start, end). A scroll within the overscan shows rows already in the DOM, so the window
 * can follow in a task after the frame.
 */
export function mustRenderInFrame(
  rendered: { start: number; end: number },
  visible: [number, number],
): boolean {
  const [first, last] = visible;
  return first < last && (first < rendered.start || last > rendered.end);
}

/** The rows [first, last) any part of which is visible below the sticky header. */
export function visibleRows(viewport: Viewport, options: RowWindowOptions): [number, number] {
  const { count, rowHeight, headerHeight } = options;
  const first = Math.min(count, Math.floor(viewport.scrollTop / rowHeight));
  const last = Math.min(count, Math.ceil((viewport.scrollTop + viewport.height - headerHeight) / rowHeight));
  return [first, Math.max(first, last)];
}

export function useFixedRowWindow(
  scrollRef: RefObject<HTMLElement | null>,
  options: RowWindowOptions,
): RowWindow {
  const [viewport, setViewport] = useState<Viewport>({ scrollTop: 0, height: 0 });

  // Measured before the first paint (layout effect), so the first frame with rows already shows them.
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const read = () =>
      setViewport((previous) =>
        previous.scrollTop === element.scrollTop && previous.height === element.clientHeight
          ? previous
          : { scrollTop: element.scrollTop, height: element.clientHeight },
      );
    read();
    // Scroll events arrive once per animation frame, before it is drawn. Rows scrolled into view that
    // are not rendered yet are rendered synchronously here, in that same frame, rather than showing the
    // overscan's edge first. Rows already rendered (a wheel notch is ~9 rows, the overscan 12) need
    // nothing in this frame: the window follows in React's next task, and the rows it adds are
    // styled, laid out and painted in a frame of their own, not in the scroll's (issue 15: a scroll
    // frame under churn held 12-15 ms of the thread's time, most of it those rows).
    const onScroll = () => {
      const visible = visibleRows(
        { scrollTop: element.scrollTop, height: element.clientHeight },
        latest.current,
      );
      if (mustRenderInFrame(rendered.current, visible)) flushSync(read);
      else read();
    };
    element.addEventListener('scroll', onScroll, { passive: true });
    const resizes = new ResizeObserver(read);
    resizes.observe(element);
    return () => {
      element.removeEventListener('scroll', onScroll);
      resizes.disconnect();
    };
  }, [scrollRef]);

  const [first, last] = visibleRows(viewport, options);
  const latest = useRef(options);
  latest.current = options;
  const start = Math.max(0, first - options.overscan);
  const end = Math.min(options.count, last + options.overscan);
  // The rows in the DOM that show what they should, as of the last commit (what a scroll's rows are
  // checked against): told by the caller, which knows whether its overscan holds an older answer.
  const rendered = useRef({ start: 0, end: 0 });
  const markRendered = useCallback((rows: { start: number; end: number }) => {
    rendered.current = rows;
  }, []);

  const scrollToIndex = useCallback(
    (index: number) => {
      const element = scrollRef.current;
      const { count, rowHeight, headerHeight } = latest.current;
      if (!element || index < 0 || index >= count) return;
      // In the container's content, row i spans [headerHeight + i * rowHeight, + rowHeight), and the
      // sticky header covers the top headerHeight pixels of the viewport.
      const top = index * rowHeight;
      const bottom = headerHeight + (index + 1) * rowHeight;
      if (top < element.scrollTop) element.scrollTop = top;
      else if (bottom > element.scrollTop + element.clientHeight)
        element.scrollTop = bottom - element.clientHeight;
    },
    [scrollRef],
  );

  return { start, end, first, last, markRendered, scrollToIndex };
}
