// client-go listers.go / listers/generic_helpers.go: label-selected lists over an informer's cache,
// per namespace through the namespace index (or a scan without it), and gets that fail as NotFound.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/kube/object';
import { StatusError, isNotFound } from '../../../shared/kube/status';
import { everything, nothing, parseLabelSelector } from '../../../shared/selectors/label-selector';
import { newIndexer } from '../../../main/cache/cache-store';
import { metaNamespaceIndexFunc, namespaceIndex } from '../../../main/cache/indexer';
import { deletionHandlingMetaNamespaceKeyFunc } from '../../../main/cache/keys';
import { GenericLister, listAll, listAllByNamespace } from '../../../main/cache/lister';
import { nameOf, pod } from './shared-informer-helpers';

function node(name: string, labels?: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name, ...(labels ? { labels } : {}) } };
}

function podIndexer(withNamespaceIndex = true) {
  const indexer = newIndexer<KubeObject>(
    deletionHandlingMetaNamespaceKeyFunc,
    withNamespaceIndex ? { [namespaceIndex]: metaNamespaceIndexFunc } : {},
  );
  indexer.add(pod('web-1', { app: 'web', tier: 'front' }, 'shop'));
  indexer.add(pod('web-2', { app: 'web' }, 'shop'));
  indexer.add(pod('db-1', { app: 'db' }, 'shop'));
  indexer.add(pod('web-3', { app: 'web' }, 'blog'));
  indexer.add(pod('bare', undefined, 'blog'));
  return indexer;
}

const names = (objects: KubeObject[]) => objects.map(nameOf).sort();

describe('listAll', () => {
  it('returns nothing for the nothing() selector', () => {
    expect(listAll(podIndexer(), nothing())).toEqual([]);
  });

  it('returns everything for an empty selector, unlabelled objects included', () => {
    expect(names(listAll(podIndexer(), everything()))).toEqual(['bare', 'db-1', 'web-1', 'web-2', 'web-3']);
  });

  it('returns the objects whose labels match', () => {
    expect(names(listAll(podIndexer(), parseLabelSelector('app=web,tier!=front')))).toEqual([
      'web-2',
      'web-3',
    ]);
  });
});

describe('listAllByNamespace', () => {
  it('lists one namespace through the namespace index', () => {
    expect(names(listAllByNamespace(podIndexer(), 'shop', parseLabelSelector('app=web')))).toEqual([
      'web-1',
      'web-2',
    ]);
  });

  it('scans when the namespace index is missing, with the same result', () => {
    expect(names(listAllByNamespace(podIndexer(false), 'shop', parseLabelSelector('app=web')))).toEqual([
      'web-1',
      'web-2',
    ]);
  });

  it('treats the namespace "" as every namespace', () => {
    expect(names(listAllByNamespace(podIndexer(), '', parseLabelSelector('app=web')))).toEqual([
      'web-1',
      'web-2',
      'web-3',
    ]);
  });

  it('returns nothing for the nothing() selector', () => {
    expect(listAllByNamespace(podIndexer(), 'shop', nothing())).toEqual([]);
  });
});

describe('GenericLister', () => {
  const pods = { group: '', version: 'v1', resource: 'pods' };

  it('gets a namespaced object by namespace and name', () => {
    const lister = new GenericLister(podIndexer(), pods);
    expect(nameOf(lister.byNamespace('blog').get('web-3'))).toBe('web-3');
    expect(names(lister.byNamespace('blog').list(everything()))).toEqual(['bare', 'web-3']);
    expect(names(lister.list(parseLabelSelector('app=db')))).toEqual(['db-1']);
  });

  it('fails a get of a missing object with a 404 NotFound StatusError naming the resource', () => {
    const lister = new GenericLister(podIndexer(), pods);
    let caught: unknown;
    try {
      lister.byNamespace('blog').get('web-1');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(StatusError);
    expect(isNotFound(caught)).toBe(true);
    expect((caught as StatusError).status.message).toBe('pods "web-1" not found');
    expect((caught as StatusError).status.details).toEqual({ name: 'web-1', group: '', kind: 'pods' });
  });

  it('gets cluster-scoped objects by name and qualifies grouped resources in NotFound', () => {
    const indexer = newIndexer<KubeObject>(deletionHandlingMetaNamespaceKeyFunc, {});
    indexer.add(node('node-a'));
    const lister = new GenericLister(indexer, { group: 'example.com', version: 'v1', resource: 'widgets' });
    expect(nameOf(lister.get('node-a'))).toBe('node-a');
    expect(() => lister.get('node-b')).toThrow('widgets.example.com "node-b" not found');
  });
});
