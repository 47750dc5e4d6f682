// A tiny API-server stand-in for the kube client tests: loopback, ephemeral port, counts connections.
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

export type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => void;

export interface LocalServer {
  url: string;
  /** TCP connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

export async function startServer(handler: Handler, tls?: https.ServerOptions): Promise<LocalServer> {
  const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
  let connections = 0;
  server.on(tls ? 'secureConnection' : 'connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(response: http.ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  response.end(text);
}

/** A kubeconfig with one context `test` for `server`, with the given user and cluster fields. */
export function kubeconfigYaml(
  server: string,
  user: Record<string, unknown> = {},
  cluster: Record<string, unknown> = {},
  namespace = 'payments',
): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': 'test',
    clusters: [{ name: 'test-cluster', cluster: { server, ...cluster } }],
    users: [{ name: 'test-user', user }],
    contexts: [{ name: 'test', context: { cluster: 'test-cluster', user: 'test-user', namespace } }],
  });
}

/** The error `promise` rejects with (fails the test if it resolves), typed as the test expects. */
export async function rejectionOf<E = Error>(promise: Promise<unknown>): Promise<E> {
  try {
    await promise;
  } catch (error) {
    return error as E;
  }
  throw new Error('expected the promise to reject');
}
