// The kinds the sidebar and the command palette offer: what discovery reports (ServedKind, CRDs
// included) joined with the built-in registry's names and categories. Before discovery answers, the
// built-ins stand in, so the sidebar is never empty at start-up.
import type { GroupVersionResource } from '../../shared/kube/object';
import { gvrKey } from '../../shared/kube/object';
import type { ServedKind } from '../../shared/protocol';
import type { KindCategory, KindInfo } from '../../shared/kinds/registry';
import type { ColumnDefinition } from '../../shared/kinds/columns/column-definition';
import { builtinKinds, kindCategories } from '../../shared/kinds/registry';

export interface CatalogKind {
  /** gvrKey of the kind: stable, and the id the views select by. */
  readonly id: string;
  readonly gvr: GroupVersionResource;
  readonly kind: string;
  /** "Pods", "Deployments": the resource as the sidebar titles it. */
  readonly title: string;
  readonly namespaced: boolean;
  readonly category: KindCategory;
  /** Names kubectl resolves for it, lower-case: resource, singular, short names, kind. */
  readonly aliases: readonly string[];
  readonly count?: number;
  /** Why the user may not read this kind (ServedKind.forbidden): the sidebar says "no access". */
  readonly forbidden?: string;
  /** The columns main projects this kind's Row.cells onto (a CRD's printer columns included). */
  readonly columns?: readonly ColumnDefinition[];
}

export interface CatalogGroup {
  readonly category: KindCategory;
  /** For Custom: the API group; undefined for the built-in categories. */
  readonly group?: string;
  readonly kinds: readonly CatalogKind[];
}

/** "Pods" from "pods", "Persistent Volume Claims" from "PersistentVolumeClaim"'s plural. */
function titleOf(kind: string, resource: string): string {
  if (kind === 'CustomResourceDefinition') return 'Definitions (CRDs)';
  const words = kind.replace(/([a-z0-9])([A-Z])/g, '$1 $2');
  if (resource.endsWith('ies') && kind.endsWith('y')) return `${words.slice(0, -1)}ies`;
  if (resource.endsWith('es') && /(s|x|ch|sh)$/.test(kind)) return `${words}es`;
  if (resource.endsWith('s') && !kind.endsWith('s')) return `${words}s`;
  return words;
}

function fromInfo(info: KindInfo, count?: number): CatalogKind {
  const gvr = { group: info.group, version: info.version, resource: info.resource };
  return {
    id: gvrKey(gvr),
    gvr,
    kind: info.kind,
    title: titleOf(info.kind, info.resource),
    namespaced: info.namespaced,
    category: info.category,
    aliases: [info.resource, ...info.shortNames, info.singular, info.kind.toLowerCase(), gvrKey(gvr)],
    ...(count !== undefined ? { count } : {}),
  };
}

function fromServed(served: ServedKind): CatalogKind {
  const builtin = builtinKinds.find(
    (info) => info.group === served.gvr.group && info.resource === served.gvr.resource,
  );
  const forbidden = served.forbidden !== undefined ? { forbidden: served.forbidden } : {};
  if (builtin)
    return {
      ...fromInfo({ ...builtin, version: served.gvr.version, namespaced: served.namespaced }, served.count),
      ...forbidden,
    };
  const qualified = served.gvr.group ? `${served.gvr.resource}.${served.gvr.group}` : served.gvr.resource;
  return {
    id: gvrKey(served.gvr),
    gvr: served.gvr,
    kind: served.kind,
    title: titleOf(served.kind, served.gvr.resource),
    namespaced: served.namespaced,
    category: 'Custom',
    aliases: [served.gvr.resource, served.kind.toLowerCase(), qualified, gvrKey(served.gvr)],
    ...(served.count !== undefined ? { count: served.count } : {}),
    ...forbidden,
    columns: served.columns,
  };
}

/** Every kind to offer, in sidebar order. Built-ins not served by the cluster are left out. */
export function catalogKinds(served: readonly ServedKind[]): CatalogKind[] {
  if (served.length === 0)
    return builtinKinds.filter((info) => info.category !== 'Custom').map((info) => fromInfo(info));
  const kinds = served.map(fromServed);
  const order = new Map(builtinKinds.map((info, index) => [`${info.group}/${info.resource}`, index]));
  const rank = (kind: CatalogKind) =>
    order.get(`${kind.gvr.group}/${kind.gvr.resource}`) ?? Number.MAX_SAFE_INTEGER;
  return kinds.sort(
    (left, right) =>
      kindCategories.indexOf(left.category) - kindCategories.indexOf(right.category) ||
      rank(left) - rank(right) ||
      left.gvr.group.localeCompare(right.gvr.group) ||
      left.title.localeCompare(right.title),
  );
}

/** The sidebar's groups: one per category, and custom resources one group per API group. */
export function catalogGroups(kinds: readonly CatalogKind[]): CatalogGroup[] {
  const groups: CatalogGroup[] = [];
  for (const kind of kinds) {
    const group = kind.category === 'Custom' ? kind.gvr.group : undefined;
    const last = groups[groups.length - 1];
    if (last && last.category === kind.category && last.group === group) {
      (last.kinds as CatalogKind[]).push(kind);
    } else {
      groups.push({ category: kind.category, ...(group !== undefined ? { group } : {}), kinds: [kind] });
    }
  }
  return groups;
}
