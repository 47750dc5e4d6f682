// How a table sorts: the view store holds the sort as the user sees it (a column and an arrow); this
// file turns it into the mirror's RowSort. Two rules come from kubectl users' expectations:
// - AGE-like columns (Age, Last Seen, First Seen) hold timestamps but show durations, so "ascending"
//   means the smallest age first: the youngest object, the newest timestamp. The timestamp order is
//   therefore reversed for them, and a first click on them (ascending, like any column) shows the
//   youngest first, as `kubectl get --sort-by` on an age reads.
// - A kind may have its own default order: Events by Last Seen, newest first (kubectl events, k9s);
//   every other kind by name. The view store marks "the kind's default" with an empty column id, so
//   switching kinds never carries a sort the new kind cannot honour.
import type { RowSort } from '../store/row-query';
import type { ViewSort } from '../ui-state/view-store';
import type { KindColumn } from './table-columns';

/** The view store's column id for "this kind's default order". */
export const kindDefaultColumn = '';

/** True for a column whose cells are timestamps shown as ages. */
export function isAgeColumn(column: KindColumn): boolean {
  return column.id === 'age' || column.definition?.format === 'age';
}

/** The sort the table shows: the stored one, or the kind's default (Last Seen for Events, else name). */
export function shownSort(sort: ViewSort, columns: readonly KindColumn[], kind: string): ViewSort {
  if (sort.column !== kindDefaultColumn && columns.some((column) => column.id === sort.column)) return sort;
  if (sort.column === kindDefaultColumn && kind === 'Event') {
    const lastSeen = columns.find((column) => column.definition?.name === 'Last Seen');
    if (lastSeen) return { column: lastSeen.id, descending: false };
  }
  // The default, or a column this kind does not have (the sort of the kind shown before).
  return { column: 'name', descending: false };
}

/** The mirror's sort for a shown sort: ages ascending are timestamps descending (youngest first). */
export function rowSortFor(sort: ViewSort, columns: readonly KindColumn[]): RowSort {
  const column = columns.find((candidate) => candidate.id === sort.column);
  if (!column) return { column: 'name', descending: sort.descending };
  return { column: column.sortBy, descending: isAgeColumn(column) ? !sort.descending : sort.descending };
}
