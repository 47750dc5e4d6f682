import { describe, expect, it } from 'vitest';
import { StringInterner } from '../../../main/bridge/object-compactor';
import { SiblingSharing } from '../../../main/bridge/sibling-sharing';
import type { KubeObject } from '../../../shared/kube/object';

interface PodShape {
  name: string;
  owner?: string;
  node?: string;
  labels?: Record<string, string>;
}

/** A pod as JSON.parse hands it over: no part shared with any other object. */
function pod({ name, owner = 'rs-uid-1', node = 'node-1', labels = { app: 'web' } }: PodShape): KubeObject {
  return JSON.parse(
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        namespace: 'shop',
        uid: `uid-${name}`,
        labels,
        ownerReferences: [{ kind: 'ReplicaSet', name: 'web-1', uid: owner, controller: true }],
      },
      spec: {
        nodeName: node,
        containers: [{ name: 'app', image: 'registry.example/web:1.2.3', resources: { cpu: '100m' } }],
      },
    }),
  ) as KubeObject;
}

type PodParts = KubeObject & { spec: { containers: unknown[] } };

describe('SiblingSharing', () => {
  it('gives the pods of one owner the same instance of every part they have in common', () => {
    const sharing = new SiblingSharing(new StringInterner());
    const first = sharing.share(pod({ name: 'a' })) as PodParts;
    const second = sharing.share(pod({ name: 'b', node: 'node-2' })) as PodParts;
    expect(second.spec.containers).toBe(first.spec.containers);
    expect(second.metadata.labels).toBe(first.metadata.labels);
    expect(second.metadata.ownerReferences).toBe(first.metadata.ownerReferences);
    expect(second.spec).not.toBe(first.spec);
    expect(second.metadata).not.toBe(first.metadata);
  });

  it('keeps every object equal to what it was given, and never writes to the template', () => {
    const sharing = new SiblingSharing(new StringInterner());
    const first = sharing.share(pod({ name: 'a' }));
    const before = structuredClone(first);
    const second = sharing.share(pod({ name: 'b', node: 'node-2', labels: { app: 'web', tier: 'front' } }));
    expect(first).toEqual(before);
    expect(second).toEqual(pod({ name: 'b', node: 'node-2', labels: { app: 'web', tier: 'front' } }));
  });

  it('does not take a template part that has keys the object lacks', () => {
    const sharing = new SiblingSharing(new StringInterner());
    const first = sharing.share(pod({ name: 'a', labels: { app: 'web', tier: 'front' } }));
    const second = sharing.share(pod({ name: 'b', labels: { app: 'web' } }));
    expect(second.metadata.labels).not.toBe(first.metadata.labels);
    expect(second.metadata.labels).toEqual({ app: 'web' });
  });

  it('shares nothing between objects of different owners', () => {
    const sharing = new SiblingSharing(new StringInterner());
    const first = sharing.share(pod({ name: 'a', owner: 'rs-uid-1' })) as PodParts;
    const second = sharing.share(pod({ name: 'b', owner: 'rs-uid-2' })) as PodParts;
    expect(second.spec.containers).not.toBe(first.spec.containers);
    expect(second.spec.containers).toEqual(first.spec.containers);
  });

  it('remembers a bounded number of owners', () => {
    const sharing = new SiblingSharing(new StringInterner(), 10);
    for (let owner = 0; owner < 100; owner++) sharing.share(pod({ name: `p${owner}`, owner: `rs-${owner}` }));
    expect(sharing.size).toBeLessThanOrEqual(10);
  });
});
