// A virtualized table: only the rows inside the viewport (plus a small overscan) exist in the DOM, so
// 150,000 keys cost one array and a spacer, not 150,000 elements, and a render costs the same whatever
// the number of keys (rows have one fixed height: see useFixedRowWindow). The table never holds row data in
// React state: it receives the ordered key list and reads each visible row through `getRow`; a row
// re-renders only when its object identity changes (the mirror replaces objects, never mutates them),
// when another row takes its position, when its selection changes, or when the column set changes.
import {
  Fragment,
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useFixedRowWindow } from './use-fixed-row-window';
import { useHoverTitle } from './use-hover-title';
import { noRenderedKeys, planRows, renderedRows, type RenderedKeys } from './held-overscan';
import { cellFits, leastContentWidth, type CellText } from './cell-fit';

export interface TableColumn {
  readonly id: string;
  readonly title: string;
  /** A CSS grid track size, e.g. '90px' or 'minmax(220px, 2fr)'. */
  readonly width: string;
  readonly align?: 'left' | 'right';
  /** A short explanation shown on hover over the header. */
  readonly description?: string;
}

export interface TableSort {
  readonly column: string;
  readonly descending: boolean;
}

export interface VirtualTableProps<Row> {
  readonly keys: readonly string[];
  readonly columns: readonly TableColumn[];
  readonly getRow: (key: string) => Row | undefined;
  /**
   * One cell of a row: the cell element itself (gridCell), with `cell` as its class (the column's
   * alignment, and `fits` when `cellText` says its text surely fits), its text directly inside it.
   */
  readonly renderCell: (row: Row, column: TableColumn, cell: string) => ReactNode;
  /**
   * The text `renderCell` shows, when it follows from the row alone (undefined otherwise: an age that
   * ticks, a metric joined at render, whose cell decides for itself). A cell whose text surely fits its
   * column is not clipped (see cell-fit.ts); without this every cell is.
   */
  readonly cellText?: (row: Row, column: TableColumn) => CellText | undefined;
  /** Changes whenever rows may have changed; visible rows then re-read `getRow`. */
  readonly revision: number;
  readonly sort?: TableSort;
  readonly onSort?: (column: string) => void;
  readonly selectedKey?: string;
  readonly selectedIndex?: number;
  readonly onSelect: (key: string) => void;
  readonly onOpen: (key: string) => void;
  readonly emptyMessage: ReactNode;
  readonly label: string;
}

const rowHeight = 28;
/** The sticky header's height; rows start below it inside the one scroll container. */
const headerHeight = 29;
const cellPadding = 20;

/** The narrowest the columns may get before the table scrolls sideways: the sum of their minimums. */
export function minimumTableWidth(columns: readonly TableColumn[]): number {
  let total = 0;
  for (const column of columns) {
    const match = /^(?:minmax\()?(\d+)px/.exec(column.width);
    total += (match ? Number(match[1]) : 80) + cellPadding;
  }
  return total;
}

export function VirtualTable<Row>(props: VirtualTableProps<Row>): ReactNode {
  const { keys, columns, sort, onSort, selectedIndex } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  useHoverTitle(scrollRef);
  const rowWindow = useFixedRowWindow(scrollRef, {
    count: keys.length,
    rowHeight,
    headerHeight,
    overscan: 12,
  });

  // The header's buttons take one callback for the table's life: a new onSort each render (the window's
  // inline arrow) re-rendered every heading at every revision, and React sets a clicked element's
  // `onclick` again whenever its onClick changes, which Blink keeps as a new listener object until
  // its collector sweeps (~100 a second under churn at 5,000 pods, swept in tasks of 50-77 ms).
  const onSortRef = useRef(onSort);
  onSortRef.current = onSort;
  const sortBy = useCallback((column: string) => onSortRef.current?.(column), []);

  const { scrollToIndex } = rowWindow;
  useEffect(() => {
    if (selectedIndex !== undefined && selectedIndex >= 0) scrollToIndex(selectedIndex);
  }, [selectedIndex, scrollToIndex]);

  // A new answer paints the rows in view first; the overscan follows after that frame (see
  // held-overscan.ts). `committed` is what the last commit showed, position by position.
  // `follow` cancels the follow scheduled for a hold (undefined: none pending). A render before it
  // runs keeps holding, so it is scheduled once per hold, not again (and put off) at each render.
  const committed = useRef<RenderedKeys>(noRenderedKeys);
  const follow = useRef<(() => void) | undefined>(undefined);
  const followPending = follow.current !== undefined;
  // A hold the last commit made, its follow still to come: this render's hold (if any) goes on with it.
  const continued = followPending && committed.current.holding;
  const plan = planRows(keys, rowWindow, committed.current, followPending);
  const { start, first, markRendered } = rowWindow;
  const current = renderedRows(rowWindow, plan);
  useLayoutEffect(() => {
    committed.current = { start, first, keys: plan.keys, holding: plan.holding };
    markRendered(current);
  });
  const [, followOverscan] = useState(0);
  useEffect(() => {
    if (!plan.holding || continued) return;
    // After the next frame is drawn, not in a task that could run before it. A follow left from a hold
    // a scroll ended could run before this hold's frame: it is replaced.
    follow.current?.();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        follow.current = undefined;
        followOverscan((count) => count + 1);
      }, 0);
    });
    follow.current = () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  });
  useEffect(
    () => () => {
      follow.current?.();
      follow.current = undefined;
    },
    [],
  );

  const template = columns.map((column) => column.width).join(' ');
  const leastWidths = useMemo(() => columns.map((column) => leastContentWidth(column.width)), [columns]);
  const minWidth = minimumTableWidth(columns);
  const visible: ReactNode[] = [];
  for (let index = rowWindow.start; index < rowWindow.end; index++) {
    const key = plan.keys[index - start];
    if (key === undefined) continue;
    const row = props.getRow(key);
    if (row === undefined) continue;
    const held = index < current.start || index >= current.end;
    visible.push(
      // Keyed by position, not by row key: when a keystroke's filter replaces every visible key, each
      // position's DOM row is updated in place (its cells' text) rather than ~60 rows and their cells
      // removed and created again. Scrolling keeps the rows that stay in view either way, as they keep
      // their positions.
      <TableRow
        key={index}
        rowKey={key}
        row={row}
        index={index}
        top={index * rowHeight}
        template={template}
        columns={columns}
        renderCell={props.renderCell as (row: unknown, column: TableColumn, cell: string) => ReactNode}
        cellText={props.cellText as ((row: unknown, column: TableColumn) => CellText | undefined) | undefined}
        leastWidths={leastWidths}
        selected={key === props.selectedKey}
        held={held}
        onSelect={props.onSelect}
        onOpen={props.onOpen}
      />,
    );
  }

  return (
    <div className="table" role="grid" aria-label={props.label} aria-rowcount={keys.length + 1}>
      <div className="table-body" ref={scrollRef} tabIndex={-1} data-testid="table-body">
        <TableHeader columns={columns} sort={sort} template={template} minWidth={minWidth} onSort={sortBy} />
        {keys.length === 0 ? (
          <div className="table-empty">{props.emptyMessage}</div>
        ) : (
          <div className="table-spacer" style={{ height: keys.length * rowHeight, minWidth }}>
            {visible}
          </div>
        )}
      </div>
    </div>
  );
}

