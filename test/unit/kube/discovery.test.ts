import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../main/cache/fake-clock';
import type { ClusterConnection } from '../../../main/kube/cluster-connection';
import { Discovery } from '../../../main/kube/discovery';
import { ForbiddenError } from '../../../main/kube/errors';
import { Kubeconfig } from '../../../main/kube/kubeconfig';
import { RestClient } from '../../../main/kube/rest-client';
import { newStatus } from '../../../shared/kube/status';
import { kubeconfigYaml, sendJson, startServer } from './local-server';
import type { LocalServer } from './local-server';

let server: LocalServer | undefined;
let connection: ClusterConnection | undefined;
let discovery: Discovery | undefined;

afterEach(async () => {
  discovery?.stop();
  connection?.close();
  await server?.close();
  server = connection = discovery = undefined;
});

interface FakeApi {
  /** Requests by path (without query). */
  requests: Map<string, number>;
  /** Whether /apis/metrics.k8s.io/v1beta1 answers 503. */
  metricsDown: boolean;
  /** What a CRD LIST or WATCH gets: a 403, or the events a watch sends before staying open. */
  definitions: 'forbidden' | object[];
  /** Answer /api and /apis in aggregated form when asked (kube-apiserver since 1.26). */
  aggregated?: boolean;
  /** The Accept header of each /api and /apis request. */
  accepts?: string[];
  /** Every request answered 503, as by an API server still starting (or a proxy before it). */
  down?: boolean;
}

const v2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

const aggregatedResource = (
  resource: string,
  kind: string,
  scope = 'Namespaced',
  group = '',
  version = 'v1',
) => ({
  resource,
  responseKind: { group, version, kind },
  scope,
  singularResource: kind.toLowerCase(),
  verbs: ['list', 'watch'],
});

/** The fake's groups as kube-apiserver's aggregated /apis lists them (metrics Stale while it is down). */
function aggregatedGroups(api: FakeApi): object {
  const version = (name: string, resources: object[], freshness = 'Current') => ({
    version: name,
    resources,
    freshness,
  });
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: 'apidiscovery.k8s.io/v2',
    items: [
      {
        metadata: { name: 'apps' },
        versions: [version('v1', [aggregatedResource('deployments', 'Deployment', 'Namespaced', 'apps')])],
      },
      {
        metadata: { name: 'metrics.k8s.io' },
        versions: [
          version(
            'v1beta1',
            api.metricsDown
              ? []
              : [aggregatedResource('pods', 'PodMetrics', 'Namespaced', 'metrics.k8s.io', 'v1beta1')],
            api.metricsDown ? 'Stale' : 'Current',
          ),
        ],
      },
      {
        metadata: { name: 'apiextensions.k8s.io' },
        versions: [
          version('v1', [
            aggregatedResource(
              'customresourcedefinitions',
              'CustomResourceDefinition',
              'Cluster',
              'apiextensions.k8s.io',
            ),
            // No responseKind: client-go refuses it, and so does Discovery.
            { resource: 'kindless', scope: 'Cluster', singularResource: 'kindless', verbs: ['list'] },
          ]),
          version('v1beta1', [
            aggregatedResource(
              'customresourcedefinitions',
              'CustomResourceDefinition',
              'Cluster',
              'apiextensions.k8s.io',
              'v1beta1',
            ),
          ]),
        ],
      },
    ],
  };
}

const resource = (name: string, kind: string, namespaced = true) => ({
  name,
  kind,
  namespaced,
  singularName: '',
  verbs: ['list', 'watch'],
});

