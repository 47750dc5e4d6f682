import { describe, expect, it } from 'vitest';
import { RowProjector, defaultPrinter } from '../../../main/bridge/row-projection';
import { podPrinter } from '../../../shared/kinds/columns/pods';
import type { KubeObject } from '../../../shared/kube/object';

const now = Date.UTC(2026, 0, 2);

const crashingPod: KubeObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'web-1',
    namespace: 'default',
    uid: 'u1',
    resourceVersion: '42',
    creationTimestamp: '2026-01-01T00:00:00Z',
    labels: { app: 'web' },
    ownerReferences: [
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7c9d8', uid: 'rs1', controller: true },
    ],
  },
  spec: { nodeName: 'n-12', containers: [{ name: 'main', image: 'nginx' }] },
  status: {
    phase: 'Running',
    containerStatuses: [
      { name: 'main', ready: false, restartCount: 14, state: { waiting: { reason: 'CrashLoopBackOff' } } },
    ],
  },
};

describe('RowProjector', () => {
  it('projects identity, labels, owners, node, creation time and the kubectl cells', () => {
    const row = new RowProjector(podPrinter).project(crashingPod, now);
    expect(row).toMatchObject({
      key: 'default/web-1',
      uid: 'u1',
      name: 'web-1',
      namespace: 'default',
      resourceVersion: '42',
      labels: { app: 'web' },
      owners: [{ kind: 'ReplicaSet', name: 'web-7c9d8', uid: 'rs1', controller: true }],
      node: 'n-12',
      createdAt: Date.UTC(2026, 0, 1),
    });
    expect(row.cells).toEqual(podPrinter.cells(crashingPod, now));
  });

  it('gives the rows of pods that share their owner references one owners array', () => {
    const projector = new RowProjector(podPrinter);
    const sibling: KubeObject = { ...crashingPod, metadata: { ...crashingPod.metadata, name: 'web-2' } };
    const first = projector.project(crashingPod, now);
    expect(projector.project(sibling, now).owners).toBe(first.owners);
    const alone: KubeObject = {
      ...crashingPod,
      metadata: { ...crashingPod.metadata, ownerReferences: [...crashingPod.metadata.ownerReferences!] },
    };
    const own = projector.project(alone, now).owners;
    expect(own).not.toBe(first.owners);
    expect(own).toEqual(first.owners);
  });

  it("takes the status index's value from the printer's Status column", () => {
    expect(new RowProjector(podPrinter).project(crashingPod, now).status).toBe('CrashLoopBackOff');
  });

  it('keys cluster-scoped objects by name alone and leaves node and status undefined when there are none', () => {
    const node: KubeObject = { metadata: { name: 'n-12', uid: 'n', resourceVersion: '1' } };
    const row = new RowProjector().project(node, now);
    expect(row.key).toBe('n-12');
    expect(row.namespace).toBe('');
    expect(row.node).toBeUndefined();
    expect(row.status).toBeUndefined();
  });

  it('gives every row the same fields in the same order, so rows of any object share one shape', () => {
    const node: KubeObject = { metadata: { name: 'n-12', uid: 'n', resourceVersion: '1' } };
    const bare = new RowProjector().project(node, now);
    const pod = new RowProjector(podPrinter).project(crashingPod, now);
    expect(Object.keys(bare)).toEqual(Object.keys(pod));
  });

  it('prints NAME and AGE for kinds without a printer', () => {
    expect(defaultPrinter.columns.map((column) => column.name)).toEqual(['Name', 'Age']);
    expect(new RowProjector().project(crashingPod, now).cells).toEqual(['web-1', Date.UTC(2026, 0, 1)]);
  });

  it('survives a printer that throws on a malformed object', () => {
    const throwing = {
      columns: podPrinter.columns,
      cells: () => {
        throw new Error('bad object');
      },
    };
    const row = new RowProjector(throwing).project(crashingPod, now);
    expect(row.cells[0]).toBe('web-1');
    expect(row.cells).toHaveLength(podPrinter.columns.length);
  });
});
