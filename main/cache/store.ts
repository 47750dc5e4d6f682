// client-go's Store: what a Reflector writes into (a DeltaFIFO, or a plain cache). Implementations
// live beside this file: thread-safe-store.ts (Indexer), delta-fifo.ts, fifo.ts.
import type { KubeObject } from '../../shared/kube/object';

export type KeyFunc<T = unknown> = (obj: T) => string;

/** Applied to every object as it enters the queue or cache; may mutate in place; must be idempotent. */
export type TransformFunc = (obj: unknown) => unknown;

export interface Store<T = KubeObject> {
  add(obj: T): void;
  update(obj: T): void;
  delete(obj: T): void;
  list(): T[];
  listKeys(): string[];
  get(obj: T): T | undefined;
  getByKey(key: string): T | undefined;
  /** Replaces the whole contents with `list`, observed at `resourceVersion`. */
  replace(list: T[], resourceVersion: string): void;
  /** Re-sends every known object as a Sync (meaningful for queues; a no-op for caches). */
  resync(): void;
}

/**
 * The part of a Store a Reflector writes through (client-go's ReflectorStore): a queue need not offer
 * Store's reads to be fed by a Reflector.
 */
export type ReflectorStore<T = KubeObject> = Pick<
  Store<T>,
  'add' | 'update' | 'delete' | 'replace' | 'resync'
>;

/** Implemented by stores that want to hear the resourceVersion of watch bookmarks. */
export interface BookmarkAware {
  bookmark(resourceVersion: string): void;
}

/** Implemented by stores that expose the transformer they apply (watch-list uses it for its temp store). */
export interface TransformerAware {
  transformer(): TransformFunc | undefined;
}

/**
 * The read side a DeltaFIFO needs of the cache it feeds (client-go's KeyListerGetter): which keys the
 * consumer already knows, to infer deletions on replace and to resync. An Indexer satisfies it.
 */
export interface KeyListerGetter<T = unknown> {
  listKeys(): string[];
  getByKey(key: string): T | undefined;
}
