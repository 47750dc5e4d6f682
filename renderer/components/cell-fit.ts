// Whether a table cell's text surely fits its column, so the cell may go without a clip. Every clipped
// cell (overflow: hidden, for the ellipsis) is a clip node of its own in Chromium's property trees, and
// the paint chunks of 60 rows x 8 clipped cells cost the page's paint and layerization ~4-5 ms of
// thread time in each frame that changed any row's text (ages ticking, churn), against ~1 ms with one
// clipped cell a row (measured in Chromium on the table's own CSS). A cell is left unclipped only when
// an upper bound of its text's width is within the least width its column can have; any doubt clips.

/** Horizontal padding of a cell (10px each side, .table-cell). */
const cellPadding = 20;
/** The table's font size in px (13px; monospace cells are 12px, which the bounds below also cover). */
const fontSize = 13;
/** Bold names (font-weight 520-600) and font fallbacks: a tenth more than the regular glyphs' bound. */
const weightAllowance = 1.1;

/**
 * An upper bound, in em, of a character's advance in the UI fonts (Inter, then DejaVu Sans and the
 * system sans-serifs) and the monospace ones (0.6em): lower case and digits at most 0.65em but m and w,
 * upper case 0.8em but M and W, punctuation a monospace cell's 0.6em, anything else a whole em.
 */
function advanceBound(code: number): number {
  if (code === 0x6d || code === 0x77) return 1; // m, w
  if ((code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39)) return 0.65;
  if (code === 0x4d || code === 0x57) return 1; // M, W
  if (code >= 0x41 && code <= 0x5a) return 0.8;
  if (code === 0x2d || code === 0x2e || code === 0x2f || code === 0x3a || code === 0x20) return 0.6;
  if (code === 0x5f || code === 0x28 || code === 0x29 || code === 0x2c) return 0.6; // _ ( ) ,
  return 1;
}

/** An upper bound of `text`'s width in px at the table's font, plus `extra` px beside it (an icon). */
export function textWidthBound(text: string, extra = 0): number {
  let ems = 0;
  for (let index = 0; index < text.length; index++) ems += advanceBound(text.charCodeAt(index));
  return ems * fontSize * weightAllowance + extra;
}

/**
 * The least content width (px) a column of this CSS grid track can get: its fixed or minmax() minimum
 * less the cell's padding (the table scrolls sideways before any column goes under its minimum: see
 * minimumTableWidth). 0 when the track gives no minimum in px.
 */
export function leastContentWidth(width: string): number {
  const match = /^(?:minmax\()?(\d+(?:\.\d+)?)px/.exec(width);
  return match ? Math.max(0, Number(match[1]) - cellPadding) : 0;
}

/** A cell's text as it will show, and any fixed-width part beside it (a status dot and its gap). */
export interface CellText {
  readonly text: string;
  readonly extra?: number;
}

/** True when `cell` surely fits `leastWidth` px (undefined: the text is unknown or changes by itself). */
export function cellFits(cell: CellText | undefined, leastWidth: number): boolean {
  return cell !== undefined && textWidthBound(cell.text, cell.extra) <= leastWidth;
}

/**
 * The class of a cell whose text changes by itself (an age ticking, a metric), which the cell decides
 * as it renders: `cell` and `fits` when the text surely fits (no clip), else `cell` alone (the cell
 * clips and ellipsizes it).
 */
export function fittedCell(cell: string, text: string, leastWidth: number): string {
  return cellFits({ text }, leastWidth) ? `${cell} fits` : cell;
}
