// The garbage collector and namespace controller, reduced to what viewers observe: when an owner is
// deleted its dependents (by ownerReferences uid) are deleted in the background, level by level, and
// deleting a Namespace deletes everything in it. Runs on the injected clock, so a test sees the
// owner's DELETED event first and the dependents' after a step.
import type { SimClock, SimTimer } from './clock';
import type { ObjectStore, StoredEvent, StoredObject } from './object-store';
import type { DependentRef, OwnerIndex } from './owner-index';
import { objectKey } from './resource-type';

export class GarbageCollector {
  private readonly pending: (() => void)[] = [];
  private timer?: SimTimer;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly store: ObjectStore,
    private readonly owners: OwnerIndex,
    private readonly clock: SimClock,
  ) {
    this.unsubscribe = store.subscribe((event) => this.observe(event));
  }

  /** Drops the owner reference from every dependent of `owner` (deletion with propagationPolicy Orphan). */
  orphan(owner: StoredObject): void {
    const uid = owner.object.metadata.uid ?? '';
    for (const ref of this.owners.dependentsOf(uid)) {
      const stored = this.store.get(ref.resource, ref.key);
      if (!stored) continue;
      const copy = structuredClone(stored.object);
      copy.metadata.ownerReferences = copy.metadata.ownerReferences?.filter(
        (reference) => reference.uid !== uid,
      );
      if (copy.metadata.ownerReferences?.length === 0) delete copy.metadata.ownerReferences;
      this.store.put(ref.resource, ref.key, copy);
    }
  }

  close(): void {
    this.unsubscribe();
    this.timer?.stop();
    this.pending.length = 0;
  }

  private observe(event: StoredEvent): void {
    if (event.type !== 'DELETED') return;
    const dependents = this.owners.dependentsOf(event.stored.object.metadata.uid ?? '');
    if (dependents.length) this.schedule(() => this.deleteAll(dependents));
    if (event.resource === 'namespaces') {
      const namespace = event.key;
      this.schedule(() => this.deleteNamespaceContents(namespace));
    }
  }

  private deleteAll(refs: DependentRef[]): void {
    for (const ref of refs)
      if (this.store.get(ref.resource, ref.key)) this.store.remove(ref.resource, ref.key);
  }

  private deleteNamespaceContents(namespace: string): void {
    const prefix = objectKey(namespace, '');
    for (const resource of this.store.resources()) {
      const keys = this.store.sortedKeys(resource);
      const doomed: string[] = [];
      for (let index = keys.lowerBound(prefix); index < keys.size; index++) {
        const key = keys.at(index) as string;
        if (!key.startsWith(prefix)) break;
        doomed.push(key);
      }
      for (const key of doomed) this.store.remove(resource, key);
    }
  }

  private schedule(work: () => void): void {
    this.pending.push(work);
    this.timer ??= this.clock.setTimeout(() => {
      this.timer = undefined;
      for (const next of this.pending.splice(0)) next();
    }, 0);
  }
}
