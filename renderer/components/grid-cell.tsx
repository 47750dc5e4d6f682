// A table cell as one element holding its text. Every element a row adds is styled, laid out and
// painted when the row scrolls into view: a wheel notch brings ~9 rows of 14 cells, and each cell's
// text in a span of its own inside the cell element made a pod row 30 elements instead of 16. So the
// cell element takes the text's class and title, and only content of several parts (a status's dot, a
// restart count and its time) keeps elements inside the cell.
import type { ReactElement, ReactNode } from 'react';

export interface GridCellOptions {
  /** Classes beside the table's (`cell`): the text's colour, weight or font. */
  readonly className?: string | undefined;
  /**
   * A title that says more than the cell's text (an age's timestamp). Without one, the table gives
   * the hovered cell its text as a title (useHoverTitle): a title written at every render restyles
   * its element.
   */
  readonly title?: string | undefined;
}

/**
 * The cell element of a table row: `cell` is the class the table gives the cell (VirtualTable's
 * renderCell), `content` its text (or its parts), with the options' class and title on the cell itself.
 */
export function gridCell(cell: string, content: ReactNode, options: GridCellOptions = {}): ReactElement {
  return (
    <div
      role="gridcell"
      className={options.className ? `${cell} ${options.className}` : cell}
      title={options.title}
    >
      {content}
    </div>
  );
}
