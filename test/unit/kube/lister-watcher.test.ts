import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClusterConnection } from '../../../main/kube/cluster-connection';
import { ApiStatusError, ForbiddenError } from '../../../main/kube/errors';
import { Kubeconfig } from '../../../main/kube/kubeconfig';
import { httpListerWatcher, metadataListerWatcher, resourcePath } from '../../../main/kube/lister-watcher';
import { RestClient } from '../../../main/kube/rest-client';
import type { WatchEvent } from '../../../shared/kube/object';
import { isResourceExpired, newStatus } from '../../../shared/kube/status';
import { kubeconfigYaml, rejectionOf, sendJson, startServer } from './local-server';
import type { Handler, LocalServer } from './local-server';

const pods = { group: '', version: 'v1', resource: 'pods' };
const deployments = { group: 'apps', version: 'v1', resource: 'deployments' };
const pod = (name: string, resourceVersion: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'payments', resourceVersion },
  spec: { nodeName: 'node-1' },
});
let server: LocalServer | undefined;
let connection: ClusterConnection | undefined;
const signal = new AbortController().signal;

afterEach(async () => {
  connection?.close();
  await server?.close();
  server = connection = undefined;
});

async function clientFor(handler: Handler) {
  server = await startServer(handler);
  connection = Kubeconfig.fromString(kubeconfigYaml(server.url)).connect();
  return new RestClient(connection);
}

function writeEvents(response: http.ServerResponse, events: object[]): void {
  response.writeHead(200, { 'Content-Type': 'application/json' });
  response.flushHeaders();
  for (const event of events) response.write(`${JSON.stringify(event)}\n`);
}

describe('resourcePath', () => {
  it('builds core, group, namespaced and all-namespace collection paths', () => {
    expect(resourcePath(pods)).toBe('/api/v1/pods');
    expect(resourcePath(pods, 'payments')).toBe('/api/v1/namespaces/payments/pods');
    expect(resourcePath(deployments, 'payments')).toBe('/apis/apps/v1/namespaces/payments/deployments');
    expect(resourcePath({ group: '', version: 'v1', resource: 'nodes' })).toBe('/api/v1/nodes');
  });
});

