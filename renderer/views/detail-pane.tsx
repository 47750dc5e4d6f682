// The detail pane of the selected row: YAML (fetched from main, refreshed when the row's
// resourceVersion moves), Events, Owners (up), Children (down) and History (versions and diffs). While
// travelling, every tab but History shows the travel moment as the recording held it (a pod's Logs
// tab: the crash logs recorded by then). History also charts the usage recorded for pods, nodes and
// workloads. Only the open tab fetches.
import { DetailMetrics } from './metrics-chart';
import { useEffect, useState, type ReactNode } from 'react';
import type { KubeObject } from '../../shared/kube/object';
import type { Row } from '../../shared/protocol';
import { Tabs } from '../components/tabs';
import { CloseIcon, CopyIcon } from '../components/icons';
import { ObjectYaml } from '../components/object-yaml';
import type { DetailTab } from '../ui-state/view-store';
import type { CatalogKind } from './kind-catalog';
import { useServices } from './app-context';
import { EventsTab } from './events-tab';
import { OwnersTab, type OwnerStep } from './owners-tab';
import { ChildrenTab } from './children-tab';
import { HistoryTab } from './history-tab';
import { UsageOverTime, usageSubjectOf } from './usage-over-time';
import { SecretValues, secretKeys } from './secret-values';
import { formatAge } from './format';
import { objectAt } from './object-at';
import { CrashLogs } from './logs/crash-logs';
import { LogView } from './logs/log-view';
import { logSubjectOf } from './logs/log-subject';
import { useNow } from '../ui-state/now';

export interface DetailPaneProps {
  readonly kind: CatalogKind;
  readonly row: Row | undefined;
  /** The key of the selected row, kept when the row itself is gone (deleted while open). */
  readonly rowKey: string;
  readonly tab: DetailTab;
  readonly kinds: readonly CatalogKind[];
  readonly onTab: (tab: DetailTab) => void;
  readonly onClose: () => void;
  readonly onCopyName: () => void;
  readonly onLabel: (label: string) => void;
  readonly onNavigate: (kind: CatalogKind, namespace: string, name: string) => void;
  /** The travel moment, when the view shows the past: the YAML is the version recorded then. */
  readonly travelTime?: number;
  readonly onTravel: (time: number) => void;
  /** Opens the full-height log view of this object. */
  readonly onExpandLogs?: () => void;
}

type Loaded<T> = { state: 'loading' } | { state: 'loaded'; value: T } | { state: 'failed'; message: string };

