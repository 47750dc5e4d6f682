// Read-only views of an informer's cache (client-go listers.go and dynamic/dynamiclister): list by
// label selector, per namespace through the namespace index, and get by name with a NotFound error.
import type { GroupVersionResource, KubeObject } from '../../shared/kube/object';
import { StatusError, newStatus } from '../../shared/kube/status';
import type { LabelSelector } from '../../shared/selectors/label-selector';
import type { Indexer } from './indexer';
import { namespaceIndex } from './indexer';
import type { Store } from './store';

/** What a lister needs of a selector: labels.Selector's matching half. */
export type ListSelector = Pick<LabelSelector, 'matches' | 'isEmpty' | 'matchesNothing'>;

/** A resource without its version: what NotFound errors name (metav1's GroupResource). */
export interface GroupResource {
  group: string;
  resource: string;
}

/**
 * Every object in `store` that `selector` selects: none for nothing(), all for an empty selector,
 * else those whose labels match. The objects are the cache's own: never mutate them.
 */
export function listAll<T extends KubeObject>(store: Pick<Store<T>, 'list'>, selector: ListSelector): T[] {
  if (selector.matchesNothing()) return [];
  const all = store.list();
  if (selector.isEmpty()) return all;
  return all.filter((obj) => selector.matches(obj.metadata?.labels));
}

/**
 * Like listAll, within one namespace ("" means every namespace). Uses the "namespace" index; when the
 * indexer has none, scans everything, which is correct but O(cache) per call.
 */
export function listAllByNamespace<T extends KubeObject>(
  indexer: Indexer<T>,
  namespace: string,
  selector: ListSelector,
): T[] {
  if (namespace === '') return listAll(indexer, selector);
  if (selector.matchesNothing()) return [];
  const candidates =
    namespaceIndex in indexer.getIndexers()
      ? indexer.byIndex(namespaceIndex, namespace)
      : indexer.list().filter((obj) => (obj.metadata?.namespace ?? '') === namespace);
  if (selector.isEmpty()) return candidates;
  return candidates.filter((obj) => selector.matches(obj.metadata?.labels));
}

/** A StatusError as the API server returns it for a missing object (apimachinery's NewNotFound). */
export function newNotFound(resource: GroupResource, name: string): StatusError {
  const qualified = resource.group === '' ? resource.resource : `${resource.resource}.${resource.group}`;
  return new StatusError(
    newStatus(404, 'NotFound', `${qualified} "${name}" not found`, {
      name,
      group: resource.group,
      kind: resource.resource,
    }),
  );
}

/** Lists and gets objects of one namespace. */
export interface GenericNamespaceLister<T extends KubeObject = KubeObject> {
  list(selector: ListSelector): T[];
  /** The object named `name` in this namespace; throws a 404 NotFound StatusError when absent. */
  get(name: string): T;
}

/**
 * Lists and gets objects of one resource from an informer's indexer (client-go's GenericLister).
 * `get` looks a cluster-scoped object up by name; for namespaced objects use byNamespace(ns).get.
 */
export class GenericLister<T extends KubeObject = KubeObject> {
  private readonly resource: GroupResource;

  constructor(
    private readonly indexer: Indexer<T>,
    resource: GroupResource | GroupVersionResource,
  ) {
    this.resource = { group: resource.group, resource: resource.resource };
  }

  list(selector: ListSelector): T[] {
    return listAll(this.indexer, selector);
  }

  get(name: string): T {
    return this.getByKey(name, name);
  }

  byNamespace(namespace: string): GenericNamespaceLister<T> {
    return {
      list: (selector) => listAllByNamespace(this.indexer, namespace, selector),
      get: (name) => this.getByKey(namespace === '' ? name : `${namespace}/${name}`, name),
    };
  }

  private getByKey(key: string, name: string): T {
    const obj = this.indexer.getByKey(key);
    if (obj === undefined) throw newNotFound(this.resource, name);
    return obj;
  }
}