describe('httpListerWatcher', () => {
  it('sends every LIST option and the tweak, and returns the list as parsed', async () => {
    let url = '';
    const client = await clientFor((request, response) => {
      url = request.url ?? '';
      sendJson(response, 200, {
        kind: 'PodList',
        metadata: { resourceVersion: '7', continue: 'next' },
        items: [pod('a', '5')],
      });
    });
    const listerWatcher = httpListerWatcher(client, deployments, 'payments', (options) => {
      options.labelSelector = 'app=web';
    });
    const list = await listerWatcher.list(
      {
        limit: 2,
        continue: 'token',
        resourceVersion: '0',
        resourceVersionMatch: 'NotOlderThan',
        fieldSelector: 'status.phase=Running',
      },
      signal,
    );
    const query = new URL(url, 'http://x').searchParams;
    expect(url.startsWith('/apis/apps/v1/namespaces/payments/deployments?')).toBe(true);
    expect(Object.fromEntries(query)).toEqual({
      labelSelector: 'app=web',
      fieldSelector: 'status.phase=Running',
      resourceVersion: '0',
      resourceVersionMatch: 'NotOlderThan',
      limit: '2',
      continue: 'token',
    });
    expect(list.metadata).toEqual({ resourceVersion: '7', continue: 'next' });
    expect(list.items).toEqual([pod('a', '5')]);
  });

  it('watches with watch=1, bookmarks, timeout and initial events, and yields the events', async () => {
    let url = '';
    const client = await clientFor((request, response) => {
      url = request.url ?? '';
      writeEvents(response, [
        { type: 'ADDED', object: pod('a', '8') },
        {
          type: 'BOOKMARK',
          object: {
            kind: 'Pod',
            metadata: { resourceVersion: '9', annotations: { 'k8s.io/initial-events-end': 'true' } },
          },
        },
      ]);
      response.end();
    });
    const watcher = await httpListerWatcher(client, pods).watch(
      {
        resourceVersion: '7',
        allowWatchBookmarks: true,
        timeoutSeconds: 300,
        sendInitialEvents: true,
        resourceVersionMatch: 'NotOlderThan',
      },
      signal,
    );
    const events: WatchEvent[] = [];
    for await (const event of watcher) events.push(event);
    expect(Object.fromEntries(new URL(url, 'http://x').searchParams)).toEqual({
      watch: '1',
      resourceVersion: '7',
      resourceVersionMatch: 'NotOlderThan',
      timeoutSeconds: '300',
      allowWatchBookmarks: 'true',
      sendInitialEvents: 'true',
    });
    expect(events.map((event) => [event.type, event.object.metadata.resourceVersion])).toEqual([
      ['ADDED', '8'],
      ['BOOKMARK', '9'],
    ]);
  });

  it('rejects the watch with a StatusError when the server refuses it', async () => {
    const client = await clientFor((_request, response) =>
      sendJson(response, 410, newStatus(410, 'Gone', 'too old')),
    );
    const error = await rejectionOf<ApiStatusError>(
      httpListerWatcher(client, pods, 'payments').watch({ resourceVersion: '1' }, signal),
    );
    expect(isResourceExpired(error)).toBe(true);
    expect(error.message).toBe('410 watching pods in namespace payments: too old');
  });

  it('names verb, resource and namespace in a 403 on LIST', async () => {
    const client = await clientFor((_request, response) =>
      sendJson(response, 403, newStatus(403, 'Forbidden', 'no')),
    );
    const error = await rejectionOf<ApiStatusError>(
      httpListerWatcher(client, deployments, 'payments').list({}, signal),
    );
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error.message).toMatch(
      /^403 listing deployments.apps in namespace payments: your user lacks list permission/,
    );
  });

  it('throws an in-stream ERROR event as a StatusError carrying the request', async () => {
    const client = await clientFor((_request, response) => {
      writeEvents(response, [
        { type: 'ERROR', object: newStatus(410, 'Expired', 'too old resource version') },
      ]);
    });
    const watcher = await httpListerWatcher(client, pods).watch({ resourceVersion: '1' }, signal);
    const error = await rejectionOf<ApiStatusError>(
      (async () => {
        for await (const _event of watcher) throw new Error('no event expected');
      })(),
    );
    expect(error).toBeInstanceOf(ApiStatusError);
    expect(error.code).toBe(410);
    expect(error.message).toBe('410 watching pods: too old resource version');
  });

  it('ends the server-side request when the watcher stops', async () => {
    let closed!: Promise<void>;
    const client = await clientFor((request, response) => {
      closed = new Promise((resolve) => response.on('close', () => resolve()));
      writeEvents(response, [{ type: 'ADDED', object: pod('a', '2') }]);
    });
    const watcher = await httpListerWatcher(client, pods).watch({}, signal);
    const iterator = watcher[Symbol.asyncIterator]();
    await iterator.next();
    watcher.stop();
    await closed;
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('ends the server-side request when the watch signal aborts', async () => {
    let closed!: Promise<void>;
    const client = await clientFor((_request, response) => {
      closed = new Promise((resolve) => response.on('close', () => resolve()));
      writeEvents(response, []);
    });
    const controller = new AbortController();
    const watcher = await httpListerWatcher(client, pods).watch({}, controller.signal);
    controller.abort();
    await closed;
    expect(await watcher[Symbol.asyncIterator]().next()).toEqual({ done: true, value: undefined });
  });
});

describe('metadataListerWatcher', () => {
  it('asks for PartialObjectMetadataList and PartialObjectMetadata', async () => {
    const accepts: string[] = [];
    const client = await clientFor((request, response) => {
      accepts.push(request.headers.accept ?? '');
      if (request.url?.includes('watch=1')) {
        writeEvents(response, [
          { type: 'ADDED', object: { kind: 'PartialObjectMetadata', metadata: { name: 'a' } } },
        ]);
        response.end();
      } else {
        sendJson(response, 200, { kind: 'PartialObjectMetadataList', metadata: {}, items: [] });
      }
    });
    const listerWatcher = metadataListerWatcher(client, pods);
    await listerWatcher.list({}, signal);
    for await (const _event of await listerWatcher.watch({}, signal)) break;
    expect(accepts).toEqual([
      'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json',
      'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json',
    ]);
  });

  it('cuts full objects down to metadata when the server ignores the request', async () => {
    const client = await clientFor((request, response) => {
      if (request.url?.includes('watch=1')) {
        writeEvents(response, [{ type: 'MODIFIED', object: pod('b', '3') }]);
        response.end();
      } else {
        sendJson(response, 200, {
          kind: 'PodList',
          metadata: { resourceVersion: '2' },
          items: [pod('a', '2')],
        });
      }
    });
    const listerWatcher = metadataListerWatcher(client, pods);
    const list = await listerWatcher.list({}, signal);
    expect(list.items).toEqual([
      { apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata', metadata: pod('a', '2').metadata },
    ]);
    const events: WatchEvent[] = [];
    for await (const event of await listerWatcher.watch({}, signal)) events.push(event);
    expect(events).toEqual([
      {
        type: 'MODIFIED',
        object: {
          apiVersion: 'meta.k8s.io/v1',
          kind: 'PartialObjectMetadata',
          metadata: pod('b', '3').metadata,
        },
      },
    ]);
  });
});
