// The table's columns for a kind: kubectl's (shared/kinds printers), NAMESPACE first when the kind is
// namespaced (as `kubectl get -A` prints it), and for pods the NODE and IP of `-o wide`, which people
// filter by. Cells render from the row's raw values; ages tick through useNow. A cell is cut with an
// ellipsis when its column is too narrow, so the cell under the pointer shows its whole text as a title
// (useHoverTitle, in the table): no value is ever out of reach (RESTARTS "39 (3m10s ago)", a long
// message or image name). An age's cell carries its timestamp as its title from the render.
import type { ReactNode } from 'react';
import type { CellValue, Row } from '../../shared/protocol';
import type { ColumnDefinition } from '../../shared/kinds/columns/column-definition';
import type { SortColumn } from '../store/row-query';
import type { TableColumn } from '../components/virtual-table';
import { fittedCell, leastContentWidth, type CellText } from '../components/cell-fit';
import { gridCell } from '../components/grid-cell';
import { humanDuration } from '../../shared/kinds/columns/human-duration';
import { useNow } from '../ui-state/now';
import { MetricCell } from './metric-cell';
import type { MetricColumnSource } from './metric-columns';
import { metricColumnSpecs } from './metric-columns';
import { podStatusClass, statusClass } from './status-class';

/** A table column bound to where its value comes from. */
export interface KindColumn extends TableColumn {
  readonly sortBy: SortColumn;
  readonly definition?: ColumnDefinition;
  /** The row cell index holding the last restart time, for a 'restarts' column. */
  readonly lastRestartCell?: number;
  /** Colours a Status column with pod semantics (any unexplained status is an error). */
  readonly podStatus?: boolean;
  /** A metrics column (pods, nodes): its value is joined from the MetricsStore at render. */
  readonly metric?: MetricColumnSource;
}

/** Wide (-o wide) columns worth their space by default. */
const shownWideColumns = new Set(['IP', 'Node']);

function widthOf(definition: ColumnDefinition): string {
  if (definition.format === 'name') return 'minmax(220px, 3fr)';
  if (definition.format === 'age' || definition.type === 'date') return '72px';
  if (definition.name === 'Status') return 'minmax(130px, 1.3fr)';
  if (definition.name === 'Ready') return '72px';
  if (definition.format === 'restarts') return '128px';
  if (definition.type === 'integer' || definition.type === 'number') return '96px';
  if (definition.name === 'IP') return '132px';
  return 'minmax(100px, 1fr)';
}

/** The columns to show for a kind, from the definitions its Row.cells follow; without them, NAME and AGE from the row. */
export function kindColumns(
  definitions: readonly ColumnDefinition[] | undefined,
  namespaced: boolean,
  kind: string,
): KindColumn[] {
  const columns: KindColumn[] = [];
  if (namespaced)
    columns.push({ id: 'namespace', title: 'Namespace', width: 'minmax(110px, 1fr)', sortBy: 'namespace' });
  if (!definitions || definitions.length === 0) {
    columns.push({ id: 'name', title: 'Name', width: 'minmax(220px, 3fr)', sortBy: 'name' });
    columns.push({ id: 'age', title: 'Age', width: '72px', sortBy: 'createdAt', align: 'right' });
    return columns;
  }
  const lastRestartCell = definitions.findIndex((definition) => definition.format === 'lastRestart');
  definitions.forEach((definition, index) => {
    if (definition.hidden) return;
    if (definition.priority === 1 && !shownWideColumns.has(definition.name)) return;
    const isName = definition.format === 'name';
    const isAge = definition.format === 'age';
    columns.push({
      id: isName ? 'name' : String(index),
      title: definition.name,
      width: widthOf(definition),
      align: definition.type === 'integer' || isAge || definition.type === 'number' ? 'right' : 'left',
      sortBy: isName ? 'name' : index,
      definition,
      ...(definition.format === 'restarts' && lastRestartCell >= 0 ? { lastRestartCell } : {}),
      ...(kind === 'Pod' && definition.name === 'Status' ? { podStatus: true } : {}),
    });
  });
  // Sorted by useMetricRows; 'name' is the order underneath it.
  for (const spec of metricColumnSpecs(definitions, kind))
    columns.push({
      id: spec.id,
      title: spec.title,
      description: spec.description,
      width: spec.source.referenceCell === undefined ? '80px' : '72px',
      align: 'right',
      sortBy: 'name',
      metric: spec.source,
    });
  return columns;
}

function AgeText(props: {
  readonly cell: string;
  readonly at: number | null | undefined;
  readonly leastWidth: number;
}): ReactNode {
  const now = useNow();
  if (!props.at)
    return gridCell(fittedCell(props.cell, '<unknown>', props.leastWidth), '<unknown>', {
      className: 'cell-faint',
    });
  const text = humanDuration(now - props.at);
  return gridCell(fittedCell(props.cell, text, props.leastWidth), text, {
    title: new Date(props.at).toISOString(),
  });
}

