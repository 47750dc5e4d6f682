// The content area: the active kind's title and counts, then the virtualized table of its rows in the
// filter's order. Holds no rows itself: keys come from useKindRows, rows from the mirror on render.
import { useCallback, useMemo, type ReactNode } from 'react';
import type { Row, SyncState } from '../../shared/protocol';
import { VirtualTable } from '../components/virtual-table';
import type { KindColumn } from './table-columns';
import { kindCellText, renderKindCell } from './table-columns';
import type { CatalogKind } from './kind-catalog';
import type { KindRows } from './use-kind-rows';
import type { ViewSort } from '../ui-state/view-store';
import { formatCount } from './format';
import { emptyTableMessage } from './empty-table-message';
import { useMirrorState } from './app-context';
import type { MirrorState } from '../store/mirror-state';
import { MetricsNote, TableMetrics } from './metric-cell';
import { metricsResourceOfKind } from './use-metrics';

export interface ResourceViewProps {
  readonly kind: CatalogKind;
  readonly columns: readonly KindColumn[];
  readonly rows: KindRows;
  /**
   * The live subscription whose sync state the empty table and the access note tell (none while the
   * past is shown); selected here, not by the window (see TopBarProps.syncSubscription).
   */
  readonly syncSubscription: string | undefined;
  /** Rows listed; undefined while no list has answered ("…": never a "0" that means "unknown"). */
  readonly total: number | undefined;
  readonly sort: ViewSort;
  readonly filtered: boolean;
  /**
   * Set while the viewed moment is still being rebuilt ("Rebuilding pods at 15:00:00: 16,000 of
   * 50,076"): the table then shows no rows, never a half-built past as if it were the whole of it.
   */
  readonly pending?: string;
  /** The filter bar's text the listed keys answer (data-filter: what tests and the ui bench wait for). */
  readonly filterText: string;
  readonly selectedKey: string | undefined;
  readonly selectedIndex: number;
  readonly onSort: (column: string) => void;
  readonly onSelect: (key: string) => void;
  readonly onOpen: (key: string) => void;
}

function emptyMessage(props: ResourceViewProps, sync: SyncState | undefined): string {
  return emptyTableMessage({
    title: props.kind.title.toLowerCase(),
    sync,
    hasSnapshot: props.rows.hasSnapshot,
    filtered: props.filtered,
    pending: props.pending,
  });
}

const noKeys: readonly string[] = [];

export function ResourceView(props: ResourceViewProps): ReactNode {
  const { kind, rows, columns, sort } = props;
  const mirror = rows.mirror;
  const getRow = useCallback((key: string) => mirror?.rows.get(key), [mirror]);
  const metricsResource = metricsResourceOfKind(kind.gvr);
  const tableSort = useMemo(() => ({ column: sort.column, descending: sort.descending }), [sort]);
  const keys = props.pending ? noKeys : rows.keys;
  // Followed here rather than in the window: under churn the window renders at the query's pace
  // (useKindRows), while the visible rows re-read their objects at every revision.
  const revision = useMirrorState((state) =>
    rows.subscriptionId ? (state.revisions[rows.subscriptionId] ?? 0) : 0,
  );
  // Strings, so that a listing's progress (4 a second) renders this view only while a count shows.
  const { syncSubscription } = props;
  const syncOf = (state: MirrorState) => (syncSubscription ? state.syncStates[syncSubscription] : undefined);
  const empty = useMirrorState((state) => emptyMessage(props, syncOf(state)));
  const accessNamespaces = useMirrorState((state) => syncOf(state)?.namespaces?.join('\n'))?.split('\n');
  return (
    <main
      className="content"
      aria-label={kind.title}
      aria-busy={!rows.hasSnapshot}
      data-filter={props.filterText}
    >
      <div className="content-header">
        <h1 className="content-title" data-testid="kind-title">
          {kind.title}
        </h1>
        <span className="content-subtitle" data-testid="row-count">
          {props.pending || props.total === undefined
            ? '…'
            : props.filtered
              ? `${formatCount(rows.keys.length)} of ${formatCount(rows.total)}`
              : formatCount(rows.total)}
        </span>
        <span className="content-subtitle muted">
          {kind.gvr.group ? `${kind.gvr.group}/${kind.gvr.version}` : kind.gvr.version}
          {kind.namespaced ? '' : ' · cluster-scoped'}
        </span>
        {metricsResource && <MetricsNote resource={metricsResource} />}
        {accessNamespaces && (
          <span
            className="content-subtitle muted"
            data-testid="access-scope"
            title={`Listing ${kind.title.toLowerCase()} across all namespaces is not allowed for your user; shown from ${accessNamespaces.join(', ')}. Add namespaces in the namespace picker.`}
          >
            {accessNamespaces.length === 1
              ? `only ${accessNamespaces[0]} (your access)`
              : `only ${accessNamespaces.length} namespaces (your access)`}
          </span>
        )}
      </div>
      <TableMetrics resource={metricsResource}>
        <VirtualTable<Row>
          label={kind.title}
          keys={keys}
          columns={columns}
          getRow={getRow}
          renderCell={renderKindCell}
          cellText={kindCellText}
          revision={revision}
          sort={tableSort}
          onSort={props.onSort}
          {...(props.selectedKey !== undefined ? { selectedKey: props.selectedKey } : {})}
          selectedIndex={props.selectedIndex}
          onSelect={props.onSelect}
          onOpen={props.onOpen}
          emptyMessage={empty}
        />
      </TableMetrics>
    </main>
  );
}
