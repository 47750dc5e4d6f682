import { describe, expect, it } from 'vitest';
import { servedKinds } from '../../../main/bridge/served-kinds';
import type { KindSource } from '../../../main/bridge/served-kinds';
import type { Discovery } from '../../../main/kube/discovery';

const noColumns = () => [];

describe('servedKinds', () => {
  it('lists the preferred, watchable resources discovery reports, CRDs included, with counts where known', () => {
    const source: KindSource = {
      onChange: () => () => {},
      preferredResources: () => [
        {
          group: '',
          version: 'v1',
          resource: 'pods',
          kind: 'Pod',
          namespaced: true,
          verbs: ['list', 'watch'],
          preferred: true,
        },
        {
          group: 'example.com',
          version: 'v1',
          resource: 'widgets',
          kind: 'Widget',
          namespaced: true,
          verbs: ['get', 'list', 'watch'],
          preferred: true,
        },
        {
          group: '',
          version: 'v1',
          resource: 'bindings',
          kind: 'Binding',
          namespaced: true,
          verbs: ['create'],
          preferred: true,
        },
      ],
    };
    const kinds = servedKinds(source, (gvr) => (gvr.resource === 'pods' ? 3 : undefined), noColumns);
    expect(kinds.map((kind) => [kind.kind, kind.count])).toEqual([
      ['Pod', 3],
      ['Widget', undefined],
    ]);
  });

  it('falls back to the built-in kinds without discovery', () => {
    const kinds = servedKinds(undefined, () => undefined, noColumns);
    expect(kinds.some((kind) => kind.kind === 'Deployment' && kind.gvr.group === 'apps')).toBe(true);
  });

  it('offers the built-in kinds while discovery has not answered, then what it discovered', () => {
    let answered = false;
    const source: KindSource = {
      get answered() {
        return answered;
      },
      preferredResources: () =>
        answered
          ? [
              {
                group: 'example.com',
                version: 'v1',
                resource: 'widgets',
                kind: 'Widget',
                namespaced: true,
                verbs: ['list', 'watch'],
                preferred: true,
              },
            ]
          : [],
      onChange: () => () => undefined,
    };
    expect(servedKinds(source, () => undefined, noColumns).some((kind) => kind.kind === 'Deployment')).toBe(
      true,
    );
    answered = true;
    expect(servedKinds(source, () => undefined, noColumns).map((kind) => kind.kind)).toEqual(['Widget']);
  });

  it("accepts main/kube's Discovery as its source", () => {
    const adapt = (discovery: Discovery): KindSource => discovery;
    expect(adapt).toBeTypeOf('function');
  });
});