function fakeApi(api: FakeApi): (request: http.IncomingMessage, response: http.ServerResponse) => void {
  return (request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    api.requests.set(url.pathname, (api.requests.get(url.pathname) ?? 0) + 1);
    if (api.down) return sendJson(response, 503, newStatus(503, 'ServiceUnavailable', 'starting'));
    const aggregated = api.aggregated && request.headers.accept?.split(',')[0] === v2;
    if (url.pathname === '/api' || url.pathname === '/apis') api.accepts?.push(request.headers.accept ?? '');
    if (aggregated && url.pathname === '/api')
      return sendJson(response, 200, {
        kind: 'APIGroupDiscoveryList',
        apiVersion: 'apidiscovery.k8s.io/v2',
        items: [
          {
            metadata: {},
            versions: [
              {
                version: 'v1',
                resources: [
                  aggregatedResource('pods', 'Pod'),
                  aggregatedResource('nodes', 'Node', 'Cluster'),
                ],
              },
            ],
          },
        ],
      });
    if (aggregated && url.pathname === '/apis') return sendJson(response, 200, aggregatedGroups(api));
    switch (url.pathname) {
      case '/api':
        return sendJson(response, 200, { kind: 'APIVersions', versions: ['v1'] });
      case '/apis':
        return sendJson(response, 200, {
          kind: 'APIGroupList',
          groups: [
            { name: 'apps', versions: [{ version: 'v1' }], preferredVersion: { version: 'v1' } },
            {
              name: 'metrics.k8s.io',
              versions: [{ version: 'v1beta1' }],
              preferredVersion: { version: 'v1beta1' },
            },
            {
              name: 'apiextensions.k8s.io',
              versions: [{ version: 'v1' }],
              preferredVersion: { version: 'v1' },
            },
          ],
        });
      case '/api/v1':
        return sendJson(response, 200, {
          resources: [resource('pods', 'Pod'), resource('pods/log', 'Pod'), resource('nodes', 'Node', false)],
        });
      case '/apis/apps/v1':
        return sendJson(response, 200, { resources: [resource('deployments', 'Deployment')] });
      case '/apis/metrics.k8s.io/v1beta1':
        if (api.metricsDown)
          return sendJson(response, 503, newStatus(503, 'ServiceUnavailable', 'metrics-server is down'));
        return sendJson(response, 200, { resources: [resource('pods', 'PodMetrics')] });
      case '/apis/apiextensions.k8s.io/v1':
        return sendJson(response, 200, {
          resources: [resource('customresourcedefinitions', 'CustomResourceDefinition', false)],
        });
      case '/apis/apiextensions.k8s.io/v1/customresourcedefinitions':
        if (api.definitions === 'forbidden')
          return sendJson(response, 403, newStatus(403, 'Forbidden', 'no'));
        if (url.searchParams.get('watch') !== '1')
          return sendJson(response, 200, { metadata: { resourceVersion: '10' }, items: [] });
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.flushHeaders();
        for (const event of api.definitions) response.write(`${JSON.stringify(event)}\n`);
        return;
      default:
        sendJson(response, 404, newStatus(404, 'NotFound', url.pathname));
    }
  };
}

async function startDiscovery(api: FakeApi, clock = new FakeClock()): Promise<Discovery> {
  server = await startServer(fakeApi(api));
  connection = Kubeconfig.fromString(kubeconfigYaml(server.url)).connect();
  discovery = new Discovery(new RestClient(connection), { clock, rediscoverDelayMs: 500 });
  await discovery.start();
  return discovery;
}

async function until(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 400 && !condition(); attempt++)
    await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
}

const modified = (name: string, resourceVersion: string) => ({
  type: 'MODIFIED',
  object: { kind: 'PartialObjectMetadata', metadata: { name, resourceVersion } },
});

