// Aggregated discovery (apidiscovery.k8s.io v2, and v2beta1 for older clients): /api and /apis each
// answered with every group's versions and their resources in one document, as kube-apiserver does
// (GA in 1.30) for a client whose Accept asks for it; kubectl and client-go's discovery client do, and
// otherwise fetch one APIResourceList per group version. Made from the legacy documents, so the two
// forms never disagree: preferred version first, subresources folded under their resource.

const discoveryGroup = 'apidiscovery.k8s.io';
export type AggregatedVersion = 'v2' | 'v2beta1';

/** A group as APIGroupList lists it (preferred version first). */
export interface LegacyGroup {
  readonly name: string;
  readonly versions: readonly { readonly version: string }[];
}

/** An APIResourceList entry; subresources are named "resource/subresource". */
interface LegacyResource {
  readonly name: string;
  readonly singularName: string;
  readonly namespaced: boolean;
  readonly kind: string;
  readonly verbs: readonly string[];
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  /** A subresource's own kind's group and version (a Deployment's scale is autoscaling/v1 Scale). */
  readonly group?: string;
  readonly version?: string;
}

export type ResourceListOf = (group: string, version: string) => object | undefined;

/**
 * The aggregated form the Accept header asks for, in the client's order of preference; undefined
 * when it asks for none (JSON only: a protobuf range is passed over, as this server speaks JSON).
 */
export function negotiatedAggregatedDiscovery(accept: string | undefined): AggregatedVersion | undefined {
  for (const range of (accept ?? '').split(',')) {
    const [type, ...parameters] = range.split(';').map((part) => part.trim());
    if (type !== 'application/json') continue;
    const values = new Map(
      parameters.map((parameter) => parameter.split('=').map((part) => part.trim()) as [string, string]),
    );
    const version = values.get('v');
    if (values.get('g') !== discoveryGroup || values.get('as') !== 'APIGroupDiscoveryList') continue;
    if (version === 'v2' || version === 'v2beta1') return version;
  }
  return undefined;
}

/** The Content-Type of an aggregated answer, which tells the client which form it got. */
export function aggregatedContentType(version: AggregatedVersion): string {
  return `application/json;g=${discoveryGroup};v=${version};as=APIGroupDiscoveryList`;
}

/** An APIGroupDiscoveryList of `groups` ("" the core group, as /api answers). */
export function aggregatedDiscovery(
  version: AggregatedVersion,
  groups: readonly LegacyGroup[],
  resourceListOf: ResourceListOf,
): object {
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: `${discoveryGroup}/${version}`,
    metadata: {},
    items: groups.map((group) => ({
      metadata:
        group.name === '' ? { creationTimestamp: null } : { name: group.name, creationTimestamp: null },
      versions: group.versions.map(({ version: groupVersion }) => {
        const list = resourceListOf(group.name, groupVersion) as { resources?: LegacyResource[] } | undefined;
        return {
          version: groupVersion,
          resources: resourcesOf(group.name, groupVersion, list?.resources ?? []),
          freshness: 'Current',
        };
      }),
    })),
  };
}

function resourcesOf(group: string, version: string, entries: readonly LegacyResource[]): object[] {
  const kindOf = (entry: LegacyResource) => ({
    group: entry.group ?? group,
    version: entry.version ?? version,
    kind: entry.kind,
  });
  return entries
    .filter((entry) => !entry.name.includes('/'))
    .map((entry) => {
      const subresources = entries
        .filter((candidate) => candidate.name.startsWith(`${entry.name}/`))
        .map((candidate) => ({
          subresource: candidate.name.slice(entry.name.length + 1),
          responseKind: kindOf(candidate),
          verbs: candidate.verbs,
        }));
      return {
        resource: entry.name,
        responseKind: kindOf(entry),
        scope: entry.namespaced ? 'Namespaced' : 'Cluster',
        singularResource: entry.singularName,
        verbs: entry.verbs,
        ...(entry.shortNames?.length ? { shortNames: entry.shortNames } : {}),
        ...(entry.categories?.length ? { categories: entry.categories } : {}),
        ...(subresources.length ? { subresources } : {}),
      };
    });
}
