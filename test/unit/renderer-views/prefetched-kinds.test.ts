import { describe, expect, it } from 'vitest';
import { catalogKinds } from '../../../renderer/views/kind-catalog';
import { kindsToPrefetch } from '../../../renderer/views/prefetched-kinds';

const served = (group: string, resource: string, kind: string, forbidden?: string) => ({
  gvr: { group, version: 'v1', resource },
  kind,
  namespaced: true,
  columns: [],
  ...(forbidden !== undefined ? { forbidden } : {}),
});

describe('kindsToPrefetch', () => {
  const kinds = catalogKinds([
    served('', 'pods', 'Pod'),
    served('apps', 'deployments', 'Deployment'),
    served('apps', 'replicasets', 'ReplicaSet'),
    served('apps', 'statefulsets', 'StatefulSet'),
    served('apps', 'daemonsets', 'DaemonSet', 'forbidden: cannot list'),
    served('', 'events', 'Event'),
  ]);

  it('waits for the viewed kind to sync', () => {
    expect(kindsToPrefetch(kinds, false)).toEqual([]);
  });

  it('mirrors the controllers above pods that the cluster serves and the user may read', () => {
    // Not ReplicaSets or Events (they change with every pod), nor a kind the user may not list.
    expect(kindsToPrefetch(kinds, true).map((gvr) => gvr.resource)).toEqual(['deployments', 'statefulsets']);
  });
});
