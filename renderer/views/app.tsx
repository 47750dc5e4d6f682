// The window: top bar, kinds sidebar, the active kind's table, the detail pane, a footer of key hints,
// and the palette and help overlays. State that outlives a render lives in the view store (what the
// user looks at) and the mirror (what the cluster holds); this component wires them together.
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { objectKey } from '../../shared/protocol';
import { parseFilterExpression } from '../ui-state/filter-expression';
import { completeFilter } from '../ui-state/completion';
import { nextSort, type DetailTab } from '../ui-state/view-store';
import type { KeyCommand } from '../ui-state/keyboard';
import { HelpOverlay } from '../components/help-overlay';
import { useMirrorState, useServices } from './app-context';
import { catalogGroups, catalogKinds, type CatalogKind } from './kind-catalog';
import { kindColumns } from './table-columns';
import { kindDefaultColumn, rowSortFor, shownSort } from './kind-sort';
import { printerFor } from '../../shared/kinds/columns';
import { useSubscription } from './use-subscription';
import { usePrefetchedKinds } from './prefetched-kinds';
import { useKindRows, type KindRows } from './use-kind-rows';
import { useMetricRows } from './use-metric-rows';
import { metricsResourceOfKind } from './use-metrics';
import { useKeyboard } from './use-keyboard';
import { ObjectPalette } from './object-palette';
import { ownerNameCounts } from './owner-names';
import { TopBar } from './top-bar';
import { Sidebar } from './sidebar';
import { ResourceView } from './resource-view';
import { DetailPane } from './detail-pane';
import { Footer } from './footer';
import { Timeline } from './timeline';
import { useTimeTravel } from './timeline-travel';
import { useDetailMoment, useNamespacesAt, useTravelView } from './use-travel-view';
import { formatClock } from './timeline-format';
import { describeGapRows } from './replay-badge';
import { preloadObjectYaml } from '../components/object-yaml';
import { ExportDialog, ImportDialog } from './history-transfer';
import { LogView } from './logs/log-view';
import { logSubjectOf, type LogSubject } from './logs/log-subject';
import type { ContextList, HistoryTimeline } from '../../shared/protocol';
import { sessionRenewalNotice } from './session-renewal';
import { LoginBanner } from './login-banner';
import { OpenedInsteadBanner } from './opened-instead-banner';

const replicaSetsResource = { group: 'apps', version: 'v1', resource: 'replicasets' };
const noNamespaces: readonly string[] = [];

/** The viewed kind's live count, once a list answered or rows arrived: "0" never stands for "unknown". */
function activeCount(rows: KindRows, synced: boolean): number | undefined {
  return rows.mirror && (rows.total > 0 || synced) ? rows.total : undefined;
}

