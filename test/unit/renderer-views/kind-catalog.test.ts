import { describe, expect, it } from 'vitest';
import { catalogGroups, catalogKinds } from '../../../renderer/views/kind-catalog';

describe('catalogKinds', () => {
  it('files built-ins under their categories and custom resources under their API group', () => {
    const kinds = catalogKinds([
      {
        gvr: { group: '', version: 'v1', resource: 'pods' },
        kind: 'Pod',
        namespaced: true,
        count: 12,
        columns: [],
      },
      {
        gvr: { group: 'apps', version: 'v1', resource: 'deployments' },
        kind: 'Deployment',
        namespaced: true,
        columns: [],
      },
      {
        gvr: { group: 'cert-manager.io', version: 'v1', resource: 'certificates' },
        kind: 'Certificate',
        namespaced: true,
        columns: [],
      },
      {
        gvr: { group: 'cert-manager.io', version: 'v1', resource: 'issuers' },
        kind: 'Issuer',
        namespaced: true,
        columns: [],
      },
    ]);
    const groups = catalogGroups(kinds);
    expect(groups.map((group) => `${group.category}${group.group ? `:${group.group}` : ''}`)).toEqual([
      'Workloads',
      'Custom:cert-manager.io',
    ]);
    expect(groups[0]?.kinds.map((kind) => kind.title)).toEqual(['Pods', 'Deployments']);
    expect(groups[0]?.kinds[0]?.count).toBe(12);
    expect(groups[1]?.kinds.map((kind) => kind.title)).toEqual(['Certificates', 'Issuers']);
  });

  it('offers the built-in kinds before discovery answers', () => {
    const titles = catalogKinds([]).map((kind) => kind.title);
    expect(titles).toContain('Pods');
    expect(titles).toContain('Services');
  });

  it('carries why a kind is forbidden, for built-ins and custom resources alike', () => {
    const forbidden = 'secrets is forbidden: User "jane" cannot list resource "secrets"';
    const kinds = catalogKinds([
      {
        gvr: { group: '', version: 'v1', resource: 'secrets' },
        kind: 'Secret',
        namespaced: true,
        forbidden,
        columns: [],
      },
      {
        gvr: { group: 'example.com', version: 'v1', resource: 'widgets' },
        kind: 'Widget',
        namespaced: true,
        forbidden,
        columns: [],
      },
    ]);
    expect(kinds.map((kind) => kind.forbidden)).toEqual([forbidden, forbidden]);
  });
});
