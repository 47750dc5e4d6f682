// What the palette searches: every kind this window mirrors (the table's kind, Namespaces, what an
// open tab subscribed to), plus, while the palette is open, the few kinds people look up by name that
// are small even in a big cluster: Deployments, StatefulSets, DaemonSets, Services and Nodes. Opening
// the palette does not subscribe to every served kind: that would start a LIST and WATCH of each
// (Secrets and ConfigMaps included, whose names would then sit in the renderer) for a keystroke, and at
// 150,000 pods the large kinds cost tens of megabytes each. The palette says which kinds it searched.
import { useMemo } from 'react';
import type { Row } from '../../shared/protocol';
import { gvrKey } from '../../shared/kube/object';
import { ObjectSearch } from '../store/object-search';
import type { SearchedKind } from '../store/object-search';
import type { PaletteObjectGroup, PaletteObjectSearch } from '../components/command-palette';
import type { CatalogKind } from './kind-catalog';
import { podStatusClass, statusClass } from './status-class';
import { useMirrorState, useServices } from './app-context';
import { useSubscription } from './use-subscription';

/** One kind's matches, ready to show. */
export interface ObjectResultGroup {
  readonly kind: CatalogKind;
  readonly rows: readonly Row[];
  readonly count: number;
  readonly countIsLowerBound: boolean;
}

export interface ObjectSearchSource {
  /** The kinds searched now (mirrored, with a first list done or under way). */
  readonly kinds: readonly CatalogKind[];
  readonly find: (query: string) => ObjectResultGroup[];
}

/** The palette's view of a search: rows as titled entries, and a line saying what was searched. */
export function paletteObjectSearch(source: ObjectSearchSource): PaletteObjectSearch {
  const count = source.kinds.length;
  return {
    scope: `Names and labels (key=value): searching ${count} ${count === 1 ? 'kind' : 'kinds'} loaded in this window (${source.kinds.map((kind) => kind.title).join(', ')})`,
    find: (query: string): PaletteObjectGroup[] =>
      source.find(query).map((group) => ({
        id: group.kind.id,
        title: group.kind.title,
        count: group.count,
        more: group.countIsLowerBound,
        objects: group.rows.map((row) => ({
          id: row.key,
          title: row.name,
          ...(row.namespace ? { detail: row.namespace } : {}),
          ...(row.status
            ? {
                badge: row.status,
                badgeClass: group.kind.kind === 'Pod' ? podStatusClass(row.status) : statusClass(row.status),
              }
            : {}),
        })),
      })),
  };
}

const searchedWhileOpen = [
  { group: 'apps', version: 'v1', resource: 'deployments' },
  { group: 'apps', version: 'v1', resource: 'statefulsets' },
  { group: 'apps', version: 'v1', resource: 'daemonsets' },
  { group: '', version: 'v1', resource: 'services' },
  { group: '', version: 'v1', resource: 'nodes' },
];

/** One search per window: its name indexes then live as long as the mirrors they follow. */
const objectSearch = new ObjectSearch();

/** For the palette while it is mounted (open): the kinds above are mirrored for that long. */
export function useObjectSearch(catalog: readonly CatalogKind[]): ObjectSearchSource {
  const { bridge } = useServices();
  useSubscription(searchedWhileOpen[0]);
  useSubscription(searchedWhileOpen[1]);
  useSubscription(searchedWhileOpen[2]);
  useSubscription(searchedWhileOpen[3]);
  useSubscription(searchedWhileOpen[4]);
  // Any mirror's change (a kind added, a batch) can change the answer; only the palette re-renders.
  const revisions = useMirrorState((state) => state.revisions);

  return useMemo(() => {
    const byId = new Map(catalog.map((kind) => [kind.id, kind]));
    const searched: (SearchedKind & { kind: CatalogKind })[] = [];
    const seen = new Set<string>();
    for (const subscriptionId of bridge.store.subscriptionIds()) {
      const gvr = bridge.subscribedResource(subscriptionId);
      const mirror = bridge.store.mirror(subscriptionId);
      const kind = gvr ? byId.get(gvrKey(gvr)) : undefined;
      // The same kind mirrored twice (the table and a tab) is searched once.
      if (!kind || !mirror || seen.has(kind.id)) continue;
      seen.add(kind.id);
      searched.push({ id: kind.id, mirror, kind });
    }
    const order = new Map(catalog.map((kind, index) => [kind.id, index]));
    searched.sort((left, right) => order.get(left.id)! - order.get(right.id)!);
    const find = (query: string): ObjectResultGroup[] =>
      objectSearch.search(searched, query).groups.map((group) => {
        const entry = searched.find((candidate) => candidate.id === group.id)!;
        return {
          kind: entry.kind,
          rows: group.keys
            .map((key) => entry.mirror.rows.get(key))
            .filter((row): row is Row => row !== undefined),
          count: group.count,
          countIsLowerBound: group.countIsLowerBound,
        };
      });
    return { kinds: searched.map((entry) => entry.kind), find };
    // revisions: the mirrors' change signal while the palette is open.
  }, [bridge, catalog, revisions]);
}
