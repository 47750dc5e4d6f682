// client-go's threadSafeMap (thread_safe_store.go): items by key plus incrementally maintained indexes.
// JavaScript runs one call at a time, so "thread safe" here means every method leaves items and
// indexes consistent before it returns; the name is kept for client-go's vocabulary.
import type { IndexFunc, Indexers, Indices } from './indexer';
import { ShardedMap } from './sharded-map';

/** One registered index, kept as a record so the hot path walks an array instead of two maps. */
interface IndexEntry<T> {
  readonly name: string;
  readonly indexFunc: IndexFunc<T>;
  readonly index: Map<string, Set<string>>;
}

const noValues: readonly string[] = [];

/**
 * Objects by key, with any number of indexes over them. Keys are chosen by the caller (CacheStore
 * computes them with a KeyFunc). Index functions must be deterministic and must not throw: the store
 * recomputes an object's old values from the stored object when it changes, so objects must not be
 * mutated while stored, and a throwing IndexFunc leaves the indexes inconsistent (client-go panics).
 */
export class ThreadSafeStore<T> {
  /**
   * Sharded (see ShardedMap): at 150,000 pods one Map's growth rehashed every key in one update.
   * Its order is a Go map's, unspecified: list and listKeys promise none.
   */
  private items = new ShardedMap<T>();
  private readonly indexers: Indexers<T> = {};
  private readonly indices: Indices = new Map();
  private entries: IndexEntry<T>[] = [];

  constructor(indexers: Indexers<T> = {}) {
    this.addIndexers(indexers);
  }

  /**
   * Stores `obj` under `key`, replacing any previous object, and moves the key between index values.
   * Returns the object replaced (undefined: none), found by the same lookup that stores.
   */
  add(key: string, obj: T): T | undefined {
    return this.update(key, obj);
  }

  /**
   * Like add. Re-storing the very object already stored (a resync writes the cache's own objects
   * back) skips reindexing: stored objects are immutable, so their index values cannot have changed.
   */
  update(key: string, obj: T): T | undefined {
    const old = this.items.exchange(key, obj);
    if (old === obj && old !== undefined) return old;
    const entries = this.entries;
    for (let i = 0; i < entries.length; i++) updateSingleIndex(entries[i], old, obj, key);
    return old;
  }

  /** Removes the object stored under `key` and its index entries; unknown keys are ignored. */
  delete(key: string): void {
    const old = this.items.get(key);
    if (old === undefined && !this.items.has(key)) return;
    this.items.delete(key);
    const entries = this.entries;
    for (let i = 0; i < entries.length; i++) updateSingleIndex(entries[i], old, undefined, key);
  }

  get(key: string): T | undefined {
    return this.items.get(key);
  }

  list(): T[] {
    return this.items.valuesArray();
  }

  listKeys(): string[] {
    return this.items.keysArray();
  }

  /**
   * Makes `items` the whole contents (the last of several entries with one key wins) and rebuilds
   * every index from scratch. `resourceVersion` is accepted for the Store contract and not kept.
   */
  replace(items: Iterable<readonly [string, T]>, _resourceVersion: string): void {
    this.items = ShardedMap.of(items);
    for (const entry of this.entries) entry.index.clear();
    for (const [key, obj] of this.items) {
      for (const entry of this.entries) updateSingleIndex(entry, undefined, obj, key);
    }
  }

  /** Nothing to do: resync re-sends objects through a queue, and a plain store is no queue. */
  resync(): void {}

  /** The stored objects sharing at least one value with `obj` under the named index. */
  index(indexName: string, obj: T): T[] {
    const entry = this.entry(indexName);
    const values = entry.indexFunc(obj);
    if (values.length === 1) return this.objectsOf(entry.index.get(values[0]));
    const keys = new Set<string>();
    for (const value of values) {
      const set = entry.index.get(value);
      if (set) for (const key of set) keys.add(key);
    }
    return this.objectsOf(keys);
  }

  indexKeys(indexName: string, indexedValue: string): string[] {
    const set = this.entry(indexName).index.get(indexedValue);
    return set ? Array.from(set) : [];
  }

  /** Every value the named index holds; [] for an unknown index. */
  listIndexFuncValues(indexName: string): string[] {
    const index = this.indices.get(indexName);
    return index ? Array.from(index.keys()) : [];
  }

  byIndex(indexName: string, indexedValue: string): T[] {
    return this.objectsOf(this.entry(indexName).index.get(indexedValue));
  }

  /** A copy of the registered index functions. */
  getIndexers(): Indexers<T> {
    return { ...this.indexers };
  }

  /**
   * Registers more index functions and indexes the existing items under them. Throws
   * "indexer conflict: ..." (adding none of them) when a name is already registered.
   */
  addIndexers(newIndexers: Indexers<T>): void {
    const names = Object.keys(newIndexers);
    const conflicts = names.filter((name) => Object.hasOwn(this.indexers, name));
    if (conflicts.length > 0) throw new Error(`indexer conflict: ${conflicts.sort().join(', ')}`);
    const added: IndexEntry<T>[] = [];
    for (const name of names) {
      const entry: IndexEntry<T> = { name, indexFunc: newIndexers[name], index: new Map() };
      this.indexers[name] = entry.indexFunc;
      this.indices.set(name, entry.index);
      added.push(entry);
    }
    this.entries = [...this.entries, ...added];
    for (const [key, obj] of this.items) {
      for (const entry of added) updateSingleIndex(entry, undefined, obj, key);
    }
  }

  private entry(indexName: string): IndexEntry<T> {
    for (const entry of this.entries) if (entry.name === indexName) return entry;
    throw new Error(`Index with name ${indexName} does not exist`);
  }

  private objectsOf(keys: Set<string> | undefined): T[] {
    const result: T[] = [];
    if (keys) for (const key of keys) result.push(this.items.get(key) as T);
    return result;
  }
}

/**
 * Moves `key` from the values of `old` to the values of `next` (either may be absent) in one index.
 * When both produce the same values in the same order nothing changes, which is the common case for
 * updates (client-go short-cuts only the single-value case). Sets that become empty are removed, so
 * listIndexFuncValues reports only values some object still has.
 */
function updateSingleIndex<T>(
  entry: IndexEntry<T>,
  old: T | undefined,
  next: T | undefined,
  key: string,
): void {
  const oldValues = old === undefined ? noValues : entry.indexFunc(old);
  const newValues = next === undefined ? noValues : entry.indexFunc(next);
  if (sameValues(oldValues, newValues)) return;
  const index = entry.index;
  for (let i = 0; i < oldValues.length; i++) {
    const set = index.get(oldValues[i]);
    if (set === undefined) continue;
    set.delete(key);
    if (set.size === 0) index.delete(oldValues[i]);
  }
  for (let i = 0; i < newValues.length; i++) {
    const set = index.get(newValues[i]);
    if (set === undefined) index.set(newValues[i], new Set([key]));
    else set.add(key);
  }
}

function sameValues(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