/** Fetches `load()` whenever `deps` change; the previous value stays shown while a refresh runs. */
function useFetched<T>(load: (() => Promise<T>) | undefined, deps: readonly unknown[]): Loaded<T> {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  useEffect(() => {
    if (!load) return;
    let cancelled = false;
    load().then(
      (value) => !cancelled && setLoaded({ state: 'loaded', value }),
      (error: unknown) =>
        !cancelled &&
        setLoaded({ state: 'failed', message: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      cancelled = true;
    };
    // deps are the caller's; load is recreated every render.
  }, deps);
  return loaded;
}

/**
 * The selected object's age, the one part of the pane the clock changes: it alone re-renders at each
 * tick. Followed by the whole pane, the clock rendered every tab's content and every button once a
 * second, and React sets a clicked element's `onclick` again whenever its onClick is a new function,
 * each a new listener object of Blink's (Oilpan's) heap until its collector sweeps (issue 15, session 19).
 */
function CreatedAge(props: { readonly createdAt: number | null | undefined }): ReactNode {
  const now = useNow();
  return `created ${formatAge(props.createdAt, now)} ago`;
}

export function DetailPane(props: DetailPaneProps): ReactNode {
  const { bridge } = useServices();
  const { kind, row, tab } = props;
  const namespace = row?.namespace || undefined;
  const name = row?.name ?? props.rowKey.split('/').pop() ?? '';

  const travelTime = props.travelTime;
  const isSecret = kind.gvr.group === '' && kind.gvr.resource === 'secrets';
  const object = useFetched<KubeObject>(
    tab === 'yaml' && row ? () => objectAt(bridge, kind.gvr, namespace, name, travelTime) : undefined,
    [tab, kind.id, props.rowKey, row?.resourceVersion, travelTime],
  );
  const events = useFetched<KubeObject[]>(
    tab === 'events' && row
      ? () => {
          const involvedObject = { kind: kind.kind, name, ...(namespace ? { namespace } : {}), uid: row.uid };
          return travelTime === undefined
            ? bridge.listEvents(involvedObject)
            : bridge.history<KubeObject[]>({ type: 'historyEvents', involvedObject, time: travelTime });
        }
      : undefined,
    [tab, kind.id, props.rowKey, row?.uid, travelTime],
  );

  const navigateToOwner = (step: OwnerStep) => {
    if (step.catalogKind)
      props.onNavigate(step.catalogKind, step.catalogKind.namespaced ? step.namespace : '', step.name);
  };

  const logSubject =
    row && props.travelTime === undefined ? logSubjectOf(kind.gvr, kind.kind, row) : undefined;
  // In the past a pod's logs are the crash logs the recording kept for it.
  const isPod = kind.gvr.group === '' && kind.gvr.resource === 'pods';
  const crashLogsOf =
    row && travelTime !== undefined && isPod ? { uid: row.uid, time: travelTime } : undefined;
  let body: ReactNode;
  if (tab === 'logs' && crashLogsOf) {
    body = <CrashLogs uid={crashLogsOf.uid} time={crashLogsOf.time} />;
  } else if (tab === 'logs' && logSubject) {
    body = (
      <LogView
        key={JSON.stringify(logSubject)}
        subject={logSubject}
        {...(props.onExpandLogs ? { onExpand: props.onExpandLogs } : {})}
      />
    );
  } else if (tab === 'logs' && row) {
    body = (
      <div className="detail-message">
        {props.travelTime === undefined
          ? `A ${kind.kind.toLowerCase()} has no logs: open a pod or a workload.`
          : 'Logs are live only: go back to live to read them.'}
      </div>
    );
  } else if (tab === 'history') {
    const historyNamespace = namespace ?? props.rowKey.split('/').slice(0, -1).join('/');
    const usageSubject = usageSubjectOf(kind.gvr, historyNamespace, name);
    const history = (
      <HistoryTab
        gvr={kind.gvr}
        namespace={historyNamespace}
        name={name}
        revision={row?.resourceVersion}
        onTravel={props.onTravel}
      />
    );
    body = usageSubject ? (
      <div className="history-with-usage">
        <UsageOverTime subject={usageSubject} travelTime={travelTime} onTravel={props.onTravel} />
        {history}
      </div>
    ) : (
      history
    );
  } else if (!row) {
    body = (
      <div className="detail-message">
        This {kind.kind.toLowerCase()} no longer exists: it was deleted while you looked at it.
      </div>
    );
  } else if (tab === 'yaml') {
    body =
      object.state === 'failed' ? (
        <div className="detail-message error">Could not get the object: {object.message}</div>
      ) : object.state === 'loading' ? (
        <div className="detail-message">Loading…</div>
      ) : isSecret && travelTime === undefined && namespace ? (
        <div className="detail-secret">
          <SecretValues namespace={namespace} name={name} keys={secretKeys(object.value)} />
          <ObjectYaml object={object.value} />
        </div>
      ) : (
        <ObjectYaml object={object.value} />
      );
  } else if (tab === 'events') {
    body = (
      <EventsTab
        events={events.state === 'loaded' ? events.value : undefined}
        {...(events.state === 'failed' ? { error: `Could not list events: ${events.message}` } : {})}
      />
    );
  } else if (tab === 'owners') {
    body = (
      <OwnersTab
        owners={row.owners}
        namespace={row.namespace}
        kinds={props.kinds}
        {...(travelTime !== undefined ? { travelTime } : {})}
        onNavigate={navigateToOwner}
      />
    );
  } else {
    body = (
      <ChildrenTab
        parentKind={kind}
        parent={row}
        kinds={props.kinds}
        {...(travelTime !== undefined ? { travelTime } : {})}
        onNavigate={(childKind, child) => props.onNavigate(childKind, child.namespace, child.name)}
      />
    );
  }

  const labels = row ? Object.entries(row.labels) : [];
  return (
    <aside className="detail" aria-label={`${kind.kind} ${name}`} data-testid="detail">
      <header className="detail-header">
        <div className="detail-title">
          <div className="detail-kind">{kind.kind}</div>
          <div className="detail-name" data-testid="detail-name">
            {name}
          </div>
          <div className="detail-meta">
            {namespace ? `${namespace} · ` : ''}
            {row ? <CreatedAge createdAt={row.createdAt} /> : 'deleted'}
            {row?.status ? ` · ${row.status}` : ''}
          </div>
          {labels.length > 0 && (
            <div className="labels">
              {labels.slice(0, 12).map(([key, value]) => (
                <button
                  key={key}
                  type="button"
                  className="label-chip"
                  title="Add to the filter"
                  onClick={() => props.onLabel(`${key}=${value}`)}
                >
                  {key}={value}
                </button>
              ))}
              {labels.length > 12 && <span className="muted">+{labels.length - 12}</span>}
            </div>
          )}
          <DetailMetrics kind={kind} row={row} rowKey={props.rowKey} />
        </div>
        <button
          type="button"
          className="icon-button"
          title="Copy name (c)"
          aria-label="Copy name"
          onClick={props.onCopyName}
        >
          <CopyIcon />
        </button>
        <button
          type="button"
          className="icon-button"
          title="Close (Esc)"
          aria-label="Close"
          onClick={props.onClose}
        >
          <CloseIcon />
        </button>
      </header>
      <Tabs<DetailTab>
        tabs={[
          { id: 'yaml', title: 'YAML' },
          { id: 'events', title: 'Events' },
          ...(logSubject || crashLogsOf ? [{ id: 'logs' as const, title: 'Logs' }] : []),
          { id: 'owners', title: 'Owners', ...(row ? { badge: row.owners.length } : {}) },
          { id: 'children', title: 'Children' },
          { id: 'history', title: 'History' },
        ]}
        active={tab}
        onChange={props.onTab}
      />
      <div className="detail-body">{body}</div>
    </aside>
  );
}
