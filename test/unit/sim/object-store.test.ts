import { describe, expect, it } from 'vitest';
import { ObjectStore } from '../../../main/sim/object-store';
import type { KubeObject } from '../../../shared/kube/object';

function pod(name: string, labels: Record<string, string> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', labels } };
}

describe('ObjectStore', () => {
  it('hands out one increasing decimal resourceVersion across all resources', () => {
    const store = new ObjectStore();
    const first = store.put('pods', 'default/a', pod('a'));
    const second = store.put('configmaps', 'default/b', pod('b'));
    expect(first.resourceVersion).toBe(1);
    expect(second.resourceVersion).toBe(2);
    expect(second.object.metadata.resourceVersion).toBe('2');
    expect(JSON.parse(second.json).metadata.resourceVersion).toBe('2');
  });

  it('records a DELETED event carrying the final state at a new resourceVersion', () => {
    const store = new ObjectStore();
    store.put('pods', 'default/a', pod('a'));
    const removed = store.remove('pods', 'default/a');
    expect(removed?.resourceVersion).toBe(2);
    expect(store.eventsSince('pods', 1)?.map((event) => [event.type, event.resourceVersion])).toEqual([
      ['DELETED', 2],
    ]);
  });

  it('serializes each event line once, shared by every reader', () => {
    const store = new ObjectStore();
    store.put('pods', 'default/a', pod('a'));
    const [event] = store.eventsSince('pods', 0) ?? [];
    expect(event.line).toBe(event.line);
    expect(JSON.parse(event.line)).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'a' } } });
  });

  it('forgets events beyond the window, so older resourceVersions are no longer watchable', () => {
    const store = new ObjectStore({ eventWindow: 3 });
    for (const name of ['a', 'b', 'c', 'd', 'e']) store.put('pods', `default/${name}`, pod(name));
    expect(store.oldestWatchableResourceVersion('pods')).toBe(2);
    expect(store.eventsSince('pods', 1)).toBeUndefined();
    expect(store.eventsSince('pods', 2)?.map((event) => event.resourceVersion)).toEqual([3, 4, 5]);
  });

  it('keeps a window per resource, so a busy resource never expires a quiet one', () => {
    const store = new ObjectStore({ eventWindow: 3 });
    store.put('configmaps', 'default/settings', pod('settings'));
    for (const name of ['a', 'b', 'c', 'd', 'e']) store.put('pods', `default/${name}`, pod(name));
    expect(store.eventsSince('pods', 1)).toBeUndefined();
    expect(store.oldestWatchableResourceVersion('configmaps')).toBe(0);
    expect(store.eventsSince('configmaps', 0)?.map((event) => event.key)).toEqual(['default/settings']);
    expect(store.eventsSince('configmaps', 1)).toEqual([]);
    expect(store.rewind('configmaps', 1)?.size).toBe(0);
    // etcd's compaction stays global: a read at an older resourceVersion (a continue token) expires.
    expect(store.oldestReadableResourceVersion).toBe(3);
  });

  it('keeps the DELETED events of a dropped resource for watches that resume across it', () => {
    const store = new ObjectStore();
    store.put('widgets.example.com', 'default/a', pod('a'));
    store.remove('widgets.example.com', 'default/a');
    store.dropResource('widgets.example.com');
    expect(store.eventsSince('widgets.example.com', 1)?.map((event) => event.type)).toEqual(['DELETED']);
  });

  it('compaction makes every earlier resourceVersion unwatchable', () => {
    const store = new ObjectStore();
    store.put('pods', 'default/a', pod('a'));
    store.put('pods', 'default/b', pod('b'));
    store.compact();
    expect(store.eventsSince('pods', 1)).toBeUndefined();
    expect(store.eventsSince('pods', 2)).toEqual([]);
  });

  it('a bulk load is not watchable from before it, as after a compaction', () => {
    const store = new ObjectStore();
    store.put('pods', 'default/a', pod('a'));
    store.load('pods', 'default/b', pod('b'));
    expect(store.eventsSince('pods', 1)).toBeUndefined();
    store.put('pods', 'default/c', pod('c'));
    expect(store.eventsSince('pods', 2)?.map((event) => event.key)).toEqual(['default/c']);
  });

  it('rewinds a resource to its state at an older resourceVersion', () => {
    const store = new ObjectStore();
    store.put('pods', 'default/a', pod('a', { v: '1' }));
    store.put('pods', 'default/b', pod('b'));
    store.put('pods', 'default/a', pod('a', { v: '2' }));
    store.remove('pods', 'default/b');
    store.put('pods', 'default/c', pod('c'));
    const overlay = store.rewind('pods', 2);
    expect(overlay?.get('default/a')?.object.metadata.labels).toEqual({ v: '1' });
    expect(overlay?.get('default/b')?.resourceVersion).toBe(2);
    expect(overlay?.has('default/c')).toBe(true);
    expect(overlay?.get('default/c')).toBeUndefined();
  });

  it('keeps keys sorted for paging, whether added one by one or loaded in bulk', () => {
    const store = new ObjectStore();
    for (const name of ['m', 'c', 'x', 'a']) store.put('pods', `default/${name}`, pod(name));
    for (let index = 0; index < 20; index++)
      store.load('pods', `bulk/${String(index).padStart(2, '0')}`, pod(`p${index}`));
    store.remove('pods', 'default/x');
    const keys = store.sortedKeys('pods');
    const all = Array.from({ length: keys.size }, (_, index) => keys.at(index));
    expect(all).toEqual([...all].sort());
    expect(all.slice(0, 3)).toEqual(['bulk/00', 'bulk/01', 'bulk/02']);
    expect(all).not.toContain('default/x');
  });
});
