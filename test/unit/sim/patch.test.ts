import { describe, expect, it } from 'vitest';
import { applyPatch, jsonPatch, mergePatch, strategicMergePatch } from '../../../main/sim/patch';
import { StatusError } from '../../../shared/kube/status';

const deployment = {
  metadata: { name: 'web', labels: { app: 'web', tier: 'front' }, finalizers: ['a'] },
  spec: {
    replicas: 2,
    template: {
      spec: {
        containers: [
          { name: 'app', image: 'nginx:1', env: [{ name: 'A', value: '1' }], ports: [{ containerPort: 80 }] },
          { name: 'sidecar', image: 'envoy:1' },
        ],
      },
    },
  },
};

describe('patches', () => {
  it('merge patch merges maps, deletes on null and replaces lists', () => {
    const result = mergePatch(deployment, {
      metadata: { labels: { tier: null, team: 'x' } },
      spec: { template: { spec: { containers: [{ name: 'only' }] } } },
    }) as typeof deployment;
    expect(result.metadata.labels).toEqual({ app: 'web', team: 'x' });
    expect(result.spec.template.spec.containers).toEqual([{ name: 'only' }]);
    expect(deployment.metadata.labels.tier).toBe('front');
  });

  it('strategic merge patch merges containers by name and env by name', () => {
    const result = strategicMergePatch(deployment, {
      spec: {
        template: {
          spec: { containers: [{ name: 'app', image: 'nginx:2', env: [{ name: 'B', value: '2' }] }] },
        },
      },
    }) as typeof deployment;
    const [app, sidecar] = result.spec.template.spec.containers;
    expect(app.image).toBe('nginx:2');
    expect(app.env).toEqual([
      { name: 'A', value: '1' },
      { name: 'B', value: '2' },
    ]);
    expect(app.ports).toEqual([{ containerPort: 80 }]);
    expect(sidecar.name).toBe('sidecar');
  });

  it('strategic merge patch honours $patch: delete, $retainKeys, $deleteFromPrimitiveList and unions finalizers', () => {
    const result = strategicMergePatch(deployment, {
      metadata: { finalizers: ['b'], '$deleteFromPrimitiveList/finalizers': ['a'] },
      spec: {
        $retainKeys: ['template'],
        template: {
          spec: {
            containers: [{ name: 'sidecar', $patch: 'delete' }],
            '$setElementOrder/containers': [{ name: 'app' }],
          },
        },
      },
    }) as typeof deployment;
    expect(result.metadata.finalizers).toEqual(['b']);
    expect(result.spec.replicas).toBeUndefined();
    expect(result.spec.template.spec.containers.map((container) => container.name)).toEqual(['app']);
  });

  it('JSON patch applies add, replace, remove, move, copy and test in order', () => {
    const result = jsonPatch({ a: { b: [1, 2] }, c: 'x' }, [
      { op: 'add', path: '/a/b/-', value: 3 },
      { op: 'replace', path: '/c', value: 'y' },
      { op: 'copy', from: '/c', path: '/d' },
      { op: 'move', from: '/d', path: '/e' },
      { op: 'remove', path: '/a/b/0' },
      { op: 'test', path: '/e', value: 'y' },
    ]);
    expect(result).toEqual({ a: { b: [2, 3] }, c: 'y', e: 'y' });
  });

  it('a failed JSON patch test or an unknown media type is an API error', () => {
    expect(() => jsonPatch({ a: 1 }, [{ op: 'test', path: '/a', value: 2 }])).toThrow(StatusError);
    try {
      applyPatch('application/apply-patch+yaml', {}, '{}');
      expect.unreachable();
    } catch (error) {
      expect((error as StatusError).code).toBe(415);
    }
  });
});