interface TableHeaderProps {
  readonly columns: readonly TableColumn[];
  readonly sort: TableSort | undefined;
  readonly template: string;
  readonly minWidth: number;
  readonly onSort: (column: string) => void;
}

/** The column headings: rendered again only when the columns, the sort or the widths change. */
const TableHeader = memo(function TableHeader(props: TableHeaderProps): ReactNode {
  const { columns, sort, template, minWidth, onSort } = props;
  return (
    <div className="table-header" role="row" style={{ gridTemplateColumns: template, minWidth }}>
      {columns.map((column) => {
        const sorted = sort?.column === column.id;
        return (
          <button
            key={column.id}
            type="button"
            role="columnheader"
            className={`table-heading${column.align === 'right' ? ' align-right' : ''}${sorted ? ' sorted' : ''}`}
            aria-sort={sorted ? (sort.descending ? 'descending' : 'ascending') : 'none'}
            title={column.description ?? `Sort by ${column.title.toLowerCase()}`}
            onClick={() => onSort(column.id)}
          >
            {sorted && column.align === 'right' && <SortArrow descending={sort.descending} />}
            <span>{column.title}</span>
            {sorted && column.align !== 'right' && <SortArrow descending={sort.descending} />}
          </button>
        );
      })}
    </div>
  );
});

function SortArrow(props: { readonly descending: boolean }): ReactNode {
  return (
    <span className="sort-arrow" aria-hidden="true">
      {props.descending ? '▼' : '▲'}
    </span>
  );
}

interface TableRowProps {
  readonly rowKey: string;
  readonly row: unknown;
  readonly index: number;
  readonly top: number;
  readonly template: string;
  readonly columns: readonly TableColumn[];
  readonly renderCell: (row: unknown, column: TableColumn, cell: string) => ReactNode;
  readonly cellText: ((row: unknown, column: TableColumn) => CellText | undefined) | undefined;
  /** Per column, the least content width its cells can get (px). */
  readonly leastWidths: readonly number[];
  readonly selected: boolean;
  /**
   * An overscan row holding an earlier answer's row until it follows (see held-overscan.ts): out of
   * view, and without the data-key that names a row of the answer, which tests and tools read.
   */
  readonly held: boolean;
  readonly onSelect: (key: string) => void;
  readonly onOpen: (key: string) => void;
}

const TableRow = memo(function TableRow(props: TableRowProps): ReactNode {
  const { rowKey, row, columns, renderCell, cellText, leastWidths } = props;
  return (
    <div
      role="row"
      className={`table-row${props.selected ? ' selected' : ''}${props.index % 2 === 1 ? ' odd' : ''}`}
      aria-selected={props.selected}
      aria-rowindex={props.index + 2}
      data-key={props.held ? undefined : rowKey}
      aria-hidden={props.held || undefined}
      style={{ transform: `translateY(${props.top}px)`, gridTemplateColumns: props.template }}
      onMouseDown={() => props.onSelect(rowKey)}
      onDoubleClick={() => props.onOpen(rowKey)}
    >
      {columns.map((column, index) => (
        <Fragment key={column.id}>
          {renderCell(
            row,
            column,
            `table-cell${column.align === 'right' ? ' align-right' : ''}${
              cellText && cellFits(cellText(row, column), leastWidths[index]!) ? ' fits' : ''
            }`,
          )}
        </Fragment>
      ))}
    </div>
  );
});
