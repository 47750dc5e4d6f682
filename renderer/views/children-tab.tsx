// Children, transitively (k9s's xray): a Deployment's ReplicaSets with their Pods beneath, a CronJob's
// Jobs and their Pods, a Node's Pods, with counts per level. Each level's kind is mirrored while the
// tab is open and answered from its owner-uid (or node) index (see owned-tree.ts), so opening the tab
// costs a subscription per level, not a scan. While travelling, each level's mirror is a replay of its
// kind at the travel moment (owned levels only in the parent's namespace, where owned objects live).
import { useMemo, type ReactNode } from 'react';
import { useStoreSlice } from './use-store-slice';
import type { Row } from '../../shared/protocol';
import type { CatalogKind } from './kind-catalog';
import { useServices } from './app-context';
import { useSubscription } from './use-subscription';
import { useReplayAt } from './timeline-replay';
import { podStatusClass, statusClass } from './status-class';
import { formatAge, formatCount } from './format';
import { useNow } from '../ui-state/now';
import { ownedLevels, ownedTree, type OwnedNode } from './owned-tree';

/** Objects drawn at most; the counts still cover every one. */
const shownLimit = 500;

function kindOf(kinds: readonly CatalogKind[], level: { group: string; resource: string } | undefined) {
  return level
    ? kinds.find((kind) => kind.gvr.group === level.group && kind.gvr.resource === level.resource)
    : undefined;
}

function plural(kind: CatalogKind, count: number): string {
  return `${formatCount(count)} ${count === 1 ? kind.kind : kind.title.toLowerCase()}`;
}

export function ChildrenTab(props: {
  readonly parentKind: CatalogKind;
  readonly parent: Row;
  readonly kinds: readonly CatalogKind[];
  /** The travel moment: the children the recording held then. */
  readonly travelTime?: number;
  readonly onNavigate: (kind: CatalogKind, row: Row) => void;
}): ReactNode {
  const { bridge } = useServices();
  const levels = ownedLevels[props.parentKind.kind] ?? [];
  const levelKinds = [kindOf(props.kinds, levels[0]), kindOf(props.kinds, levels[1])];
  const past = props.travelTime !== undefined;
  const scope = (index: number) =>
    levels[index]?.via === 'owner' ? props.parent.namespace || undefined : undefined;
  // At most two levels below any kind: one subscription (or, in the past, one replay) each, held while
  // the tab is open.
  const liveFirst = useSubscription(past ? undefined : levelKinds[0]?.gvr);
  const liveSecond = useSubscription(past ? undefined : levelKinds[1]?.gvr);
  const pastFirst = useReplayAt(past ? levelKinds[0]?.gvr : undefined, props.travelTime, scope(0));
  const pastSecond = useReplayAt(past ? levelKinds[1]?.gvr : undefined, props.travelTime, scope(1));
  const first = past ? pastFirst.replayId : liveFirst;
  const second = past ? pastSecond.replayId : liveSecond;
  const revisions = useStoreSlice(bridge.store.state, (state) =>
    [first, second].map((id) => (id ? (state.revisions[id] ?? 0) : 0)).join(':'),
  );

  const tree = useMemo(() => {
    const mirrors = [first, second].map((id) => (id ? bridge.store.mirror(id) : undefined));
    const known = levels.slice(0, levelKinds.filter((kind) => kind !== undefined).length);
    if (!mirrors[0] || known.length === 0) return undefined;
    const ready = past ? pastFirst.holds && (!second || pastSecond.holds) : mirrors[0].hasSnapshot;
    return { ...ownedTree(props.parent, known, mirrors), ready };
    // revisions: the mirrors' change signal.
  }, [bridge, first, second, props.parent, revisions, past, pastFirst.holds, pastSecond.holds]);

  const topKind = levelKinds[0];
  const readError = pastFirst.error ?? pastSecond.error;
  if (levels.length === 0 || !topKind) {
    return (
      <div className="detail-message">
        {props.parentKind.kind} objects do not own objects Kubetide follows.
      </div>
    );
  }
  if (!tree || (!tree.ready && (past || tree.roots.length === 0))) {
    if (past && readError) {
      return (
        <div className="detail-message error">
          Could not read {topKind.title.toLowerCase()} at this moment from the recording: {readError}. Trying
          again…
        </div>
      );
    }
    return (
      <div className="detail-message">
        {past ? 'Reading' : 'Listing'} {topKind.title.toLowerCase()}
        {past ? ' at this moment from the recording' : ''}…
      </div>
    );
  }
  if (tree.roots.length === 0) return <div className="detail-message">No {topKind.title.toLowerCase()}.</div>;

  let budget = shownLimit;
  const render = (nodes: readonly OwnedNode[]): ReactNode => (
    <ul className="chain owned-level">
      {nodes.map((node) => {
        if (budget <= 0) return null;
        budget -= 1;
        const kind = levelKinds[node.level]!;
        return (
          <li key={node.row.key}>
            <OwnedItem
              node={node}
              kind={kind}
              childKind={levelKinds[node.level + 1]}
              onNavigate={props.onNavigate}
            />
            {node.children.length > 0 && render(node.children)}
          </li>
        );
      })}
    </ul>
  );
  const drawn = tree.counts.reduce((sum, count) => sum + count, 0);
  return (
    <div className="detail-section" data-testid="children">
      <div className="muted children-count" data-testid="children-counts">
        {tree.counts.map((count, level) => plural(levelKinds[level]!, count)).join(' · ')}
      </div>
      {render(tree.roots)}
      {drawn > shownLimit && (
        <div className="muted children-count">
          First {formatCount(shownLimit)} of {formatCount(drawn)} shown.
        </div>
      )}
    </div>
  );
}

function OwnedItem(props: {
  readonly node: OwnedNode;
  readonly kind: CatalogKind;
  readonly childKind: CatalogKind | undefined;
  readonly onNavigate: (kind: CatalogKind, row: Row) => void;
}): ReactNode {
  const now = useNow();
  const { node, kind } = props;
  const { row } = node;
  return (
    <div
      className="chain-item navigable owned-item"
      role="button"
      tabIndex={0}
      data-testid="owned-item"
      onClick={() => props.onNavigate(kind, row)}
      onKeyDown={(event) => event.key === 'Enter' && props.onNavigate(kind, row)}
    >
      <span className="chain-kind">{kind.kind}</span>
      <span className="cell-name" title={row.name}>
        {row.name}
      </span>
      {row.status && (
        <span
          className={`status ${kind.kind === 'Pod' ? podStatusClass(row.status) : statusClass(row.status)}`}
        >
          {row.status}
        </span>
      )}
      {props.childKind && <span className="muted">{plural(props.childKind, node.children.length)}</span>}
      <span className="muted">{formatAge(row.createdAt, now)}</span>
    </div>
  );
}
