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

  it('stops following CRDs it may not list, keeping the reason, without retrying', async () => {
    const api: FakeApi = { requests: new Map(), metricsDown: false, definitions: 'forbidden' };
    const registry = await startDiscovery(api);
    expect(registry.customResourceWatchError).toBeInstanceOf(ForbiddenError);
    expect(registry.find('deployments')?.kind).toBe('Deployment');
    expect(api.requests.get('/apis/apiextensions.k8s.io/v1/customresourcedefinitions')).toBe(1);
  });
});