/** A cell of one value as kubectl prints it: faint when missing. */
function plainCell(
  cell: string,
  value: CellValue | undefined,
  missing: string | undefined,
  className?: string,
): ReactNode {
  // Nothing to show, or kubectl's own "<none>": faint.
  const faint =
    value === null || value === undefined || value === ''
      ? (missing ?? '<none>')
      : value === '<none>'
        ? value
        : undefined;
  if (faint !== undefined)
    return gridCell(cell, faint, { className: className ? `${className} cell-faint` : 'cell-faint' });
  return gridCell(cell, String(value), { className });
}

function RestartsText(props: {
  readonly cell: string;
  readonly count: CellValue | undefined;
  readonly last: CellValue | undefined;
  readonly leastWidth: number;
}): ReactNode {
  const now = useNow();
  const count = typeof props.count === 'number' ? props.count : 0;
  const last = typeof props.last === 'number' ? props.last : undefined;
  const ago = last && count > 0 ? ` (${humanDuration(now - last)} ago)` : '';
  return gridCell(
    fittedCell(props.cell, `${count}${ago}`, props.leastWidth),
    <>
      {count}
      {ago ? <span className="cell-faint">{ago}</span> : null}
    </>,
    { className: count > 0 ? 'restarts-warning' : undefined },
  );
}

/** One cell of a row, the cell element itself (see VirtualTable's renderCell). */
export function renderKindCell(row: Row, column: TableColumn, cell: string): ReactNode {
  const kindColumn = column as KindColumn;
  if (kindColumn.id === 'namespace') return gridCell(cell, row.namespace, { className: 'cell-muted' });
  if (kindColumn.id === 'name') return gridCell(cell, row.name, { className: 'cell-name' });
  const leastWidth = leastContentWidth(column.width);
  if (kindColumn.id === 'age') return <AgeText cell={cell} at={row.createdAt} leastWidth={leastWidth} />;
  if (kindColumn.metric)
    return <MetricCell cell={cell} row={row} source={kindColumn.metric} leastWidth={leastWidth} />;
  const definition = kindColumn.definition;
  const value = typeof kindColumn.sortBy === 'number' ? row.cells[kindColumn.sortBy] : undefined;
  if (!definition) return plainCell(cell, value, undefined);
  switch (definition.format) {
    case 'age':
      return <AgeText cell={cell} at={typeof value === 'number' ? value : null} leastWidth={leastWidth} />;
    case 'timestamp':
      return typeof value === 'number'
        ? plainCell(cell, new Date(value).toISOString().replace('.000Z', 'Z'), undefined)
        : plainCell(cell, value, definition.missing);
    case 'duration':
      return typeof value === 'number'
        ? plainCell(cell, humanDuration(value), undefined)
        : plainCell(cell, value, definition.missing);
    case 'restarts':
      return (
        <RestartsText
          cell={cell}
          leastWidth={leastWidth}
          count={value}
          last={kindColumn.lastRestartCell === undefined ? undefined : row.cells[kindColumn.lastRestartCell]}
        />
      );
    default:
      break;
  }
  if (definition.name === 'Status' && typeof value === 'string') {
    // The dot is the span's ::before, laid out beside the text (inline-flex): the span stays.
    return gridCell(
      cell,
      <span className={`status ${kindColumn.podStatus ? podStatusClass(value) : statusClass(value)}`}>
        {value}
      </span>,
    );
  }
  if (definition.name === 'IP' || definition.name === 'Cluster-IP' || definition.name === 'External-IP')
    return plainCell(cell, value, definition.missing, 'cell-mono');
  return plainCell(cell, value, definition.missing);
}

/** A status pill's dot and the gap after it (.status::before: 7px, gap 6px). */
const statusDot = 13;

function plainText(value: CellValue | undefined, missing: string | undefined): string {
  if (value === null || value === undefined || value === '') return missing ?? '<none>';
  return String(value);
}

/**
 * The text renderKindCell shows in a cell, as the row alone decides it for as long as the row is the
 * same object; undefined for cells whose text changes by itself (ages and restart times tick, metrics
 * come from their own store), which decide whether they fit as they render (fittedCell).
 */
export function kindCellText(row: Row, column: TableColumn): CellText | undefined {
  const kindColumn = column as KindColumn;
  if (kindColumn.id === 'namespace') return { text: row.namespace };
  if (kindColumn.id === 'name') return { text: row.name };
  if (kindColumn.id === 'age' || kindColumn.metric) return undefined;
  const definition = kindColumn.definition;
  const value = typeof kindColumn.sortBy === 'number' ? row.cells[kindColumn.sortBy] : undefined;
  if (!definition) return { text: plainText(value, undefined) };
  switch (definition.format) {
    case 'age':
    case 'restarts':
      return undefined;
    case 'timestamp':
      return typeof value === 'number'
        ? { text: new Date(value).toISOString().replace('.000Z', 'Z') }
        : { text: plainText(value, definition.missing) };
    case 'duration':
      return {
        text: typeof value === 'number' ? humanDuration(value) : plainText(value, definition.missing),
      };
    default:
      break;
  }
  if (definition.name === 'Status' && typeof value === 'string') return { text: value, extra: statusDot };
  return { text: plainText(value, definition.missing) };
}
