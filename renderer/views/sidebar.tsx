// The kinds sidebar: grouped as kubectl and Lens group them, custom resources under their API group,
// with the live count of every kind whose informer is running, and "no access" (the reason on hover)
// for kinds the user's RBAC refuses. While the view shows the past, every count is the recording's at
// the viewed moment (none where it recorded nothing), never today's.
import { memo, type ReactNode } from 'react';
import type { CatalogGroup, CatalogKind } from './kind-catalog';
import { formatCount } from './format';

export interface SidebarProps {
  readonly groups: readonly CatalogGroup[];
  readonly activeId: string | undefined;
  /** The active kind's row count, fresher than discovery's pushed counts. */
  readonly activeCount: number | undefined;
  /** Set while the view shows the past: counts per kind id at the viewed moment, replacing live ones. */
  readonly pastCounts?: Readonly<Record<string, number>> | 'unknown';
  readonly onChoose: (id: string) => void;
}

export const Sidebar = memo(function Sidebar(props: SidebarProps): ReactNode {
  let previousCategory: string | undefined;
  return (
    <nav className="sidebar" aria-label="Kinds" data-testid="sidebar">
      {props.groups.map((group) => {
        const showCategory = group.category !== previousCategory;
        previousCategory = group.category;
        return (
          <section
            key={`${group.category}/${group.group ?? ''}`}
            className={showCategory ? 'kind-group' : undefined}
          >
            {showCategory && (
              <div className="kind-group-title">
                {group.category === 'Custom' ? 'Custom resources' : group.category}
              </div>
            )}
            {group.group !== undefined && <div className="kind-subgroup">{group.group}</div>}
            {group.kinds.map((kind) => {
              const active = kind.id === props.activeId;
              // A kind the user may not read has no count: "no access" must never read as "0".
              const count =
                kind.forbidden !== undefined
                  ? undefined
                  : active && props.activeCount !== undefined
                    ? props.activeCount
                    : props.pastCounts === 'unknown'
                      ? undefined
                      : props.pastCounts
                        ? props.pastCounts[kind.id]
                        : kind.count;
              return (
                <KindItem key={kind.id} kind={kind} active={active} count={count} onChoose={props.onChoose} />
              );
            })}
          </section>
        );
      })}
    </nav>
  );
});

interface KindItemProps {
  readonly kind: CatalogKind;
  readonly active: boolean;
  readonly count: number | undefined;
  readonly onChoose: (id: string) => void;
}

/**
 * One kind's entry. Memoized apart from the list: the active kind's count follows its table, which
 * under churn re-queries ten times a second, and only that entry needs to render again.
 */
const KindItem = memo(function KindItem({ kind, active, count, onChoose }: KindItemProps): ReactNode {
  return (
    <button
      type="button"
      className={`kind-item${active ? ' active' : ''}`}
      aria-current={active ? 'page' : undefined}
      title={`${kind.kind} (${kind.gvr.group ? `${kind.gvr.group}/` : ''}${kind.gvr.version})${kind.forbidden !== undefined ? `: no access, ${kind.forbidden}` : ''}`}
      data-kind={kind.gvr.resource}
      data-forbidden={kind.forbidden !== undefined ? 'true' : undefined}
      onClick={() => onChoose(kind.id)}
    >
      <span className="kind-name">{kind.title}</span>
      {kind.forbidden !== undefined ? (
        <span className="kind-count kind-forbidden">no access</span>
      ) : (
        count !== undefined && <span className="kind-count">{formatCount(count)}</span>
      )}
    </button>
  );
});
