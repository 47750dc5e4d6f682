// The top bar: brand, context picker, sync state at a glance with manual resync, namespace pick, the
// filter bar, and the palette, theme and help buttons.
import { useRef } from 'react';
import type { ReactNode, Ref } from 'react';
import type { ContextList } from '../../shared/protocol';
import type { ConnectionState, ReplayStatus, SnapshotLoading } from '../store/mirror-state';
import type { Completion } from '../ui-state/completion';
import type { FilterError } from '../ui-state/filter-expression';
import { ContextPicker } from './context-picker';
import { loadingShownOf, SyncBadge } from './sync-badge';
import { ReplayBadge } from './replay-badge';
import { NamespacePicker } from './namespace-picker';
import { FilterBar } from './filter-bar';
import { ThemeToggle } from './theme-toggle';
import { useMirrorState } from './app-context';

export interface TopBarProps {
  readonly contexts: ContextList | undefined;
  readonly connection: ConnectionState;
  /**
   * The live subscription whose sync state the badge shows. The badge selects that state itself: main
   * sends a listing's progress 4 times a second, and selected by the window, each one rendered the
   * whole window (and read what its render reads) for a count in the badge.
   */
  readonly syncSubscription: string | undefined;
  /** The mirror revision the table's rows were taken at (KindRows.answeredRevision). */
  readonly answeredRevision?: number;
  /** Set while the view shows the past: the badge then says what the recording held, never "synced". */
  readonly replay?: { readonly status: ReplayStatus | undefined; readonly holds: boolean };
  /** The imported recording's file name, while one (not the cluster) is shown. */
  readonly importedRecording?: string;
  readonly namespaces: readonly string[];
  /** Rows of the current kind per namespace, read when the namespace picker is open (see NamespacePicker). */
  readonly namespaceCounts: () => ReadonlyMap<string, { size: number }>;
  readonly selectedNamespaces: readonly string[];
  readonly filterText: string;
  readonly filterError: FilterError | undefined;
  readonly matched: number;
  /** Rows mirrored; undefined while no list has answered ("…", never a "0" that means "unknown"). */
  readonly total: number | undefined;
  readonly kindTitle: string;
  readonly filterRef: Ref<HTMLInputElement>;
  readonly complete: (text: string, caret: number) => Completion[];
  readonly onSwitchContext: (context: string) => void;
  readonly onResync: () => void;
  readonly onNamespaces: (namespaces: string[]) => void;
  /** The namespaces the user added for this context; with onAddNamespace/onForgetNamespace. */
  readonly addedNamespaces?: readonly string[];
  readonly onAddNamespace?: (name: string) => void;
  readonly onForgetNamespace?: (name: string) => void;
  /** The kind is cluster-scoped: the namespace pick does not apply to it. */
  readonly namespacesIgnored: boolean;
  readonly onFilter: (text: string) => void;
  readonly onPalette: () => void;
  readonly onHelp: () => void;
}

export function TopBar(props: TopBarProps): ReactNode {
  return (
    <header className="top-bar">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true" />
        Kubetide
      </div>
      {props.importedRecording === undefined ? (
        <ContextPicker contexts={props.contexts} onSwitch={props.onSwitchContext} />
      ) : (
        <span
          className="recording-label"
          data-testid="imported-recording"
          title={`Imported recording ${props.importedRecording}, read-only: no live cluster is shown`}
        >
          Imported recording · {props.importedRecording}
        </span>
      )}
      {props.replay ? (
        <ReplayBadge status={props.replay.status} holds={props.replay.holds} />
      ) : (
        <FeedSyncBadge
          subscriptionId={props.syncSubscription}
          answeredRevision={props.answeredRevision}
          connection={props.connection}
          onResync={props.onResync}
        />
      )}
      <NamespacePicker
        namespaces={props.namespaces}
        counts={props.namespaceCounts}
        selected={props.selectedNamespaces}
        onChange={props.onNamespaces}
        ignored={props.namespacesIgnored}
        {...(props.addedNamespaces ? { added: props.addedNamespaces } : {})}
        {...(props.onAddNamespace ? { onAdd: props.onAddNamespace } : {})}
        {...(props.onForgetNamespace ? { onForget: props.onForgetNamespace } : {})}
      />
      <FilterBar
        ref={props.filterRef}
        value={props.filterText}
        onChange={props.onFilter}
        error={props.filterError}
        matched={props.matched}
        total={props.total}
        complete={props.complete}
        kindTitle={props.kindTitle}
      />
      <button
        type="button"
        className="control quiet"
        title="Go to a kind or search objects (: or Ctrl+K)"
        onClick={props.onPalette}
      >
        <kbd className="key-hint">⌘K</kbd>
      </button>
      <ThemeToggle />
      <button
        type="button"
        className="icon-button"
        title="Keyboard shortcuts (?)"
        aria-label="Help"
        onClick={props.onHelp}
      >
        ?
      </button>
    </header>
  );
}

/** The badge of `subscriptionId`'s sync state, selected here so that its changes render the badge alone. */
function FeedSyncBadge(props: {
  readonly subscriptionId: string | undefined;
  readonly answeredRevision: number | undefined;
  readonly connection: ConnectionState;
  readonly onResync: () => void;
}): ReactNode {
  const { subscriptionId, answeredRevision } = props;
  const state = useMirrorState((mirror) => (subscriptionId ? mirror.syncStates[subscriptionId] : undefined));
  const arriving = useMirrorState((mirror) => (subscriptionId ? mirror.loading[subscriptionId] : undefined));
  const loadedAt = useMirrorState((mirror) =>
    subscriptionId ? mirror.loadedRevisions[subscriptionId] : undefined,
  );
  const lastArriving = useRef<SnapshotLoading | undefined>(undefined);
  if (arriving) lastArriving.current = arriving;
  const loading = loadingShownOf(arriving, lastArriving.current, loadedAt, answeredRevision);
  return (
    <SyncBadge
      state={state}
      connection={props.connection}
      {...(loading ? { loading } : {})}
      onResync={props.onResync}
    />
  );
}
