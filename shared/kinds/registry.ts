// The built-in kinds Kubetide knows without discovery, with the names kubectl resolves (plural, singular,
// short names, Kind) and the sidebar category Lens files them under. Discovery adds CustomResourceDefinitions
// at run time through kindFromCustomResourceDefinition; findKind takes the merged list.

import type { GroupVersionResource, KubeObject } from '../kube/object';

export type KindCategory =
  'Workloads' | 'Network' | 'Config' | 'Storage' | 'Access Control' | 'Cluster' | 'Custom';

/** Sidebar order. */
export const kindCategories: readonly KindCategory[] = [
  'Cluster',
  'Workloads',
  'Config',
  'Network',
  'Storage',
  'Access Control',
  'Custom',
];

export interface KindInfo extends GroupVersionResource {
  kind: string;
  namespaced: boolean;
  shortNames: readonly string[];
  /** Lower-case singular name, as discovery's singularName. */
  singular: string;
  verbs: readonly string[];
  category: KindCategory;
}

/** The verbs every built-in here serves (events and CRDs included), as the API server's discovery lists. */
const standardVerbs = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'update',
  'watch',
] as const;
/** Namespaces cannot be deleted as a collection. */
const namespaceVerbs = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] as const;

function kind(
  group: string,
  version: string,
  resource: string,
  kindName: string,
  namespaced: boolean,
  shortNames: readonly string[],
  category: KindCategory,
  verbs: readonly string[] = standardVerbs,
): KindInfo {
  return {
    group,
    version,
    resource,
    kind: kindName,
    namespaced,
    shortNames,
    singular: kindName.toLowerCase(),
    verbs,
    category,
  };
}

