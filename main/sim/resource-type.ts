// What the simulator serves: one ResourceType per group/version/resource, built in or defined by a
// CustomResourceDefinition. Discovery, routing, Tables and the scale subresource all read from here.
import type { KubeObject } from '../../shared/kube/object';

/** JSON paths (".spec.replicas" style) that map an object onto autoscaling/v1 Scale. */
export interface ScaleSubresource {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface ResourceType {
  group: string;
  version: string;
  /** Plural, lower-case: "pods". */
  resource: string;
  kind: string;
  listKind: string;
  singularName: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  verbs: string[];
  scale?: ScaleSubresource;
  status: boolean;
  /** The CustomResourceDefinition that serves this type; absent for built-ins. */
  definitionName?: string;
}

export const allVerbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/** "v1" for the core group, "apps/v1" otherwise. */
export function apiVersionOf(type: Pick<ResourceType, 'group' | 'version'>): string {
  return type.group === '' ? type.version : `${type.group}/${type.version}`;
}

/** A type a CRD serves: its objects are unstructured, written as Go writes a map (unstructured-json.ts). */
export function isCustomResource(type: Pick<ResourceType, 'definitionName'>): boolean {
  return type.definitionName !== undefined;
}

/** The storage key of a resource: "pods", "deployments.apps", "widgets.example.kubetide.dev". */
export function resourceKey(type: Pick<ResourceType, 'group' | 'resource'>): string {
  return type.group === '' ? type.resource : `${type.resource}.${type.group}`;
}

/** The key of an object within its resource: "namespace/name" or "name" (MetaNamespaceKeyFunc). */
export function objectKey(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

function builtin(
  group: string,
  version: string,
  resource: string,
  kind: string,
  namespaced: boolean,
  shortNames: string[] = [],
  extra: Partial<ResourceType> = {},
): ResourceType {
  return {
    group,
    version,
    resource,
    kind,
    listKind: `${kind}List`,
    singularName: kind.toLowerCase(),
    namespaced,
    shortNames,
    categories: [],
    verbs: allVerbs,
    status: false,
    ...extra,
  };
}

const replicasScale: ScaleSubresource = {
  specReplicasPath: '.spec.replicas',
  statusReplicasPath: '.status.replicas',
  labelSelectorPath: '.status.selector',
};

/** The kinds every simulated cluster serves before any CRD exists. */
export function builtinResourceTypes(): ResourceType[] {
  const all = ['all'];
  return [
    builtin('', 'v1', 'namespaces', 'Namespace', false, ['ns'], { status: true }),
    builtin('', 'v1', 'nodes', 'Node', false, ['no'], { status: true }),
    builtin('', 'v1', 'pods', 'Pod', true, ['po'], { status: true, categories: all }),
    builtin('', 'v1', 'services', 'Service', true, ['svc'], { status: true, categories: all }),
    builtin('', 'v1', 'endpoints', 'Endpoints', true, ['ep'], { singularName: 'endpoints' }),
    builtin('', 'v1', 'configmaps', 'ConfigMap', true, ['cm']),
    builtin('', 'v1', 'secrets', 'Secret', true),
    builtin('', 'v1', 'events', 'Event', true, ['ev']),
    builtin('apps', 'v1', 'deployments', 'Deployment', true, ['deploy'], {
      status: true,
      scale: replicasScale,
      categories: all,
    }),
    builtin('apps', 'v1', 'replicasets', 'ReplicaSet', true, ['rs'], {
      status: true,
      scale: replicasScale,
      categories: all,
    }),
    builtin('apps', 'v1', 'statefulsets', 'StatefulSet', true, ['sts'], {
      status: true,
      scale: replicasScale,
      categories: all,
    }),
    builtin('apps', 'v1', 'daemonsets', 'DaemonSet', true, ['ds'], { status: true, categories: all }),
    builtin('batch', 'v1', 'jobs', 'Job', true, [], { status: true, categories: all }),
    builtin('batch', 'v1', 'cronjobs', 'CronJob', true, ['cj'], { status: true, categories: all }),
    builtin('apiextensions.k8s.io', 'v1', 'customresourcedefinitions', 'CustomResourceDefinition', false, [
      'crd',
      'crds',
    ]),
    // Kinds every cluster serves whose objects no simulated controller acts on (seed-system-objects.ts
    // seeds what a fresh cluster holds of them).
    builtin('', 'v1', 'serviceaccounts', 'ServiceAccount', true, ['sa']),
    builtin('', 'v1', 'persistentvolumeclaims', 'PersistentVolumeClaim', true, ['pvc'], { status: true }),
    builtin('', 'v1', 'persistentvolumes', 'PersistentVolume', false, ['pv'], { status: true }),
    builtin('networking.k8s.io', 'v1', 'ingresses', 'Ingress', true, ['ing'], { status: true }),
    builtin('networking.k8s.io', 'v1', 'networkpolicies', 'NetworkPolicy', true, ['netpol']),
    builtin('coordination.k8s.io', 'v1', 'leases', 'Lease', true),
    builtin('storage.k8s.io', 'v1', 'storageclasses', 'StorageClass', false, ['sc']),
    builtin('rbac.authorization.k8s.io', 'v1', 'roles', 'Role', true),
    builtin('rbac.authorization.k8s.io', 'v1', 'rolebindings', 'RoleBinding', true),
    builtin('rbac.authorization.k8s.io', 'v1', 'clusterroles', 'ClusterRole', false),
    builtin('rbac.authorization.k8s.io', 'v1', 'clusterrolebindings', 'ClusterRoleBinding', false),
    // Policy and scheduling kinds (seed-policy-objects.ts seeds what a running cluster holds of them).
    builtin('apps', 'v1', 'controllerrevisions', 'ControllerRevision', true),
    builtin('', 'v1', 'resourcequotas', 'ResourceQuota', true, ['quota'], { status: true }),
    builtin('', 'v1', 'limitranges', 'LimitRange', true, ['limits']),
    builtin('autoscaling', 'v2', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler', true, ['hpa'], {
      status: true,
      categories: all,
    }),
    builtin('policy', 'v1', 'poddisruptionbudgets', 'PodDisruptionBudget', true, ['pdb'], { status: true }),
    builtin('scheduling.k8s.io', 'v1', 'priorityclasses', 'PriorityClass', false, ['pc']),
    builtin('node.k8s.io', 'v1', 'runtimeclasses', 'RuntimeClass', false),
    builtin('discovery.k8s.io', 'v1', 'endpointslices', 'EndpointSlice', true),
    builtin('networking.k8s.io', 'v1', 'ingressclasses', 'IngressClass', false),
  ];
}

interface CrdVersion {
  name: string;
  served?: boolean;
  subresources?: { status?: object; scale?: ScaleSubresource };
}

interface CrdSpec {
  group: string;
  scope: 'Namespaced' | 'Cluster';
  names: {
    plural: string;
    singular?: string;
    kind: string;
    listKind?: string;
    shortNames?: string[];
    categories?: string[];
  };
  versions: CrdVersion[];
}

/** The served versions of a CustomResourceDefinition, one ResourceType each; [] if it is malformed. */
export function resourceTypesOfDefinition(definition: KubeObject): ResourceType[] {
  const spec = definition.spec as CrdSpec | undefined;
  if (!spec?.group || !spec.names?.plural || !spec.names.kind || !Array.isArray(spec.versions)) return [];
  return spec.versions
    .filter((version) => version.served !== false)
    .map((version) => ({
      group: spec.group,
      version: version.name,
      resource: spec.names.plural,
      kind: spec.names.kind,
      listKind: spec.names.listKind ?? `${spec.names.kind}List`,
      singularName: spec.names.singular ?? spec.names.kind.toLowerCase(),
      namespaced: spec.scope !== 'Cluster',
      shortNames: spec.names.shortNames ?? [],
      categories: spec.names.categories ?? [],
      verbs: allVerbs,
      status: version.subresources?.status !== undefined,
      scale: version.subresources?.scale,
      definitionName: definition.metadata.name,
    }));
}
