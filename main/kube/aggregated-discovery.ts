// Aggregated discovery as a client reads it (apidiscovery.k8s.io v2 or v2beta1): /api or /apis
// answered with every group version's resources in one document, each group's versions in preference
// order. Asked for as client-go's discovery client asks; what a server answers in the legacy form is
// read by discovery.ts the legacy way.
import type { DiscoveryRoot } from './api-resource';
import { groupVersionKey } from './api-resource';

/** client-go's discovery Accept: aggregated v2, else v2beta1, else the legacy documents. */
export const aggregatedDiscoveryAccept = [
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
  'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList',
  'application/json',
].join(',');

export interface AggregatedDiscovery {
  kind: 'APIGroupDiscoveryList';
  items?: {
    metadata?: { name?: string };
    versions?: { version: string; freshness?: string; resources?: AggregatedResource[] }[];
  }[];
}

interface AggregatedResource {
  resource: string;
  responseKind?: { kind?: string };
  scope?: string;
  singularResource?: string;
  verbs?: string[];
  shortNames?: string[];
  categories?: string[];
}

/** An aggregated document's resources; each group's versions come in preference order. */
export function fromAggregated(document: AggregatedDiscovery): DiscoveryRoot {
  const root: DiscoveryRoot = { discovered: new Map(), stale: [], toFetch: [] };
  for (const item of document.items ?? []) {
    const group = item.metadata?.name ?? '';
    (item.versions ?? []).forEach(({ version, freshness, resources }, index) => {
      const key = groupVersionKey({ group, version });
      if (freshness === 'Stale') {
        root.stale.push(key);
        return;
      }
      // client-go refuses a resource without its kind; so is it left out here.
      const described = (resources ?? []).filter((entry) => entry.responseKind?.kind);
      root.discovered.set(
        key,
        described.map((entry) => {
          const kind = entry.responseKind!.kind!;
          return {
            group,
            version,
            resource: entry.resource,
            kind,
            singularName: entry.singularResource || kind.toLowerCase(),
            namespaced: entry.scope === 'Namespaced',
            verbs: entry.verbs ?? [],
            shortNames: entry.shortNames ?? [],
            categories: entry.categories ?? [],
            preferred: index === 0,
          };
        }),
      );
    });
  }
  return root;
}
