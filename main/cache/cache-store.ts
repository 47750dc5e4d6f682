// client-go's `cache` (store.go): a ThreadSafeStore keyed by a KeyFunc, optionally transforming
// objects on the way in. It is the informer's local cache (the Indexer) and a watch-list's temp store.
import type { Indexer, Indexers } from './indexer';
import { KeyError } from './keys';
import type { KeyFunc, Store, TransformFunc, TransformerAware } from './store';
import { ThreadSafeStore } from './thread-safe-store';

/**
 * A Store and Indexer over a ThreadSafeStore. Every key-function failure surfaces as a KeyError (the
 * original failure is its `cause`). The transformer, when set, runs on add, update and each replace
 * item before the key is computed; it is on the hot path of every write, so keep it cheap.
 */
export class CacheStore<T> implements Indexer<T>, TransformerAware {
  private readonly store: ThreadSafeStore<T>;

  constructor(
    private readonly keyFunc: KeyFunc<T>,
    indexers: Indexers<T> = {},
    private readonly transform?: TransformFunc,
  ) {
    this.store = new ThreadSafeStore<T>(indexers);
  }

  add(obj: T): void {
    const transformed = this.transformed(obj);
    this.store.add(this.keyOf(transformed), transformed);
  }

  update(obj: T): void {
    const transformed = this.transformed(obj);
    this.store.update(this.keyOf(transformed), transformed);
  }

  /**
   * Stores `obj` whether or not its key is cached (add and update are one operation of the store)
   * and returns the object it replaced: client-go's processDeltas, which Gets and then Adds or
   * Updates, in one key computation and one lookup. The replaced object is the one stored under the
   * key of `obj` as transformed: a transform never renames an object.
   */
  upsert(obj: T): T | undefined {
    const transformed = this.transformed(obj);
    return this.store.update(this.keyOf(transformed), transformed);
  }

  delete(obj: T): void {
    this.store.delete(this.keyOf(obj));
  }

  list(): T[] {
    return this.store.list();
  }

  listKeys(): string[] {
    return this.store.listKeys();
  }

  get(obj: T): T | undefined {
    return this.store.get(this.keyOf(obj));
  }

  getByKey(key: string): T | undefined {
    return this.store.get(key);
  }

  /** Makes `list` the whole contents (the last of several objects with one key wins) and reindexes. */
  replace(list: T[], resourceVersion: string): void {
    const items: [string, T][] = [];
    for (const obj of list) {
      const transformed = this.transformed(obj);
      items.push([this.keyOf(transformed), transformed]);
    }
    this.store.replace(items, resourceVersion);
  }

  resync(): void {
    this.store.resync();
  }

  index(indexName: string, obj: T): T[] {
    return this.store.index(indexName, obj);
  }

  indexKeys(indexName: string, indexedValue: string): string[] {
    return this.store.indexKeys(indexName, indexedValue);
  }

  listIndexFuncValues(indexName: string): string[] {
    return this.store.listIndexFuncValues(indexName);
  }

  byIndex(indexName: string, indexedValue: string): T[] {
    return this.store.byIndex(indexName, indexedValue);
  }

  getIndexers(): Indexers<T> {
    return this.store.getIndexers();
  }

  addIndexers(newIndexers: Indexers<T>): void {
    this.store.addIndexers(newIndexers);
  }

  transformer(): TransformFunc | undefined {
    return this.transform;
  }

  private keyOf(obj: T): string {
    try {
      return this.keyFunc(obj);
    } catch (error) {
      if (error instanceof KeyError) throw error;
      throw new KeyError(obj, error);
    }
  }

  private transformed(obj: T): T {
    return this.transform ? (this.transform(obj) as T) : obj;
  }
}

/** A plain keyed store without indexes (client-go NewStore). */
export function newStore<T>(keyFunc: KeyFunc<T>): Store<T> {
  return new CacheStore<T>(keyFunc);
}

/** A keyed store that runs `transformer` on every object it stores (client-go NewStore(WithTransformer)). */
export function newStoreWithTransformer<T>(
  keyFunc: KeyFunc<T>,
  transformer: TransformFunc,
): Store<T> & TransformerAware {
  return new CacheStore<T>(keyFunc, {}, transformer);
}

/** A keyed store with the given indexes (client-go NewIndexer). */
export function newIndexer<T>(keyFunc: KeyFunc<T>, indexers: Indexers<T>): Indexer<T> {
  return new CacheStore<T>(keyFunc, indexers);
}
