// The serviceaccounts controller's one job here: every namespace has a ServiceAccount named
// `default`, made when the namespace is (a pod that names no account runs as it). Namespaces are
// noted as their writes come and served in the controller loop (sync), never from inside the store's
// event; the seeded namespaces get theirs from seed-system-objects.ts.
import type { ClusterStorage } from './cluster-storage';
import type { ResourceType } from './resource-type';
import { objectKey } from './resource-type';

/** The `default` ServiceAccount of `namespace`, as the serviceaccounts controller makes it. */
export function createDefaultServiceAccount(
  storage: ClusterStorage,
  serviceAccounts: ResourceType,
  namespace: string,
): void {
  storage.create(serviceAccounts, namespace, { metadata: { name: 'default', namespace } });
}

export class DefaultServiceAccounts {
  /** Namespaces created since the last sync. */
  private readonly due = new Set<string>();
  private readonly serviceAccounts: ResourceType;
  private readonly unsubscribe: () => void;

  constructor(private readonly storage: ClusterStorage) {
    this.serviceAccounts = storage.catalog.findAnyVersion('', 'serviceaccounts') as ResourceType;
    this.unsubscribe = storage.store.subscribe((event) => {
      if (event.resource === 'namespaces' && event.type === 'ADDED')
        this.due.add(event.stored.object.metadata.name ?? '');
    });
  }

  /** Makes the `default` ServiceAccount of each namespace created since the last call, if it lacks one. */
  sync(): void {
    for (const namespace of this.due) {
      if (!this.storage.store.get('namespaces', namespace)) continue;
      if (this.storage.store.get('serviceaccounts', objectKey(namespace, 'default'))) continue;
      createDefaultServiceAccount(this.storage, this.serviceAccounts, namespace);
    }
    this.due.clear();
  }

  close(): void {
    this.unsubscribe();
  }
}
