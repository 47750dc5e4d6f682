// The window: top bar, kinds sidebar, the active kind's table, the detail pane, a footer of key hints,
// and the palette and help overlays. State that outlives a render lives in the view store (what the
// user looks at) and the mirror (what the cluster holds); this component wires them together.
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { objectKey } from '../../shared/protocol';
import { parseFilterExpression } from '../ui-state/filter-expression';
import { completeFilter } from '../ui-state/completion';
import { nextSort, type DetailTab } from '../ui-state/view-store';
import type { KeyCommand } from '../ui-state/keyboard';
import { CommandPalette } from '../components/command-palette';
import { HelpOverlay } from '../components/help-overlay';
import { useMirrorState, useServices } from './app-context';
import { catalogGroups, catalogKinds, type CatalogKind } from './kind-catalog';
import { kindColumns } from './table-columns';
import { printerFor } from '../../shared/kinds/columns';
import { useSubscription } from './use-subscription';
import { useKindRows } from './use-kind-rows';
import { useKeyboard } from './use-keyboard';
import { ownerNameIndex } from './owner-names';
import { TopBar } from './top-bar';
import { Sidebar } from './sidebar';
import { ResourceView } from './resource-view';
import { DetailPane } from './detail-pane';
import { Footer } from './footer';
import { Timeline } from './timeline';
import { useTimeTravel } from './timeline-travel';
import { formatClock } from './timeline-format';
import { ExportDialog, ImportDialog } from './history-transfer';
import type { HistoryTimeline } from '../../shared/protocol';

