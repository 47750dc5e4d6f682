import { describe, expect, it } from 'vitest';
import { newIndexer } from '../../../main/cache/cache-store';
import { metaNamespaceIndexFunc, namespaceIndex } from '../../../main/cache/indexer';
import { metaNamespaceKeyFunc } from '../../../main/cache/keys';
import type { KubeObject } from '../../../shared/kube/object';

function pod(name: string, meta: Partial<KubeObject['metadata']> = {}): KubeObject {
  return { kind: 'Pod', metadata: { name, ...meta } };
}

const names = (objects: KubeObject[]) => objects.map((obj) => obj.metadata.name).sort();

describe('Indexer (index_test.go)', () => {
  it('TestGetIndexFuncValues', () => {
    const index = newIndexer<KubeObject>(metaNamespaceKeyFunc, {
      testmodes: (obj) => [obj.metadata.labels?.foo ?? ''],
    });
    index.add(pod('one', { labels: { foo: 'bar' } }));
    index.add(pod('two', { labels: { foo: 'bar' } }));
    index.add(pod('tre', { labels: { foo: 'biz' } }));

    expect(index.listIndexFuncValues('testmodes').sort()).toEqual(['bar', 'biz']);
  });

  it('TestMultiIndexKeys', () => {
    const index = newIndexer<KubeObject>(metaNamespaceKeyFunc, {
      byUser: (obj) => (obj.metadata.annotations?.users ?? '').split(','),
    });
    const one = pod('one', { annotations: { users: 'ernie,bert' } });
    const two = pod('two', { annotations: { users: 'bert,oscar' } });
    const tre = pod('tre', { annotations: { users: 'ernie,elmo' } });
    index.add(one);
    index.add(two);
    index.add(tre);

    expect(names(index.byIndex('byUser', 'ernie'))).toEqual(['one', 'tre']);
    expect(names(index.byIndex('byUser', 'bert'))).toEqual(['one', 'two']);
    expect(names(index.byIndex('byUser', 'elmo'))).toEqual(['tre']);
    expect(names(index.byIndex('byUser', 'oscar'))).toEqual(['two']);
    expect(names(index.byIndex('byUser', 'elmo1'))).toEqual([]);
    expect(names(index.index('byUser', one))).toEqual(['one', 'tre', 'two']);

    index.delete(tre);
    expect(names(index.byIndex('byUser', 'ernie'))).toEqual(['one']);
    expect(names(index.byIndex('byUser', 'elmo'))).toEqual([]);

    index.update(pod('two', { annotations: { users: 'oscar' } }));
    expect(names(index.byIndex('byUser', 'bert'))).toEqual(['one']);
  });

  it('indexes by namespace with metaNamespaceIndexFunc', () => {
    const index = newIndexer<KubeObject>(metaNamespaceKeyFunc, { [namespaceIndex]: metaNamespaceIndexFunc });
    index.add(pod('a', { namespace: 'default' }));
    index.add(pod('b', { namespace: 'kube-system' }));
    index.add(pod('c', { namespace: 'default' }));
    index.add(pod('node-x'));

    expect(names(index.byIndex(namespaceIndex, 'default'))).toEqual(['a', 'c']);
    expect(index.indexKeys(namespaceIndex, '')).toEqual(['node-x']);
  });

  it('throws from metaNamespaceIndexFunc for an object without metadata', () => {
    expect(() => metaNamespaceIndexFunc({})).toThrow('object has no meta');
  });
});
