import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClusterConnection } from '../../../main/kube/cluster-connection';
import {
  ApiStatusError,
  ForbiddenError,
  ServerUnreachableError,
  UnauthorizedError,
} from '../../../main/kube/errors';
import { Kubeconfig } from '../../../main/kube/kubeconfig';
import { RestClient } from '../../../main/kube/rest-client';
import { StatusError, isConnectionRefused, isTooManyRequests, newStatus } from '../../../shared/kube/status';
import { kubeconfigYaml, rejectionOf, sendJson, startServer } from './local-server';
import type { Handler, LocalServer } from './local-server';

const listPods = { verb: 'list', resource: 'pods', namespace: 'payments' };
let server: LocalServer | undefined;
let connection: ClusterConnection | undefined;

afterEach(async () => {
  connection?.close();
  await server?.close();
  server = undefined;
  connection = undefined;
});

async function clientFor(handler: Handler, user: Record<string, unknown> = { token: 'secret-token' }) {
  server = await startServer(handler);
  connection = Kubeconfig.fromString(kubeconfigYaml(server.url, user)).connect();
  return new RestClient(connection);
}

describe('RestClient', () => {
  it('reuses one keep-alive connection for sequential requests', async () => {
    const client = await clientFor((_request, response) => sendJson(response, 200, { items: [] }));
    for (let index = 0; index < 10; index++) {
      await client.json({ path: '/api/v1/namespaces/payments/pods', description: listPods });
    }
    expect(server?.connections()).toBe(1);
  });

  it('sends the bearer token, Accept and a User-Agent, and encodes the query', async () => {
    let seen: { url?: string; headers?: Record<string, unknown> } = {};
    const client = await clientFor((request, response) => {
      seen = { url: request.url, headers: request.headers };
      sendJson(response, 200, {});
    });
    await client.json({
      path: '/api/v1/pods',
      query: { labelSelector: 'app in (a,b)', limit: 5, continue: undefined },
      description: listPods,
    });
    expect(seen.url).toBe('/api/v1/pods?labelSelector=app+in+%28a%2Cb%29&limit=5');
    expect(seen.headers?.authorization).toBe('Bearer secret-token');
    expect(seen.headers?.accept).toBe('application/json');
    expect(seen.headers?.['user-agent']).toMatch(/^kubetide/);
  });

  it('parses a gzip-encoded reply', async () => {
    const items = Array.from({ length: 200 }, (_, index) => ({ metadata: { name: `pod-${index}` } }));
    const client = await clientFor((request, response) => {
      expect(request.headers['accept-encoding']).toBe('gzip');
      response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
      response.end(gzipSync(JSON.stringify({ items })));
    });
    const list = await client.json<{ items: unknown[] }>({ path: '/api/v1/pods', description: listPods });
    expect(list.items).toEqual(items);
  });

  it('decodes a LIST reply as it arrives, gzip-encoded or not, item by item', async () => {
    const items = Array.from({ length: 2_000 }, (_, index) => ({ metadata: { name: `pod-${index}` } }));
    const body = JSON.stringify({ kind: 'PodList', metadata: { resourceVersion: '9' }, items });
    for (const gzip of [false, true]) {
      const client = await clientFor((_request, response) => {
        response.writeHead(200, {
          'Content-Type': 'application/json',
          ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
        });
        // Written in small pieces so that items straddle chunk boundaries.
        const bytes = gzip ? gzipSync(body) : Buffer.from(body);
        for (let start = 0; start < bytes.length; start += 1_000)
          response.write(bytes.subarray(start, start + 1_000));
        response.end();
      });
      const list = await client.list<{ items: unknown[] }>({ path: '/api/v1/pods', description: listPods });
      expect(list).toEqual(JSON.parse(body));
    }
  });

  it('names the request when a LIST reply is not JSON', async () => {
    const client = await clientFor((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end('{"items":[{"metadata":{}} {"metadata":{}}]}');
    });
    await expect(client.list({ path: '/api/v1/pods', description: listPods })).rejects.toThrow(
      /GET \/api\/v1\/pods .*: the reply is not JSON/,
    );
  });

  it('turns a Status reply into a StatusError with its code and reason and the request in the message', async () => {
    const client = await clientFor((_request, response) =>
      sendJson(response, 410, newStatus(410, 'Expired', 'The provided continue parameter is too old')),
    );
    const error = await rejectionOf<ApiStatusError>(
      client.json({ path: '/api/v1/pods', description: listPods }),
    );
    expect(error).toBeInstanceOf(ApiStatusError);
    expect(error).toBeInstanceOf(StatusError);
    expect(error.code).toBe(410);
    expect(error.reason).toBe('Expired');
    expect(error.message).toBe(
      '410 listing pods in namespace payments: The provided continue parameter is too old',
    );
  });

  it('synthesizes a Status from the HTTP status when the body is not one', async () => {
    const client = await clientFor((_request, response) => {
      response.writeHead(502, { 'Content-Type': 'text/html' });
      response.end('<html>Bad Gateway</html>');
    });
    const error = await rejectionOf<ApiStatusError>(
      client.json({ path: '/api/v1/pods', description: listPods }),
    );
    expect(error.code).toBe(502);
    expect(error.reason).toBe('InternalError');
    expect(error.message).toContain('Bad Gateway');
  });

  it('keeps Retry-After of a 429 in the Status details', async () => {
    const client = await clientFor((_request, response) => {
      response.writeHead(429, { 'Retry-After': '3' });
      response.end('slow down');
    });
    const error = await rejectionOf<ApiStatusError>(
      client.json({ path: '/api/v1/pods', description: listPods }),
    );
    expect(isTooManyRequests(error)).toBe(true);
    expect(error.status.details?.retryAfterSeconds).toBe(3);
  });

  it('says which verb and resource a 403 forbids', async () => {
    const client = await clientFor((_request, response) =>
      sendJson(
        response,
        403,
        newStatus(403, 'Forbidden', 'secrets is forbidden: User "dev" cannot list resource "secrets"'),
      ),
    );
    const error = await rejectionOf<ApiStatusError>(
      client.json({
        path: '/api/v1/namespaces/payments/secrets',
        description: { verb: 'list', resource: 'secrets', namespace: 'payments' },
      }),
    );
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error.code).toBe(403);
    expect(error.message).toMatch(
      /^403 listing secrets in namespace payments: your user lacks list permission on secrets in namespace payments/,
    );
  });

  it('says which request a 401 rejected and does not retry static credentials', async () => {
    let requests = 0;
    const client = await clientFor((_request, response) => {
      requests++;
      sendJson(response, 401, newStatus(401, 'Unauthorized', 'Unauthorized'));
    });
    const error = await rejectionOf<ApiStatusError>(
      client.json({ path: '/api/v1/nodes', description: { verb: 'watch', resource: 'nodes' } }),
    );
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error.message).toMatch(/^401 watching nodes: the server rejected your credentials/);
    expect(requests).toBe(1);
  });

  it('ends a request at once when its signal aborts', async () => {
    let closed!: Promise<void>;
    const client = await clientFor((request) => {
      closed = new Promise((resolve) => request.socket.on('close', () => resolve()));
    });
    const controller = new AbortController();
    const pending = client.json({ path: '/api/v1/pods', description: listPods, signal: controller.signal });
    while (!closed) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(new Error('user switched context'));
    await expect(pending).rejects.toThrow('user switched context');
    await closed;
  });

  it('names the server when it cannot be reached, and keeps the refused-connection code', async () => {
    const unused = await startServer(() => undefined);
    const url = unused.url;
    await unused.close();
    connection = Kubeconfig.fromString(kubeconfigYaml(url)).connect();
    const error = await rejectionOf<ApiStatusError>(
      new RestClient(connection).json({ path: '/api/v1/pods', description: listPods }),
    );
    expect(error).toBeInstanceOf(ServerUnreachableError);
    expect(error.message).toContain(url);
    expect(error.message).toContain('connection refused');
    expect(isConnectionRefused(error)).toBe(true);
  });
});