const namespacesResource = { group: '', version: 'v1', resource: 'namespaces' };

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
  const sync = useMirrorState((mirror) => (subscriptionId ? mirror.syncStates[subscriptionId] : undefined));

  const namespaceSubscription = useSubscription(namespacesResource);
  const namespaceRevision = useMirrorState((mirror) =>
    namespaceSubscription ? (mirror.revisions[namespaceSubscription] ?? 0) : 0,
  );
  const namespaces = useMemo(() => {
    const mirror = namespaceSubscription ? bridge.store.mirror(namespaceSubscription) : undefined;
    return mirror ? [...mirror.rows.keys()].sort() : [];
  }, [bridge, namespaceSubscription, namespaceRevision]);

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
  // The input shows each key at once; the table answers the text a render behind, in a render React
  // starts over with the newest text when another key arrives, so fast typing costs one query per pause
  // instead of one per key. Errors are parsed from the typed text itself (parsing is cheap).
  const typedExpression = useMemo(() => parseFilterExpression(state.filterText), [state.filterText]);
  const queriedText = useDeferredValue(state.filterText);
  const expression = useMemo(() => parseFilterExpression(queriedText), [queriedText]);
  const rowSort = useMemo(() => {
    const column =
      columns.find((candidate) => candidate.id === state.sort.column) ??
      columns.find((candidate) => candidate.id === 'name');
    return { column: column?.sortBy ?? 'name', descending: state.sort.descending };
  }, [columns, state.sort]);
  const travel = state.travel;
  const { replayId, travelTo, goLive, stepChange } = useTimeTravel(kind.gvr, travel, state.playbackSpeed);
  const [transfer, setTransfer] = useState<
    { type: 'export'; timeline: HistoryTimeline } | { type: 'import' } | undefined
  >(undefined);
  const rows = useKindRows(travel ? replayId : subscriptionId, expression, state.namespaces, rowSort);
  const selectedIndex = useMemo(
    () => (state.selectedKey === undefined ? -1 : rows.keys.indexOf(state.selectedKey)),
    [rows.keys, state.selectedKey],
  );
  const filtered =
    rows.keys.length !== rows.total || state.filterText.trim() !== '' || state.namespaces.length > 0;

  const complete = useCallback(
    (text: string, caret: number) =>
      rows.mirror
        ? completeFilter({ text, caret }, rows.mirror.indexes, () => ownerNameIndex(rows.mirror!))
        : [],
    [rows.mirror],
  );

  const update = view.setState;
  const select = useCallback((key: string) => update({ selectedKey: key }), [update]);
  const open = useCallback((key: string) => update({ selectedKey: key, detailOpen: true }), [update]);
  const chooseKind = useCallback(
    (id: string) =>
      update({
        kindId: id,
        selectedKey: undefined,
        detailOpen: false,
        filterText: '',
        overlay: { type: 'none' },
        sort: { column: 'name', descending: false },
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

  useEffect(() => {
    if (!state.notice) return;
    const timer = setTimeout(() => update({ notice: undefined }), 1800);
    return () => clearTimeout(timer);
  }, [state.notice, update]);

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

  const selectedRow = state.selectedKey === undefined ? undefined : rows.mirror?.rows.get(state.selectedKey);
  const closeOverlay = () => update({ overlay: { type: 'none' } });
  return (
    <div className={`app${travel ? ' time-travel' : ''}`}>
      <TopBar
        contexts={contexts}
        connection={connection}
        sync={sync}
        namespaces={namespaces}
        namespaceCounts={rows.mirror?.indexes.byNamespace ?? new Map()}
        selectedNamespaces={state.namespaces}
        filterText={state.filterText}
        filterError={typedExpression.error}
        matched={rows.keys.length}
        total={rows.total}
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
        onFilter={(text) => update({ filterText: text })}
        onPalette={() => update({ overlay: { type: 'palette', query: '' } })}
        onHelp={() => update({ overlay: { type: 'help' } })}
      />
      {travel && (
        <div className="travel-banner" role="status" data-testid="travel-banner">
          <span className="travel-banner-dot" />
          Viewing {formatClock(travel.time)} — read-only
          {state.importedRecording ? ` · recording ${state.importedRecording}` : ''}
          {travel.playing ? ` · playing ${state.playbackSpeed}×` : ''}
          <button type="button" className="travel-banner-live" onClick={goLive}>
            {state.importedRecording ? 'Close recording' : 'Back to live'} <kbd>Esc</kbd>
          </button>
        </div>
      )}
      <div className="workspace">
        <Sidebar
          groups={groups}
          activeId={kind.id}
          activeCount={rows.mirror ? rows.total : undefined}
          onChoose={chooseKind}
        />
        <ResourceView
          kind={kind}
          columns={columns}
          rows={rows}
          sync={sync}
          sort={state.sort}
          filtered={filtered}
          filterText={queriedText}
          selectedKey={state.selectedKey}
          selectedIndex={selectedIndex}
          onSort={(column) =>
            update({
              sort: nextSort(
                state.sort,
                column,
                column === 'age' || columns.find((c) => c.id === column)?.definition?.format === 'age',
              ),
            })
          }
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
            {...(travel ? { travelTime: travel.time } : {})}
            onTravel={travelTo}
          />
        )}
      </div>
      <Timeline
        {...(selectedRow ? { onStep: stepChange } : {})}
        onExport={(timeline) => setTransfer({ type: 'export', timeline })}
        onImport={() => setTransfer({ type: 'import' })}
        onLive={goLive}
      />
      <Footer kind={kind} />
      {transfer?.type === 'export' && (
        <ExportDialog
          timeline={transfer.timeline}
          gvr={kind.gvr}
          kindTitle={kind.title}
          namespaces={state.namespaces}
          onClose={() => setTransfer(undefined)}
        />
      )}
      {transfer?.type === 'import' && <ImportDialog onClose={() => setTransfer(undefined)} />}
      {state.overlay.type === 'palette' && (
        <CommandPalette
          entries={kinds.map(paletteEntry)}
          initialQuery={state.overlay.query}
          onChoose={chooseKind}
          onClose={closeOverlay}
        />
      )}
      {state.overlay.type === 'help' && <HelpOverlay onClose={closeOverlay} />}
      {state.notice && (
        <div className="toast" role="status">
          {state.notice}
        </div>
      )}
    </div>
  );
}

function paletteEntry(kind: CatalogKind) {
  return { id: kind.id, title: kind.title, aliases: kind.aliases, detail: kind.gvr.group || 'core' };
}