/** Built-in kinds in sidebar order within each category. */
export const builtinKinds: readonly KindInfo[] = [
  kind('', 'v1', 'nodes', 'Node', false, ['no'], 'Cluster'),
  kind('', 'v1', 'namespaces', 'Namespace', false, ['ns'], 'Cluster', namespaceVerbs),
  kind('', 'v1', 'events', 'Event', true, ['ev'], 'Cluster'),
  kind('', 'v1', 'pods', 'Pod', true, ['po'], 'Workloads'),
  kind('apps', 'v1', 'deployments', 'Deployment', true, ['deploy'], 'Workloads'),
  kind('apps', 'v1', 'daemonsets', 'DaemonSet', true, ['ds'], 'Workloads'),
  kind('apps', 'v1', 'statefulsets', 'StatefulSet', true, ['sts'], 'Workloads'),
  kind('apps', 'v1', 'replicasets', 'ReplicaSet', true, ['rs'], 'Workloads'),
  kind('batch', 'v1', 'jobs', 'Job', true, [], 'Workloads'),
  kind('batch', 'v1', 'cronjobs', 'CronJob', true, ['cj'], 'Workloads'),
  kind('apps', 'v1', 'controllerrevisions', 'ControllerRevision', true, [], 'Workloads'),
  kind('', 'v1', 'configmaps', 'ConfigMap', true, ['cm'], 'Config'),
  kind('', 'v1', 'secrets', 'Secret', true, [], 'Config'),
  kind('', 'v1', 'resourcequotas', 'ResourceQuota', true, ['quota'], 'Config'),
  kind('', 'v1', 'limitranges', 'LimitRange', true, ['limits'], 'Config'),
  kind('autoscaling', 'v2', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler', true, ['hpa'], 'Config'),
  kind('policy', 'v1', 'poddisruptionbudgets', 'PodDisruptionBudget', true, ['pdb'], 'Config'),
  kind('scheduling.k8s.io', 'v1', 'priorityclasses', 'PriorityClass', false, ['pc'], 'Config'),
  kind('node.k8s.io', 'v1', 'runtimeclasses', 'RuntimeClass', false, [], 'Config'),
  kind('coordination.k8s.io', 'v1', 'leases', 'Lease', true, [], 'Config'),
  kind('', 'v1', 'services', 'Service', true, ['svc'], 'Network'),
  kind('', 'v1', 'endpoints', 'Endpoints', true, ['ep'], 'Network'),
  kind('discovery.k8s.io', 'v1', 'endpointslices', 'EndpointSlice', true, [], 'Network'),
  kind('networking.k8s.io', 'v1', 'ingresses', 'Ingress', true, ['ing'], 'Network'),
  kind('networking.k8s.io', 'v1', 'ingressclasses', 'IngressClass', false, [], 'Network'),
  kind('networking.k8s.io', 'v1', 'networkpolicies', 'NetworkPolicy', true, ['netpol'], 'Network'),
  kind('', 'v1', 'persistentvolumeclaims', 'PersistentVolumeClaim', true, ['pvc'], 'Storage'),
  kind('', 'v1', 'persistentvolumes', 'PersistentVolume', false, ['pv'], 'Storage'),
  kind('storage.k8s.io', 'v1', 'storageclasses', 'StorageClass', false, ['sc'], 'Storage'),
  kind('', 'v1', 'serviceaccounts', 'ServiceAccount', true, ['sa'], 'Access Control'),
  kind('rbac.authorization.k8s.io', 'v1', 'roles', 'Role', true, [], 'Access Control'),
  kind('rbac.authorization.k8s.io', 'v1', 'rolebindings', 'RoleBinding', true, [], 'Access Control'),
  kind('rbac.authorization.k8s.io', 'v1', 'clusterroles', 'ClusterRole', false, [], 'Access Control'),
  kind(
    'rbac.authorization.k8s.io',
    'v1',
    'clusterrolebindings',
    'ClusterRoleBinding',
    false,
    [],
    'Access Control',
  ),
  kind(
    'apiextensions.k8s.io',
    'v1',
    'customresourcedefinitions',
    'CustomResourceDefinition',
    false,
    ['crd', 'crds'],
    'Custom',
  ),
];

function namesOf(info: KindInfo): string[] {
  return [info.resource, info.singular, info.kind.toLowerCase(), ...info.shortNames];
}

function matchesName(info: KindInfo, name: string): boolean {
  return namesOf(info).includes(name);
}

/**
 * Resolves what a user types the way kubectl's RESTMapper and shortcut expander do, ignoring case:
 * `pods`, `pod`, `po`, `Pod`, `:pods` (k9s' command form), `deployments.apps`, `deploy.apps`,
 * `deployments.v1.apps`, `ingresses.networking.k8s.io`. A group-qualified name is first read as
 * resource.version.group, then as resource.group. Among several matches the first in `kinds` wins, so
 * built-ins shadow a CRD that reuses a short name, as kubectl prefers the core groups.
 */
export function findKind(text: string, kinds: readonly KindInfo[] = builtinKinds): KindInfo | undefined {
  const name = text.trim().replace(/^:/, '').toLowerCase();
  if (name === '') return undefined;
  const unqualified = kinds.find((info) => matchesName(info, name));
  if (unqualified !== undefined) return unqualified;
  const parts = name.split('.');
  if (parts.length >= 3) {
    const [resource, version] = parts as [string, string];
    const group = parts.slice(2).join('.');
    const exact = kinds.find(
      (info) => info.group === group && info.version === version && matchesName(info, resource),
    );
    if (exact !== undefined) return exact;
  }
  if (parts.length >= 2) {
    const resource = parts[0]!;
    const group = parts.slice(1).join('.');
    return kinds.find((info) => info.group === group && matchesName(info, resource));
  }
  return undefined;
}

/** The built-in or listed kind with this apiVersion ("apps/v1", "v1") and Kind. */
export function findKindByApiVersion(
  apiVersion: string,
  kindName: string,
  kinds: readonly KindInfo[] = builtinKinds,
): KindInfo | undefined {
  return kinds.find((info) => apiVersionOf(info) === apiVersion && info.kind === kindName);
}

/** "v1" for the core group, "apps/v1" otherwise. */
export function apiVersionOf(info: Pick<GroupVersionResource, 'group' | 'version'>): string {
  return info.group === '' ? info.version : `${info.group}/${info.version}`;
}

interface CustomResourceDefinitionSpec {
  group?: string;
  scope?: string;
  names?: { plural?: string; singular?: string; kind?: string; shortNames?: string[] };
  versions?: { name: string; served?: boolean; storage?: boolean }[];
}

/**
 * The KindInfo of a CRD's preferred version: the storage version if it is served, else the first served
 * one (discovery's preferred version for a single CRD). Undefined for a CRD that serves nothing or lacks
 * group, names or versions.
 */
export function kindFromCustomResourceDefinition(definition: KubeObject): KindInfo | undefined {
  const spec = definition['spec'] as CustomResourceDefinitionSpec | undefined;
  const served = (spec?.versions ?? []).filter((version) => version.served !== false);
  const version = served.find((candidate) => candidate.storage) ?? served[0];
  if (!spec?.group || !spec.names?.plural || !spec.names.kind || version === undefined) return undefined;
  return {
    group: spec.group,
    version: version.name,
    resource: spec.names.plural,
    kind: spec.names.kind,
    namespaced: spec.scope !== 'Cluster',
    shortNames: spec.names.shortNames ?? [],
    singular: spec.names.singular || spec.names.kind.toLowerCase(),
    verbs: standardVerbs,
    category: 'Custom',
  };
}
