// The one comparison of cell values every order of the table uses (row-query's sorts, the name order,
// SortedOrder), so a name sorts the same way whichever path answered the query.
import type { CellValue } from '../../shared/protocol/row';
import { compareText } from './text-collation';

/**
 * Numbers numerically, everything else as text with numeric-aware collation (compareText: the
 * collator's answers); null/undefined after values.
 */
export function compareCells(left: CellValue | undefined, right: CellValue | undefined): number {
  const leftMissing = left === null || left === undefined;
  const rightMissing = right === null || right === undefined;
  if (leftMissing || rightMissing) return leftMissing === rightMissing ? 0 : leftMissing ? 1 : -1;
  if (typeof left === 'number' && typeof right === 'number') return left - right;
  return compareText(String(left), String(right));
}