export function App(): ReactNode {
  const { bridge, view } = useServices();
  const state = useStore(view);
  const filterRef = useRef<HTMLInputElement>(null);
  const served = useMirrorState((mirror) => mirror.kinds);
  const contexts = useMirrorState((mirror) => mirror.contexts);
  const connection = useMirrorState((mirror) => mirror.connection);

  const kinds = useMemo(() => catalogKinds(served), [served]);
  const groups = useMemo(() => catalogGroups(kinds), [kinds]);
  const kind =
    kinds.find((candidate) => candidate.id === state.kindId) ??
    kinds.find((candidate) => candidate.gvr.resource === 'pods') ??
    kinds[0]!;
  const subscriptionId = useSubscription(kind.gvr);
  // The kinds a first switch would otherwise wait for, once the viewed one is whole (prefetched-kinds.ts).
  const viewedSynced = useMirrorState((mirror) =>
    subscriptionId ? mirror.syncStates[subscriptionId]?.phase === 'synced' : false,
  );
  usePrefetchedKinds(kinds, viewedSynced);

  const namespaceSubscription = useNamespacesAt(state.travel?.time);
  const namespaceRevision = useMirrorState((mirror) =>
    namespaceSubscription ? (mirror.revisions[namespaceSubscription] ?? 0) : 0,
  );
  // Where Namespaces cannot be listed, the ones main reads anyway (the context's and the user's) are
  // offered all the same.
  const namespaceChoices = useMirrorState((mirror) => mirror.namespaceChoices);
  const namespaces = useMemo(() => {
    const mirror = namespaceSubscription ? bridge.store.mirror(namespaceSubscription) : undefined;
    const names = new Set(mirror ? mirror.rows.keys() : []);
    if (namespaceChoices) {
      names.add(namespaceChoices.contextNamespace);
      for (const name of namespaceChoices.added) names.add(name);
    }
    return [...names].sort();
  }, [bridge, namespaceSubscription, namespaceRevision, namespaceChoices]);

  // Row.cells follow the columns main announces per kind (CRD printer columns included); before the
  // first kinds message, a built-in's own printer tells the same columns, and anything else shows the
  // row's name and age rather than guess at its cells.
  const columns = useMemo(
    () =>
      kindColumns(
        kind.columns ?? (kind.category === 'Custom' ? undefined : printerFor(kind.gvr).columns),
        kind.namespaced,
        kind.kind,
      ),
    [kind],
  );
  // The input shows each key at once; the table answers the text from a query task that follows the
  // key's render (useKindRows), so keys typed while a query runs cost one query, not one each.
  // Errors are parsed from the typed text itself (parsing is cheap).
  const typedExpression = useMemo(() => parseFilterExpression(state.filterText), [state.filterText]);
  const sort = useMemo(() => shownSort(state.sort, columns, kind.kind), [state.sort, columns, kind.kind]);
  const rowSort = useMemo(() => rowSortFor(sort, columns), [sort, columns]);
  const travel = state.travel;
  const { replayId, travelTo, goLive, stepChange } = useTimeTravel(kind.gvr, travel, state.playbackSpeed);
  // While travelling, the replay is the only state on screen: its badge, its counts, and a table held
  // back until every row of the moment has arrived.
  const past = useTravelView(kind, travel, replayId);
  const detailMoment = useDetailMoment(travel);
  const [transfer, setTransfer] = useState<
    { type: 'export'; timeline: HistoryTimeline } | { type: 'import' } | undefined
  >(undefined);
  // owner=web on pods also means the pods of Deployment web's ReplicaSets: mirror those meanwhile.
  const ownersThrough = useSubscription(
    typedExpression.owner !== undefined && kind.gvr.group === '' && kind.gvr.resource === 'pods'
      ? replicaSetsResource
      : undefined,
  );
  // Cluster-scoped kinds ignore the namespace picker (a Node is in no namespace).
  const pickedNamespaces = kind.namespaced ? state.namespaces : noNamespaces;
  const queried = useKindRows(
    travel ? replayId : subscriptionId,
    state.filterText,
    typedExpression,
    pickedNamespaces,
    rowSort,
    ownersThrough,
  );
  const rows = useMetricRows(
    queried,
    metricsResourceOfKind(kind.gvr),
    queried.expression.metrics,
    columns.find((column) => column.id === state.sort.column),
    state.sort.descending,
  );
  const liveCount = activeCount(rows, viewedSynced);
  /** The table's count: the moment's rows in the past, the live count once known. */
  const shownTotal = past ? rows.total : liveCount;
  const selectedIndex = useMemo(
    () => (state.selectedKey === undefined ? -1 : rows.keys.indexOf(state.selectedKey)),
    [rows.keys, state.selectedKey],
  );
  const filtered =
    rows.keys.length !== rows.total || state.filterText.trim() !== '' || pickedNamespaces.length > 0;
  const setAddedNamespaces = (added: string[]) =>
    bridge
      .setNamespaces(added)
      .catch((error: unknown) => update({ notice: `Could not change the namespaces: ${String(error)}` }));

  // Completion is asked again when this callback changes: the ReplicaSets' mirror filling in (owner=web
  // names a Deployment only through them) must change it too.
  const throughRevision = useMirrorState((mirror) =>
    ownersThrough ? (mirror.revisions[ownersThrough] ?? 0) : 0,
  );
  const complete = useCallback(
    (text: string, caret: number) => {
      if (!rows.mirror) return [];
      const mirror = rows.mirror;
      const through = ownersThrough ? bridge.store.mirror(ownersThrough) : undefined;
      // Owner names are counted only when owner= is being completed.
      return completeFilter({ text, caret }, mirror.indexes, () => ownerNameCounts(mirror, through));
    },
    // throughRevision: the ReplicaSets' change signal.
    [bridge, rows.mirror, ownersThrough, throughRevision],
  );

  const update = view.setState;
  // Stable, so the memoized timeline skips the window's renders (every keystroke, every re-query).
  const exportTimeline = useCallback(
    (timeline: HistoryTimeline) => setTransfer({ type: 'export', timeline }),
    [],
  );
  const importRecording = useCallback(() => setTransfer({ type: 'import' }), []);
  const select = useCallback(
    (key: string) => {
      // The detail pane's YAML editor is a chunk of its own: a selected row is the sign it is next.
      preloadObjectYaml();
      update({ selectedKey: key });
    },
    [update],
  );
  const open = useCallback((key: string) => update({ selectedKey: key, detailOpen: true }), [update]);
  const chooseKind = useCallback(
    (id: string) =>
      update({
        kindId: id,
        selectedKey: undefined,
        detailOpen: false,
        filterText: '',
        overlay: { type: 'none' },
        sort: { column: kindDefaultColumn, descending: false },
      }),
    [update],
  );
  const navigate = useCallback(
    (target: CatalogKind, namespace: string, name: string) =>
      update({
        kindId: target.id,
        filterText: '',
        namespaces: [],
        selectedKey: objectKey(namespace, name),
        detailOpen: true,
        detailTab: 'yaml',
      }),
    [update],
  );

  const copyName = useCallback(() => {
    const row = state.selectedKey === undefined ? undefined : rows.mirror?.rows.get(state.selectedKey);
    if (!row) return;
    navigator.clipboard?.writeText(row.name).then(
      () => update({ notice: `Copied ${row.name}` }),
      () => update({ notice: `Could not copy: the browser refused clipboard access` }),
    );
  }, [rows.mirror, state.selectedKey, update]);

  const seenContexts = useRef<ContextList | undefined>(undefined);
  useEffect(() => {
    if (!contexts) return;
    const notice = sessionRenewalNotice(seenContexts.current, contexts);
    seenContexts.current = contexts;
    if (!notice) return;
    // Main's history side started over with the session (a playback stopped, an import closed): back
    // to live, as a context switch goes, and the recording is still there to travel in.
    if (view.getState().travel || view.getState().importedRecording !== undefined) goLive();
    update({ notice });
  }, [contexts, goLive, update, view]);

  useEffect(() => {
    if (!state.notice) return;
    const timer = setTimeout(() => update({ notice: undefined }), 1800);
    return () => clearTimeout(timer);
  }, [state.notice, update]);

  const selectedLogRow =
    state.selectedKey === undefined ? undefined : rows.mirror?.rows.get(state.selectedKey);
  const selectedSubject =
    selectedLogRow && !travel ? logSubjectOf(kind.gvr, kind.kind, selectedLogRow) : undefined;

  useKeyboard((command: KeyCommand) => {
    const current = view.getState();
    if (transfer) {
      if (command.type !== 'escape') return false;
      setTransfer(undefined);
      return;
    }
    if (current.overlay.type !== 'none' && command.type !== 'escape' && command.type !== 'toggleHelp')
      return false;
    switch (command.type) {
      case 'focusFilter':
        filterRef.current?.focus();
        filterRef.current?.select();
        return;
      case 'openPalette':
        update({ overlay: { type: 'palette', query: command.query } });
        return;
      case 'moveSelection': {
        if (rows.keys.length === 0) return;
        const index = selectedIndex < 0 ? (command.by > 0 ? -1 : rows.keys.length) : selectedIndex;
        const next = Math.max(0, Math.min(rows.keys.length - 1, index + command.by));
        update({ selectedKey: rows.keys[next] });
        return;
      }
      case 'selectEdge':
        if (rows.keys.length > 0)
          update({ selectedKey: command.edge === 'first' ? rows.keys[0] : rows.keys[rows.keys.length - 1] });
        return;
      case 'openDetail':
        if (current.selectedKey !== undefined) update({ detailOpen: true });
        return;
      case 'showTab':
        if (current.selectedKey !== undefined) update({ detailOpen: true, detailTab: command.tab });
        return;
      case 'copyName':
        copyName();
        return;
      case 'openLogs':
        if (!selectedSubject) return false;
        update({ overlay: { type: 'logs' } });
        return;
      case 'openSelectorLogs': {
        if (kind.gvr.group !== '' || kind.gvr.resource !== 'pods' || travel) return false;
        // What the user typed, not the text the table has caught up with (it may be a render behind).
        const selector = typedExpression.error ? undefined : typedExpression.labelSelector;
        if (!selector || selector.isEmpty()) {
          update({ notice: 'Type a label selector in the filter bar (app=web) to see its pods’ logs' });
          return;
        }
        const namespaces = new Set([...current.namespaces, ...typedExpression.namespaces]);
        if (namespaces.size > 1) {
          update({ notice: 'Logs by selector read one namespace or all: pick one or none' });
          return;
        }
        const [namespace] = namespaces;
        const labelSelector = selector.toString();
        update({
          overlay: { type: 'logs', selector: { labelSelector, ...(namespace ? { namespace } : {}) } },
        });
        return;
      }
      case 'stepChange':
        if (current.selectedKey === undefined) return false;
        stepChange(command.direction);
        return;
      case 'togglePlay':
        if (!current.travel) return false;
        update({ travel: { ...current.travel, playing: !current.travel.playing } });
        return;
      case 'toggleHelp':
        update({ overlay: current.overlay.type === 'help' ? { type: 'none' } : { type: 'help' } });
        return;
      case 'escape':
        if (current.overlay.type !== 'none') update({ overlay: { type: 'none' } });
        else if (document.activeElement === filterRef.current) filterRef.current?.blur();
        else if (current.detailOpen) update({ detailOpen: false });
        else if (current.travel) goLive();
        else return false;
        return;
    }
  });

  const chooseObject = (target: CatalogKind, key: string) => {
    const slash = key.indexOf('/');
    navigate(target, slash < 0 ? '' : key.slice(0, slash), key.slice(slash + 1));
    update({ overlay: { type: 'none' }, sort: { column: kindDefaultColumn, descending: false } });
  };
  const selectedRow = state.selectedKey === undefined ? undefined : rows.mirror?.rows.get(state.selectedKey);
  const closeOverlay = () => update({ overlay: { type: 'none' } });
  const overlaySubject: LogSubject | undefined =
    state.overlay.type !== 'logs'
      ? undefined
      : state.overlay.selector
        ? { kind: 'selector', ...state.overlay.selector }
        : selectedSubject;
  return (
    <div className={`app${travel ? ' time-travel' : ''}`}>
      <TopBar
        contexts={contexts}
        connection={connection}
        syncSubscription={subscriptionId}
        {...(rows.answeredRevision !== undefined ? { answeredRevision: rows.answeredRevision } : {})}
        {...(past ? { replay: { status: past.status, holds: past.holds } } : {})}
        {...(state.importedRecording !== undefined ? { importedRecording: state.importedRecording } : {})}
        namespaces={namespaces}
        namespaceCounts={() => rows.mirror?.indexes.byNamespace ?? new Map()}
        selectedNamespaces={state.namespaces}
        filterText={state.filterText}
        filterError={typedExpression.error}
        matched={rows.keys.length}
        total={shownTotal}
        kindTitle={kind.title}
        filterRef={filterRef}
        complete={complete}
        onSwitchContext={(context) => {
          goLive();
          update({ selectedKey: undefined, detailOpen: false, namespaces: [] });
          bridge
            .switchContext(context)
            .catch((error: unknown) => update({ notice: `Could not switch: ${String(error)}` }));
        }}
        onResync={() => subscriptionId && bridge.resync(subscriptionId).catch(() => undefined)}
        onNamespaces={(picked) => update({ namespaces: picked })}
        namespacesIgnored={!kind.namespaced}
        {...(namespaceChoices
          ? {
              addedNamespaces: namespaceChoices.added,
              onAddNamespace: (name: string) => {
                void setAddedNamespaces([...namespaceChoices.added, name]);
                update({ namespaces: [...new Set([...state.namespaces, name])].sort() });
              },
              onForgetNamespace: (name: string) => {
                void setAddedNamespaces(namespaceChoices.added.filter((added) => added !== name));
                update({ namespaces: state.namespaces.filter((picked) => picked !== name) });
              },
            }
          : {})}
        onFilter={(text) => update({ filterText: text })}
        onPalette={() => update({ overlay: { type: 'palette', query: '' } })}
        onHelp={() => update({ overlay: { type: 'help' } })}
      />
      <LoginBanner contexts={contexts} />
      <OpenedInsteadBanner contexts={contexts} />
      {travel && (
        <div className="travel-banner" role="status" data-testid="travel-banner">
          <span className="travel-banner-dot" />
          Viewing {formatClock(travel.time)} — read-only
          {state.importedRecording ? ` · recording ${state.importedRecording}` : ''}
          {travel.playing ? ` · playing ${state.playbackSpeed}×` : ''}
          {travel.playing && past?.status?.catchingUp ? ' · catching up' : ''}
          {past?.holds && past.status?.gap
            ? ` · not recorded here: ${describeGapRows(past.status.gap, kind.title.toLowerCase())}`
            : ''}
          <button type="button" className="travel-banner-live" onClick={goLive}>
            {state.importedRecording ? 'Close recording' : 'Back to live'} <kbd>Esc</kbd>
          </button>
        </div>
      )}
      <div className="workspace">
        <Sidebar
          groups={groups}
          activeId={kind.id}
          activeCount={past ? past.activeCount : liveCount}
          {...(past ? { pastCounts: past.counts } : {})}
          onChoose={chooseKind}
        />
        <ResourceView
          kind={kind}
          columns={columns}
          rows={rows}
          syncSubscription={past ? undefined : subscriptionId}
          total={shownTotal}
          sort={sort}
          filtered={filtered}
          {...(past?.pending ? { pending: past.pending } : {})}
          filterText={rows.filterText}
          selectedKey={state.selectedKey}
          selectedIndex={selectedIndex}
          onSort={(column) => update({ sort: nextSort(sort, column) })}
          onSelect={select}
          onOpen={open}
        />
        {state.detailOpen && state.selectedKey !== undefined && (
          <DetailPane
            kind={kind}
            row={selectedRow}
            rowKey={state.selectedKey}
            tab={state.detailTab}
            kinds={kinds}
            onTab={(tab: DetailTab) => update({ detailTab: tab })}
            onClose={() => update({ detailOpen: false })}
            onCopyName={copyName}
            onLabel={(label) =>
              update({ filterText: state.filterText.trim() ? `${state.filterText.trim()} ${label}` : label })
            }
            onNavigate={navigate}
            {...(detailMoment !== undefined ? { travelTime: detailMoment } : {})}
            onTravel={travelTo}
            onExpandLogs={() => update({ overlay: { type: 'logs' } })}
          />
        )}
      </div>
      <Timeline
        {...(selectedRow ? { onStep: stepChange } : {})}
        onExport={exportTimeline}
        onImport={importRecording}
        onLive={goLive}
        travelFrom={kind.gvr}
      />
      <Footer kind={kind} />
      {transfer?.type === 'export' && (
        <ExportDialog
          timeline={transfer.timeline}
          kinds={kinds}
          namespaces={state.namespaces}
          onClose={() => setTransfer(undefined)}
        />
      )}
      {transfer?.type === 'import' && <ImportDialog onClose={() => setTransfer(undefined)} />}
      {state.overlay.type === 'palette' && (
        <ObjectPalette
          kinds={kinds}
          initialQuery={state.overlay.query}
          onChooseKind={chooseKind}
          onChooseObject={chooseObject}
          onClose={closeOverlay}
        />
      )}
      {state.overlay.type === 'help' && <HelpOverlay onClose={closeOverlay} />}
      {overlaySubject && (
        <div className="log-overlay" role="dialog" aria-modal="true" aria-label="Logs">
          <LogView
            key={JSON.stringify(overlaySubject)}
            subject={overlaySubject}
            fullHeight
            onClose={closeOverlay}
          />
        </div>
      )}
      {state.notice && (
        <div className="toast" role="status">
          {state.notice}
        </div>
      )}
    </div>
  );
}
