import { describe, expect, it } from 'vitest';
import { ThreadSafeStore } from '../../../main/cache/thread-safe-store';

const sorted = (values: string[]) => [...values].sort();

describe('ThreadSafeStore', () => {
  // thread_safe_store_test.go: a set left empty by a delete is removed from its index.
  it('TestThreadSafeStoreDeleteRemovesEmptySetsFromIndex', () => {
    const store = new ThreadSafeStore<string>({ testIndexer: (obj) => [obj] });
    store.add('testKey', 'testKey');
    expect(store.indexKeys('testIndexer', 'testKey')).toEqual(['testKey']);

    store.delete('testKey');
    expect(store.listIndexFuncValues('testIndexer')).toEqual([]);
    expect(store.indexKeys('testIndexer', 'testKey')).toEqual([]);
  });

  it('TestThreadSafeStoreAddKeepsNonEmptySetPostDeleteFromIndex', () => {
    const store = new ThreadSafeStore<string>({ testIndexer: () => ['testIndex'] });
    store.add('retain', 'retain');
    store.add('delete', 'delete');
    expect(sorted(store.indexKeys('testIndexer', 'testIndex'))).toEqual(['delete', 'retain']);

    store.delete('delete');
    expect(store.listIndexFuncValues('testIndexer')).toEqual(['testIndex']);
    expect(store.indexKeys('testIndexer', 'testIndex')).toEqual(['retain']);
  });

  it('TestThreadSafeStoreIndexingFunctionsWithMultipleValues', () => {
    const store = new ThreadSafeStore<string>({ testIndexer: (obj) => obj.split(',') });
    const keysOf = (value: string) => sorted(store.indexKeys('testIndexer', value));

    store.add('key1', 'foo');
    store.add('key2', 'bar');
    expect(keysOf('foo')).toEqual(['key1']);
    expect(keysOf('bar')).toEqual(['key2']);

    store.update('key2', 'foo,bar');
    expect(keysOf('foo')).toEqual(['key1', 'key2']);
    expect(keysOf('bar')).toEqual(['key2']);

    store.update('key1', 'foo,bar');
    expect(keysOf('foo')).toEqual(['key1', 'key2']);
    expect(keysOf('bar')).toEqual(['key1', 'key2']);

    store.add('key3', 'foo,bar,baz');
    expect(keysOf('foo')).toEqual(['key1', 'key2', 'key3']);
    expect(keysOf('bar')).toEqual(['key1', 'key2', 'key3']);
    expect(keysOf('baz')).toEqual(['key3']);

    store.update('key1', 'foo');
    expect(keysOf('foo')).toEqual(['key1', 'key2', 'key3']);
    expect(keysOf('bar')).toEqual(['key2', 'key3']);
    expect(keysOf('baz')).toEqual(['key3']);

    store.update('key2', 'bar');
    expect(keysOf('foo')).toEqual(['key1', 'key3']);
    expect(keysOf('bar')).toEqual(['key2', 'key3']);
    expect(keysOf('baz')).toEqual(['key3']);

    store.delete('key1');
    expect(keysOf('foo')).toEqual(['key3']);
    expect(keysOf('bar')).toEqual(['key2', 'key3']);
    expect(keysOf('baz')).toEqual(['key3']);

    store.delete('key3');
    expect(keysOf('foo')).toEqual([]);
    expect(keysOf('bar')).toEqual(['key2']);
    expect(keysOf('baz')).toEqual([]);
    expect(store.listIndexFuncValues('testIndexer')).toEqual(['bar']);
  });

  it('leaves the index untouched when an update keeps the same single value', () => {
    let calls = 0;
    const store = new ThreadSafeStore<{ value: string }>({
      byValue: (obj) => {
        calls++;
        return [obj.value];
      },
    });
    store.add('k', { value: 'a' });
    store.update('k', { value: 'a' });
    expect(calls).toBe(3);
    expect(store.indexKeys('byValue', 'a')).toEqual(['k']);
  });

  it('does not reindex when the stored object itself is stored again', () => {
    let calls = 0;
    const store = new ThreadSafeStore<{ value: string }>({
      byValue: (obj) => {
        calls++;
        return [obj.value];
      },
    });
    const obj = { value: 'a' };
    store.add('k', obj);
    store.update('k', obj);
    expect(calls).toBe(1);
    expect(store.indexKeys('byValue', 'a')).toEqual(['k']);
  });

  it('indexes existing items when indexers are added after them', () => {
    const store = new ThreadSafeStore<string>();
    store.add('k1', 'x,y');
    store.add('k2', 'y');
    store.addIndexers({ letters: (obj) => obj.split(',') });
    expect(sorted(store.indexKeys('letters', 'y'))).toEqual(['k1', 'k2']);
    expect(store.indexKeys('letters', 'x')).toEqual(['k1']);
  });

  it('rejects an indexer whose name is taken, adding none of the batch', () => {
    const store = new ThreadSafeStore<string>({ taken: (obj) => [obj] });
    expect(() => store.addIndexers({ fresh: (obj) => [obj], taken: (obj) => [obj] })).toThrow(
      'indexer conflict: taken',
    );
    expect(Object.keys(store.getIndexers())).toEqual(['taken']);
    expect(store.listIndexFuncValues('fresh')).toEqual([]);
  });

  it('throws for queries on an unknown index, but lists no values for it', () => {
    const store = new ThreadSafeStore<string>();
    expect(() => store.byIndex('missing', 'v')).toThrow('Index with name missing does not exist');
    expect(() => store.indexKeys('missing', 'v')).toThrow('Index with name missing does not exist');
    expect(() => store.index('missing', 'v')).toThrow('Index with name missing does not exist');
    expect(store.listIndexFuncValues('missing')).toEqual([]);
  });

  it('rebuilds every index on replace', () => {
    const store = new ThreadSafeStore<string>({ byValue: (obj) => [obj] });
    store.add('old', 'a');
    store.replace(
      new Map([
        ['n1', 'b'],
        ['n2', 'b'],
      ]),
      '7',
    );
    expect(store.listIndexFuncValues('byValue')).toEqual(['b']);
    expect(sorted(store.indexKeys('byValue', 'b'))).toEqual(['n1', 'n2']);
    expect(store.get('old')).toBeUndefined();
  });

  it('keeps, and indexes, only the last of several entries with one key on replace', () => {
    const store = new ThreadSafeStore<string>({ byValue: (obj) => [obj] });
    store.replace(
      [
        ['n1', 'a'],
        ['n2', 'b'],
        ['n1', 'c'],
      ],
      '7',
    );
    expect(store.get('n1')).toBe('c');
    expect(sorted(store.listIndexFuncValues('byValue'))).toEqual(['b', 'c']);
    expect(store.indexKeys('byValue', 'a')).toEqual([]);
    expect(sorted(store.list())).toEqual(['b', 'c']);
  });

  it('answers index() with the union over every value of the given object', () => {
    const store = new ThreadSafeStore<string>({ letters: (obj) => obj.split(',') });
    store.add('k1', 'a');
    store.add('k2', 'b');
    store.add('k3', 'c');
    expect(sorted(store.index('letters', 'a,b'))).toEqual(['a', 'b']);
  });
});
