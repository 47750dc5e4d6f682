import { describe, expect, it } from 'vitest';
import {
  DeletedFinalStateUnknown,
  KeyError,
  deletionHandlingMetaNamespaceKeyFunc,
  metaNamespaceKeyFunc,
  splitMetaNamespaceKey,
} from '../../../main/cache/keys';

describe('metaNamespaceKeyFunc', () => {
  it('keys a namespaced object as namespace/name', () => {
    expect(metaNamespaceKeyFunc({ metadata: { namespace: 'default', name: 'web-1' } })).toBe('default/web-1');
  });

  it('keys a cluster-scoped object by its name alone', () => {
    expect(metaNamespaceKeyFunc({ metadata: { name: 'node-a' } })).toBe('node-a');
    expect(metaNamespaceKeyFunc({ metadata: { namespace: '', name: 'node-a' } })).toBe('node-a');
  });

  it('passes an explicit key through unchanged', () => {
    expect(metaNamespaceKeyFunc('kube-system/coredns')).toBe('kube-system/coredns');
  });

  it('throws a KeyError for an object without metadata', () => {
    expect(() => metaNamespaceKeyFunc({ spec: {} })).toThrow(KeyError);
    expect(() => metaNamespaceKeyFunc(42)).toThrow(KeyError);
  });

  it('throws a KeyError for an object without a name', () => {
    const obj = { metadata: { namespace: 'default' } };
    let caught: unknown;
    try {
      metaNamespaceKeyFunc(obj);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(KeyError);
    expect((caught as KeyError).obj).toBe(obj);
    expect((caught as KeyError).cause).toBeInstanceOf(Error);
  });
});

describe('splitMetaNamespaceKey', () => {
  it('splits namespace/name', () => {
    expect(splitMetaNamespaceKey('default/web-1')).toEqual({ namespace: 'default', name: 'web-1' });
  });

  it('gives an empty namespace for a bare name', () => {
    expect(splitMetaNamespaceKey('node-a')).toEqual({ namespace: '', name: 'node-a' });
  });

  it('rejects keys with more than two parts', () => {
    expect(() => splitMetaNamespaceKey('a/b/c')).toThrow('unexpected key format');
  });

  it('inverts metaNamespaceKeyFunc', () => {
    const key = metaNamespaceKeyFunc({ metadata: { namespace: 'ns', name: 'n' } });
    expect(splitMetaNamespaceKey(key)).toEqual({ namespace: 'ns', name: 'n' });
  });
});

describe('deletionHandlingMetaNamespaceKeyFunc', () => {
  it('keys a tombstone by the key it carries', () => {
    const tombstone = new DeletedFinalStateUnknown('default/gone', undefined);
    expect(deletionHandlingMetaNamespaceKeyFunc(tombstone)).toBe('default/gone');
  });

  it('keys an ordinary object like metaNamespaceKeyFunc', () => {
    expect(deletionHandlingMetaNamespaceKeyFunc({ metadata: { namespace: 'a', name: 'b' } })).toBe('a/b');
  });
});
