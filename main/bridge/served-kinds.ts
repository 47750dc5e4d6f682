// The kinds the sidebar lists: from live discovery when there is one (CRDs included, preferred
// versions only, and only what can be listed and watched, since a subscription needs both), else the
// built-in registry, which is also what is offered while discovery has not answered yet (a cluster
// slow or unreachable at start: the window opens with the kinds every cluster serves).
import type { GroupVersionResource } from '../../shared/kube/object';
import { builtinKinds } from '../../shared/kinds/registry';
import type { ServedKind } from '../../shared/protocol/server-messages';
import type { ColumnDefinition } from '../../shared/kinds/columns/column-definition';

/** One served resource as main/kube's Discovery reports it (ApiResource), as far as kinds need it. */
export interface DiscoveredResource extends GroupVersionResource {
  kind: string;
  namespaced: boolean;
  verbs: readonly string[];
  preferred: boolean;
}

/** What the session needs of main/kube's Discovery. */
export interface KindSource {
  preferredResources(): DiscoveredResource[];
  /** False while no discovery has answered (preferredResources() is empty then, not "none served"). */
  readonly answered?: boolean;
  /**
   * Calls `listener` after each discovery that changed the set or a custom kind's printer columns;
   * returns the unsubscriber.
   */
  onChange(listener: () => void): () => void;
}

function watchable(resource: { verbs: readonly string[] }): boolean {
  return resource.verbs.includes('list') && resource.verbs.includes('watch');
}

/** The resources `source` offers now: its preferred ones once it answered, else the built-in kinds. */
export function offeredResources(
  source: KindSource | undefined,
): readonly Omit<DiscoveredResource, 'preferred'>[] {
  return source && source.answered !== false ? source.preferredResources() : builtinKinds;
}

/** Served kinds, sorted by group then resource, with their columns and, where known, counts. */
export function servedKinds(
  source: KindSource | undefined,
  countOf: (gvr: GroupVersionResource) => number | undefined,
  columnsOf: (gvr: GroupVersionResource) => readonly ColumnDefinition[],
  forbiddenOf: (gvr: GroupVersionResource) => string | undefined = () => undefined,
): ServedKind[] {
  const resources = offeredResources(source);
  const kinds: ServedKind[] = [];
  for (const resource of resources) {
    if (!watchable(resource) || resource.resource.includes('/')) continue;
    const gvr = { group: resource.group, version: resource.version, resource: resource.resource };
    const kind: ServedKind = {
      gvr,
      kind: resource.kind,
      namespaced: resource.namespaced,
      columns: [...columnsOf(gvr)],
    };
    const forbidden = forbiddenOf(gvr);
    const count = countOf(gvr);
    if (forbidden !== undefined) kind.forbidden = forbidden;
    else if (count !== undefined) kind.count = count;
    kinds.push(kind);
  }
  return kinds.sort(
    (left, right) =>
      left.gvr.group.localeCompare(right.gvr.group) || left.gvr.resource.localeCompare(right.gvr.resource),
  );
}
