import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/kube/object';
import {
  apiVersionOf,
  builtinKinds,
  findKind,
  findKindByApiVersion,
  kindCategories,
  kindFromCustomResourceDefinition,
} from '../../../shared/kinds/registry';
import type { KindInfo } from '../../../shared/kinds/registry';

const widgetDefinition: KubeObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.kubetide.dev' },
  spec: {
    group: 'example.kubetide.dev',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wd', 'po'] },
    versions: [
      { name: 'v1alpha1', served: true, storage: false },
      { name: 'v1', served: true, storage: true },
    ],
  },
};

describe('kind registry', () => {
  it('knows the kinds the sidebar lists, each once', () => {
    const keys = builtinKinds.map((info) => `${info.resource}.${info.group}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const resource of [
      'namespaces',
      'nodes',
      'pods',
      'services',
      'endpoints',
      'configmaps',
      'secrets',
      'events',
      'deployments',
      'replicasets',
      'statefulsets',
      'daemonsets',
      'jobs',
      'cronjobs',
      'ingresses',
      'networkpolicies',
      'persistentvolumes',
      'persistentvolumeclaims',
      'serviceaccounts',
      'customresourcedefinitions',
      'leases',
    ]) {
      expect(findKind(resource)?.resource).toBe(resource);
    }
    for (const info of builtinKinds) expect(kindCategories).toContain(info.category);
  });

  it('describes kinds as discovery does', () => {
    expect(findKind('deployments')).toMatchObject({
      group: 'apps',
      version: 'v1',
      kind: 'Deployment',
      namespaced: true,
      singular: 'deployment',
      shortNames: ['deploy'],
      category: 'Workloads',
    });
    expect(findKind('nodes')).toMatchObject({ namespaced: false, category: 'Cluster' });
    expect(findKind('crd')).toMatchObject({
      group: 'apiextensions.k8s.io',
      namespaced: false,
      category: 'Custom',
    });
    expect(findKind('pods')?.verbs).toEqual(
      expect.arrayContaining(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete']),
    );
  });

  it('resolves plural, singular, short name and Kind, ignoring case', () => {
    for (const text of ['pods', 'pod', 'po', 'Pod', 'PODS', ' po '])
      expect(findKind(text)?.resource).toBe('pods');
    expect(findKind('deploy')?.resource).toBe('deployments');
    expect(findKind('Deployment')?.resource).toBe('deployments');
    expect(findKind('netpol')?.resource).toBe('networkpolicies');
    expect(findKind('ep')?.kind).toBe('Endpoints');
  });

  it("accepts k9s' :command form", () => {
    expect(findKind(':pods')?.resource).toBe('pods');
    expect(findKind(':deploy')?.resource).toBe('deployments');
  });

  it('resolves resource.group and resource.version.group, and refuses a wrong group', () => {
    expect(findKind('deployments.apps')?.resource).toBe('deployments');
    expect(findKind('deploy.apps')?.resource).toBe('deployments');
    expect(findKind('deployments.v1.apps')?.resource).toBe('deployments');
    expect(findKind('ingresses.networking.k8s.io')?.resource).toBe('ingresses');
    expect(findKind('ingresses.v1.networking.k8s.io')?.resource).toBe('ingresses');
    expect(findKind('deployments.batch')).toBeUndefined();
    expect(findKind('deployments.v2.apps')).toBeUndefined();
  });

  it('returns undefined for unknown or empty names', () => {
    expect(findKind('')).toBeUndefined();
    expect(findKind(':')).toBeUndefined();
    expect(findKind('widgets')).toBeUndefined();
  });

  it('finds a kind by apiVersion and Kind', () => {
    expect(findKindByApiVersion('apps/v1', 'ReplicaSet')?.resource).toBe('replicasets');
    expect(findKindByApiVersion('v1', 'Pod')?.resource).toBe('pods');
    expect(findKindByApiVersion('v1', 'Deployment')).toBeUndefined();
    expect(apiVersionOf({ group: 'batch', version: 'v1' })).toBe('batch/v1');
  });
});

describe('kinds of CustomResourceDefinitions', () => {
  it("takes the CRD's names, scope and storage version", () => {
    expect(kindFromCustomResourceDefinition(widgetDefinition)).toEqual({
      group: 'example.kubetide.dev',
      version: 'v1',
      resource: 'widgets',
      kind: 'Widget',
      namespaced: true,
      shortNames: ['wd', 'po'],
      singular: 'widget',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      category: 'Custom',
    });
  });

  it('is undefined for a CRD that serves no version', () => {
    const spec = widgetDefinition['spec'] as Record<string, unknown>;
    expect(
      kindFromCustomResourceDefinition({
        ...widgetDefinition,
        spec: { ...spec, versions: [{ name: 'v1', served: false }] },
      }),
    ).toBeUndefined();
    expect(kindFromCustomResourceDefinition({ metadata: {} })).toBeUndefined();
  });

  it('lets findKind search discovered kinds, built-ins winning a shared short name', () => {
    const widget = kindFromCustomResourceDefinition(widgetDefinition)!;
    const kinds: KindInfo[] = [...builtinKinds, widget];
    expect(findKind('wd', kinds)).toBe(widget);
    expect(findKind('widgets.example.kubetide.dev', kinds)).toBe(widget);
    expect(findKind('Widget', kinds)).toBe(widget);
    expect(findKind('po', kinds)?.resource).toBe('pods');
  });
});
