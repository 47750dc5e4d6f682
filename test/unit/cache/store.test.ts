import { describe, expect, it } from 'vitest';
import { CacheStore, newIndexer, newStore, newStoreWithTransformer } from '../../../main/cache/cache-store';
import { FIFO } from '../../../main/cache/fifo';
import { KeyError } from '../../../main/cache/keys';
import type { Indexer } from '../../../main/cache/indexer';
import type { Store } from '../../../main/cache/store';

interface TestStoreObject {
  id: string;
  val: string;
}

const mkObj = (id: string, val: string): TestStoreObject => ({ id, val });
const testStoreKeyFunc = (obj: TestStoreObject) => obj.id;

/** store_test.go doTestStore: the public Store contract. */
function doTestStore(store: Store<TestStoreObject>): void {
  store.add(mkObj('foo', 'bar'));
  expect(store.get(mkObj('foo', ''))?.val).toBe('bar');
  store.update(mkObj('foo', 'baz'));
  expect(store.get(mkObj('foo', ''))?.val).toBe('baz');
  store.delete(mkObj('foo', ''));
  expect(store.get(mkObj('foo', ''))).toBeUndefined();

  store.add(mkObj('a', 'b'));
  store.add(mkObj('c', 'd'));
  store.add(mkObj('e', 'e'));
  expect(
    store
      .list()
      .map((obj) => obj.val)
      .sort(),
  ).toEqual(['b', 'd', 'e']);

  store.replace([mkObj('foo', 'foo'), mkObj('bar', 'bar')], '0');
  expect(
    store
      .list()
      .map((obj) => obj.val)
      .sort(),
  ).toEqual(['bar', 'foo']);
}

/** store_test.go doTestIndex. */
function doTestIndex(indexer: Indexer<TestStoreObject>): void {
  indexer.add(mkObj('a', 'b'));
  indexer.add(mkObj('c', 'b'));
  indexer.add(mkObj('e', 'f'));
  indexer.add(mkObj('g', 'h'));
  const expected: Record<string, string[]> = { b: ['a', 'c'], f: ['e'], h: ['g'] };
  for (const [value, ids] of Object.entries(expected)) {
    const found = indexer.index('by_val', mkObj('', value)).map((obj) => obj.id);
    expect(found.sort()).toEqual(ids);
  }
}

describe('Store implementations (store_test.go)', () => {
  it('TestCache', () => {
    doTestStore(newStore(testStoreKeyFunc));
  });

  it('TestCacheWithTransformer', () => {
    let calls = 0;
    const store = newStoreWithTransformer<TestStoreObject>(testStoreKeyFunc, (obj) => {
      calls++;
      return obj;
    });
    doTestStore(store);
    // An add and an update, 3 more adds, then 2 replaced items; deletes are not transformed.
    expect(calls).toBe(7);
    expect(store.transformer()).toBeTypeOf('function');
  });

  it('stores what the transformer returns', () => {
    const store = newStoreWithTransformer<TestStoreObject>(testStoreKeyFunc, (obj) => ({
      ...(obj as TestStoreObject),
      val: (obj as TestStoreObject).val.toUpperCase(),
    }));
    store.add(mkObj('a', 'lower'));
    expect(store.getByKey('a')?.val).toBe('LOWER');
  });

  // The informer's processDeltas in one lookup: what Get would have returned, then the object stored
  // and reindexed as add and update do.
  it('upserts, returning the object it replaced', () => {
    const store = new CacheStore<TestStoreObject>(testStoreKeyFunc, { by_val: (obj) => [obj.val] });
    const first = mkObj('a', 'one');
    expect(store.upsert(first)).toBeUndefined();
    expect(store.getByKey('a')).toBe(first);
    const second = mkObj('a', 'two');
    expect(store.upsert(second)).toBe(first);
    expect(store.getByKey('a')).toBe(second);
    expect(store.byIndex('by_val', 'one')).toEqual([]);
    expect(store.byIndex('by_val', 'two')).toEqual([second]);
    // Storing the very object again replaces it with itself.
    expect(store.upsert(second)).toBe(second);
  });

  it('TestFIFOCache', () => {
    doTestStore(new FIFO(testStoreKeyFunc));
  });

  it('TestIndex', () => {
    doTestIndex(newIndexer(testStoreKeyFunc, { by_val: (obj) => [obj.val] }));
  });

  it('keeps the Store contract for an Indexer too', () => {
    doTestStore(newIndexer(testStoreKeyFunc, { by_val: (obj) => [obj.val] }));
  });

  // The original failure stays reachable, even through a KeyError wrapping a KeyError.
  it('TestKeyError', () => {
    const cause = new Error('error');
    const keyError = new KeyError(100, cause);
    expect(keyError.cause).toBe(cause);
    expect(keyError.obj).toBe(100);
    const nested = new KeyError(100, keyError);
    expect((nested.cause as KeyError).cause).toBe(cause);
    expect(nested.message).toContain('error');
  });

  it('wraps key-function failures in a KeyError that keeps the cause', () => {
    const failure = new Error('no id');
    const store = newStore<TestStoreObject>(() => {
      throw failure;
    });
    let caught: unknown;
    try {
      store.add(mkObj('x', 'y'));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(KeyError);
    expect((caught as KeyError).cause).toBe(failure);
    expect((caught as KeyError).obj).toEqual(mkObj('x', 'y'));
  });
});
