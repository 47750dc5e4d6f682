// Secondary indexes over a keyed store (client-go index.go): an index function maps an object to any
// number of values, and each index maps a value to the keys of the objects that produce it.
import { metadataOf } from './keys';
import type { Store } from './store';

/** Maps an object to the values it is indexed under. Must be pure and deterministic; a throw is a bug. */
export type IndexFunc<T> = (obj: T) => string[];

/** Index functions by index name. */
export type Indexers<T> = Record<string, IndexFunc<T>>;

/** index name -> indexed value -> keys of the objects with that value. Sets are never empty. */
export type Indices = Map<string, Map<string, Set<string>>>;

/** The name of the index every informer gets, over metaNamespaceIndexFunc. */
export const namespaceIndex = 'namespace';

/** Indexes an object by its namespace ("" for cluster-scoped objects). Throws for objects without metadata. */
export function metaNamespaceIndexFunc(obj: unknown): string[] {
  const metadata = metadataOf(obj);
  if (!metadata) throw new Error('object has no meta');
  return [typeof metadata.namespace === 'string' ? metadata.namespace : ''];
}

/**
 * A Store with secondary indexes. Every query names an index; an unknown name throws
 * "Index with name X does not exist" (listIndexFuncValues returns [] instead). Result order is unspecified.
 */
export interface Indexer<T> extends Store<T> {
  /** The stored objects sharing at least one indexed value with `obj` under the named index. */
  index(indexName: string, obj: T): T[];
  /** The keys of the stored objects indexed under `indexedValue`. */
  indexKeys(indexName: string, indexedValue: string): string[];
  /** Every value the named index currently holds. */
  listIndexFuncValues(indexName: string): string[];
  /** The stored objects indexed under `indexedValue`. */
  byIndex(indexName: string, indexedValue: string): T[];
  getIndexers(): Indexers<T>;
  /**
   * Adds index functions, at any time: existing items are indexed at once. A name that is already
   * registered throws "indexer conflict: ..." and nothing is added.
   */
  addIndexers(newIndexers: Indexers<T>): void;
}
