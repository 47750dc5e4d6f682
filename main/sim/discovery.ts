// Legacy (unaggregated) discovery documents: APIVersions, APIGroupList, APIGroup and APIResourceList.
// Answering these as plain application/json makes kubectl fall back from aggregated discovery.
import type { ResourceCatalog } from './resource-catalog';
import type { ResourceType } from './resource-type';

export function apiVersions(serverAddress: string): object {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

function groupEntry(group: string, versions: string[]): object {
  const entries = versions.map((version) => ({ groupVersion: `${group}/${version}`, version }));
  return { name: group, versions: entries, preferredVersion: entries[0] };
}

export function apiGroupList(catalog: ResourceCatalog): object {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: catalog.groups().map(({ group, versions }) => groupEntry(group, versions)),
  };
}

export function apiGroup(catalog: ResourceCatalog, group: string): object | undefined {
  const found = catalog.groups().find((candidate) => candidate.group === group);
  if (!found) return undefined;
  return { kind: 'APIGroup', apiVersion: 'v1', ...groupEntry(found.group, found.versions) };
}

function resourceEntry(type: ResourceType): object[] {
  const main = {
    name: type.resource,
    singularName: type.singularName,
    namespaced: type.namespaced,
    kind: type.kind,
    verbs: type.verbs,
    ...(type.shortNames.length ? { shortNames: type.shortNames } : {}),
    ...(type.categories.length ? { categories: type.categories } : {}),
    storageVersionHash: '',
  };
  const subresources: object[] = [];
  if (type.status)
    subresources.push({
      name: `${type.resource}/status`,
      singularName: '',
      namespaced: type.namespaced,
      kind: type.kind,
      verbs: ['get', 'patch', 'update'],
    });
  if (type.scale)
    subresources.push({
      name: `${type.resource}/scale`,
      singularName: '',
      namespaced: type.namespaced,
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
      verbs: ['get', 'patch', 'update'],
    });
  return [main, ...subresources];
}

export function apiResourceList(
  catalog: ResourceCatalog,
  group: string,
  version: string,
): object | undefined {
  const types = catalog.resourcesOf(group, version);
  if (types.length === 0 && !(group === '' && version === 'v1')) return undefined;
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: group === '' ? version : `${group}/${version}`,
    resources: types.flatMap(resourceEntry),
  };
}
