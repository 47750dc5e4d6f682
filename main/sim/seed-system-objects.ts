// What a fresh cluster holds before any workload, of the kinds no simulated controller acts on: a
// `default` ServiceAccount in every namespace (the serviceaccounts controller's), each node's Lease in
// kube-node-lease (its kubelet's heartbeat; not renewed here), the bootstrap ClusterRoles and their
// bindings (kube-apiserver's RBAC bootstrap, cut to the ones a person looks for) and a default
// StorageClass (as kind and k3s ship one). Written through the storage, so each has its uid and
// resourceVersion as a client-made object would.
import type { KubeObject } from '../../shared/kube/object';
import { seedPolicyObjects } from './seed-policy-objects';
import type { ClusterStorage } from './cluster-storage';
import { createDefaultServiceAccount } from './default-service-accounts';
import { basicUserRules } from './rbac-authorizer';
import type { ResourceType } from './resource-type';

type Resource = (name: string, group?: string) => ResourceType;

const rbac = 'rbac.authorization.k8s.io';

const clusterRoles: ReadonlyArray<{ name: string; rules: object[] }> = [
  {
    name: 'cluster-admin',
    rules: [
      { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
      { nonResourceURLs: ['*'], verbs: ['*'] },
    ],
  },
  { name: 'admin', rules: [{ apiGroups: ['', 'apps', 'batch'], resources: ['*'], verbs: ['*'] }] },
  {
    name: 'edit',
    rules: [
      {
        apiGroups: ['', 'apps', 'batch'],
        resources: ['pods', 'services', 'configmaps', 'secrets', 'deployments', 'jobs'],
        verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
      },
    ],
  },
  {
    name: 'view',
    rules: [
      {
        apiGroups: ['', 'apps', 'batch'],
        resources: ['pods', 'services', 'configmaps', 'deployments', 'jobs'],
        verbs: ['get', 'list', 'watch'],
      },
    ],
  },
  // The rules the authorizer grants every authenticated user, so the object and the decisions agree.
  {
    name: 'system:basic-user',
    rules: basicUserRules.map(({ apiGroups, resources, verbs }) => ({ apiGroups, resources, verbs })),
  },
];

const clusterRoleBindings: ReadonlyArray<{ role: string; group: string }> = [
  { role: 'cluster-admin', group: 'system:masters' },
  { role: 'system:basic-user', group: 'system:authenticated' },
];

/** MicroTime, as a Lease's renewTime is written: microseconds, in UTC. */
function microTime(epochMilliseconds: number): string {
  return new Date(epochMilliseconds).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** An RBAC default's metadata, as kube-apiserver's bootstrap policy labels and annotates it. */
function bootstrapMetadata(name: string): KubeObject['metadata'] {
  return {
    name,
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
    annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' },
  };
}

export function seedSystemObjects(storage: ClusterStorage, resource: Resource, now: number): void {
  for (const stored of storage.store.values('namespaces')) {
    const namespace = stored.object.metadata.name ?? '';
    createDefaultServiceAccount(storage, resource('serviceaccounts'), namespace);
  }
  for (const stored of storage.store.values('nodes')) {
    const node: KubeObject = stored.object;
    const name = node.metadata.name ?? '';
    storage.create(resource('leases', 'coordination.k8s.io'), 'kube-node-lease', {
      metadata: {
        name,
        namespace: 'kube-node-lease',
        ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name, uid: node.metadata.uid ?? '' }],
      },
      spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: microTime(now) },
    });
  }
  for (const { name, rules } of clusterRoles)
    storage.create(resource('clusterroles', rbac), undefined, { metadata: bootstrapMetadata(name), rules });
  for (const { role, group } of clusterRoleBindings)
    storage.create(resource('clusterrolebindings', rbac), undefined, {
      metadata: bootstrapMetadata(role),
      roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: role },
      subjects: [{ apiGroup: rbac, kind: 'Group', name: group }],
    });
  storage.create(resource('storageclasses', 'storage.k8s.io'), undefined, {
    metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
    provisioner: 'rancher.io/local-path',
    reclaimPolicy: 'Delete',
    volumeBindingMode: 'WaitForFirstConsumer',
  });
  seedPolicyObjects(storage, resource);
}