describe('Discovery', () => {
  it('lists every group version, leaving out subresources', async () => {
    const registry = await startDiscovery({ requests: new Map(), metricsDown: false, definitions: [] });
    expect(
      registry
        .resources()
        .map((entry) => `${entry.group}/${entry.version}/${entry.resource}`)
        .sort(),
    ).toEqual([
      '/v1/nodes',
      '/v1/pods',
      'apiextensions.k8s.io/v1/customresourcedefinitions',
      'apps/v1/deployments',
      'metrics.k8s.io/v1beta1/pods',
    ]);
    expect(registry.find('pods')?.group).toBe('');
    expect(registry.find('pods.metrics.k8s.io')?.kind).toBe('PodMetrics');
  });

  it('keeps the last result of a group version that fails, and names it', async () => {
    const api: FakeApi = { requests: new Map(), metricsDown: false, definitions: [] };
    const registry = await startDiscovery(api);
    api.metricsDown = true;
    await registry.refresh();
    expect(registry.find('pods.metrics.k8s.io')?.kind).toBe('PodMetrics');
    expect(registry.failedGroupVersions.get('metrics.k8s.io/v1beta1')?.message).toContain(
      'metrics-server is down',
    );
  });

  it('asks for aggregated discovery as client-go does, and makes no request per group version', async () => {
    const api: FakeApi = {
      requests: new Map(),
      metricsDown: false,
      definitions: [],
      aggregated: true,
      accepts: [],
    };
    const registry = await startDiscovery(api);
    expect(
      registry
        .resources()
        .map(
          (entry) =>
            `${entry.group}/${entry.version}/${entry.resource}${entry.preferred ? '' : ' (not preferred)'}`,
        )
        .sort(),
    ).toEqual([
      '/v1/nodes',
      '/v1/pods',
      'apiextensions.k8s.io/v1/customresourcedefinitions',
      'apiextensions.k8s.io/v1beta1/customresourcedefinitions (not preferred)',
      'apps/v1/deployments',
      'metrics.k8s.io/v1beta1/pods',
    ]);
    expect(registry.find('nodes')).toMatchObject({ kind: 'Node', namespaced: false, singularName: 'node' });
    expect(registry.find('customresourcedefinitions')?.version).toBe('v1');
    expect(api.accepts).toEqual([
      `${v2},application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json`,
      `${v2},application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json`,
    ]);
    const paths = [...api.requests.keys()].filter((path) => !path.includes('customresourcedefinitions'));
    expect(paths.sort()).toEqual(['/api', '/apis']);
  });

  it('fails a group version the aggregated document marks Stale, keeping its last result', async () => {
    const api: FakeApi = { requests: new Map(), metricsDown: false, definitions: [], aggregated: true };
    const registry = await startDiscovery(api);
    api.metricsDown = true;
    await registry.refresh();
    expect(registry.find('pods.metrics.k8s.io')?.kind).toBe('PodMetrics');
    expect(registry.failedGroupVersions.get('metrics.k8s.io/v1beta1')?.message).toContain('stale');
    api.metricsDown = false;
    await registry.refresh();
    expect(registry.failedGroupVersions.size).toBe(0);
  });

  it('rediscovers once, after the debounce delay, for a burst of CRD changes', async () => {
    const clock = new FakeClock();
    const api: FakeApi = {
      requests: new Map(),
      metricsDown: false,
      definitions: [
        modified('a.example.com', '11'),
        modified('b.example.com', '12'),
        modified('c.example.com', '13'),
      ],
    };
    await startDiscovery(api, clock);
    await until(() => clock.pendingDelays().includes(500));
    expect(api.requests.get('/apis')).toBe(1);
    clock.step(500);
    await until(() => api.requests.get('/apis') === 2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(api.requests.get('/apis')).toBe(2);
  });

  it('tries its first discovery again after a backoff until the server answers, then tells its listeners', async () => {
    const clock = new FakeClock();
    const api: FakeApi = { requests: new Map(), metricsDown: false, definitions: [], down: true };
    server = await startServer(fakeApi(api));
    connection = Kubeconfig.fromString(kubeconfigYaml(server.url)).connect();
    const registry = new Discovery(new RestClient(connection), { clock });
    discovery = registry;
    const failures: number[] = [];
    const changes: number[] = [];
    registry.onChange((change) => changes.push(change.added.length));
    const answered = registry.startUntilAnswered((_error, attempt) => failures.push(attempt));
    await until(() => failures.length === 1 && clock.pendingDelays().length > 0);
    expect(registry.answered).toBe(false);
    expect(registry.preferredResources()).toEqual([]);
    // The Reflector's first backoff: 800 ms, jittered up to 1,600.
    const [delay] = clock.pendingDelays();
    expect(delay).toBeGreaterThanOrEqual(800);
    expect(delay).toBeLessThan(1_600);
    clock.step(delay!);
    await until(() => failures.length === 2 && clock.pendingDelays().length > 0);
    api.down = false;
    clock.step(Math.max(...clock.pendingDelays()));
    expect(await answered).toBe(true);
    expect(registry.answered).toBe(true);
    expect(registry.find('deployments')?.kind).toBe('Deployment');
    expect(changes).toEqual([registry.resources().length]);
    expect(failures).toEqual([1, 2]);
  });

  it('gives up its retries when stopped', async () => {
    const clock = new FakeClock();
    const api: FakeApi = { requests: new Map(), metricsDown: false, definitions: [], down: true };
    server = await startServer(fakeApi(api));
    connection = Kubeconfig.fromString(kubeconfigYaml(server.url)).connect();
    const registry = new Discovery(new RestClient(connection), { clock });
    let failures = 0;
    const answered = registry.startUntilAnswered(() => failures++);
    await until(() => failures === 1 && clock.pendingDelays().length > 0);
    registry.stop();
    expect(await answered).toBe(false);
  });

  it('stops following CRDs it may not list, keeping the reason, without retrying', async () => {
    const api: FakeApi = { requests: new Map(), metricsDown: false, definitions: 'forbidden' };
    const registry = await startDiscovery(api);
    expect(registry.customResourceWatchError).toBeInstanceOf(ForbiddenError);
    expect(registry.find('deployments')?.kind).toBe('Deployment');
    expect(api.requests.get('/apis/apiextensions.k8s.io/v1/customresourcedefinitions')).toBe(1);
  });
});
