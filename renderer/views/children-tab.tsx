// Children: the objects one step down (a Deployment's ReplicaSets, a ReplicaSet's Pods, a Node's Pods).
// The child kind is mirrored while the tab is open and answered from its owner-uid (or node) index, so
// opening it costs one subscription, not a scan. While travelling, that mirror is a replay of the child
// kind at the travel moment.
import { useMemo, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { Row } from '../../shared/protocol';
import type { CatalogKind } from './kind-catalog';
import { useServices } from './app-context';
import { useSubscription } from './use-subscription';
import { useReplayAt } from './timeline-replay';
import { podStatusClass, statusClass } from './status-class';
import { formatAge, formatCount } from './format';
import { useNow } from '../ui-state/now';

/** Which kind holds a kind's children, and whether they point back by owner uid or by node name. */
const childKinds: Record<string, { resource: string; group: string; via: 'owner' | 'node' }> = {
  Deployment: { group: 'apps', resource: 'replicasets', via: 'owner' },
  ReplicaSet: { group: '', resource: 'pods', via: 'owner' },
  StatefulSet: { group: '', resource: 'pods', via: 'owner' },
  DaemonSet: { group: '', resource: 'pods', via: 'owner' },
  Job: { group: '', resource: 'pods', via: 'owner' },
  CronJob: { group: 'batch', resource: 'jobs', via: 'owner' },
  Node: { group: '', resource: 'pods', via: 'node' },
};

const shownLimit = 500;

export function ChildrenTab(props: {
  readonly parentKind: CatalogKind;
  readonly parent: Row;
  readonly kinds: readonly CatalogKind[];
  /** The travel moment: the children the recording held then. */
  readonly travelTime?: number;
  readonly onNavigate: (kind: CatalogKind, row: Row) => void;
}): ReactNode {
  const { bridge } = useServices();
  const now = useNow();
  const relation = childKinds[props.parentKind.kind];
  const childKind = relation
    ? props.kinds.find((kind) => kind.gvr.group === relation.group && kind.gvr.resource === relation.resource)
    : undefined;
  const past = props.travelTime !== undefined;
  const live = useSubscription(past ? undefined : childKind?.gvr);
  // Owned children live in their owner's namespace: only that namespace is rebuilt.
  const replay = useReplayAt(
    past ? childKind?.gvr : undefined,
    props.travelTime,
    relation?.via === 'owner' ? props.parent.namespace || undefined : undefined,
  );
  const subscriptionId = past ? replay.replayId : live;

  const revision = useStore(bridge.store.state, (state) =>
    subscriptionId ? (state.revisions[subscriptionId] ?? 0) : 0,
  );
  const children = useMemo(() => {
    const mirror = subscriptionId ? bridge.store.mirror(subscriptionId) : undefined;
    if (!mirror || !relation) return undefined;
    const keys =
      relation.via === 'owner'
        ? mirror.indexes.byOwnerUid.get(props.parent.uid)
        : mirror.indexes.byNode.get(props.parent.name);
    const rows = [...(keys ?? [])]
      .map((key) => mirror.rows.get(key))
      .filter((row): row is Row => row !== undefined);
    return {
      rows: rows.sort((a, b) => a.name.localeCompare(b.name)),
      ready: past ? replay.holds : mirror.hasSnapshot,
    };
    // revision is the mirror's change signal.
  }, [bridge, subscriptionId, relation, props.parent, revision, past, replay.holds]);

  if (!relation || !childKind) {
    return (
      <div className="detail-message">
        {props.parentKind.kind} objects do not own objects Kubetide follows.
      </div>
    );
  }
  if (!children || (!children.ready && (past || children.rows.length === 0))) {
    return (
      <div className="detail-message">
        {past ? 'Reading' : 'Listing'} {childKind.title.toLowerCase()}
        {past ? ' at this moment from the recording' : ''}…
      </div>
    );
  }
  if (children.rows.length === 0)
    return <div className="detail-message">No {childKind.title.toLowerCase()}.</div>;
  return (
    <div className="detail-section" data-testid="children">
      <div className="muted children-count">
        {formatCount(children.rows.length)}{' '}
        {children.rows.length === 1 ? childKind.kind : childKind.title.toLowerCase()}
      </div>
      <ul className="chain">
        {children.rows.slice(0, shownLimit).map((row) => (
          <li key={row.key}>
            <div
              className="chain-item navigable"
              role="button"
              tabIndex={0}
              onClick={() => props.onNavigate(childKind, row)}
              onKeyDown={(event) => event.key === 'Enter' && props.onNavigate(childKind, row)}
            >
              <span
                className={
                  row.status
                    ? `status ${childKind.kind === 'Pod' ? podStatusClass(row.status) : statusClass(row.status)}`
                    : 'chain-kind'
                }
              >
                {row.status ?? childKind.kind}
              </span>
              <span className="cell-name">{row.name}</span>
              <span className="muted">{formatAge(row.createdAt, now)}</span>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
