// main/kube's transport against the embedded cluster over TLS: one HTTP/2 connection for every LIST
// and WATCH of a context, a second only past the server's stream limit, HTTP/1.1 where the server
// does not offer h2, and the HTTP/2 health check (on a fake clock) failing a blackholed connection's
// watches after read-idle + ping timeout while never failing a quiet healthy one.
import http2 from 'node:http2';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeClock } from '../../main/cache/fake-clock';
import type { Watcher } from '../../main/cache/lister-watcher';
import { ConnectionLostError, WatchInactivityError } from '../../main/kube/errors';
import { Kubeconfig } from '../../main/kube/kubeconfig';
import { httpListerWatcher } from '../../main/kube/lister-watcher';
import { RestClient } from '../../main/kube/rest-client';
import { servingCertificates } from '../../main/sim/certificates';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import type { EmbeddedCluster, EmbeddedClusterOptions } from '../../main/sim/embedded-cluster';
import type { KubeList, KubeObject } from '../../shared/kube/object';

const kinds = ['pods', 'services', 'configmaps', 'namespaces', 'secrets', 'nodes'];
let cleanup: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function harness(options: EmbeddedClusterOptions = {}) {
  const cluster = await startEmbeddedCluster({ tls: true, faultProxy: true, pods: 30, seed: 7, ...options });
  const clock = new FakeClock();
  const connection = Kubeconfig.fromString(cluster.kubeconfigYaml()).connect(undefined, {
    clock,
    health: { readIdleTimeoutMs: 30_000, pingTimeoutMs: 15_000 },
  });
  const client = new RestClient(connection);
  const controller = new AbortController();
  cleanup.push(async () => {
    controller.abort();
    connection.close();
    await cluster.close();
  });
  const list = (resource: string) =>
    client.list<KubeList>({
      path: `/api/v1/${resource}`,
      description: { verb: 'list', resource },
    });
  // The watch's own silence timer runs on the fake clock too: over h2 there must be none.
  const watch = (resource: string, resourceVersion: string) =>
    httpListerWatcher(client, { group: '', version: 'v1', resource }, '', undefined, { clock }).watch(
      { resourceVersion, allowWatchBookmarks: true },
      controller.signal,
    );
  return { cluster, clock, connection, client, list, watch };
}

/** Lets the real network answer the PING the fake clock just sent: its deadline timer goes away. */
async function pingAnswered(clock: FakeClock): Promise<void> {
  await vi.waitFor(() => expect(Math.max(...clock.pendingDelays())).toBeLessThanOrEqual(1_000));
}

/** A kubeconfig for a test server at `url` signed by `certificateAuthority`. */
function kubeconfigFor(url: string, certificateAuthority: string): Kubeconfig {
  return Kubeconfig.fromString(
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'c',
          cluster: {
            server: url,
            'certificate-authority-data': Buffer.from(certificateAuthority).toString('base64'),
          },
        },
      ],
      users: [{ name: 'u', user: { token: 't' } }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'x',
    }),
  );
}

async function nextEvent(watcher: Watcher<KubeObject>) {
  return watcher[Symbol.asyncIterator]().next();
}

describe('HTTP/2 to the embedded cluster', () => {
  it('carries a LIST and six WATCHes on one TCP connection', async () => {
    const { cluster, connection, list, watch } = await harness();
    const { metadata } = await list('pods');
    const watchers = await Promise.all(kinds.map((kind) => watch(kind, metadata.resourceVersion ?? '')));
    expect(connection.protocol).toBe('h2');
    expect(cluster.connections.accepted).toBe(1);
    expect(cluster.watches.size).toBe(kinds.length);
    for (const watcher of watchers) watcher.stop();
  });

  it("opens a second connection only past the server's SETTINGS_MAX_CONCURRENT_STREAMS", async () => {
    const { cluster, list, watch } = await harness({ http2MaxConcurrentStreams: 3 });
    const { metadata } = await list('pods');
    const rv = metadata.resourceVersion ?? '';
    for (const kind of kinds.slice(0, 3)) await watch(kind, rv);
    expect(cluster.connections.accepted).toBe(1);
    for (const kind of kinds.slice(3)) await watch(kind, rv);
    expect(cluster.connections.accepted).toBe(2);
    expect(cluster.watches.size).toBe(kinds.length);
  });

  it('fails every watch of a blackholed connection with ConnectionLostError after 30 s + 15 s, then reconnects', async () => {
    const { cluster, clock, list, watch } = await harness();
    const { metadata } = await list('pods');
    const watchers = await Promise.all(kinds.map((kind) => watch(kind, metadata.resourceVersion ?? '')));
    const outcomes = watchers.map((watcher) =>
      nextEvent(watcher).then(
        () => 'event',
        (error: unknown) => error,
      ),
    );
    expect(cluster.faults.blackholeConnections()).toBe(1);
    cluster.churn.step(20);
    await clock.stepAsync(44_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await Promise.race([outcomes[0], 'pending'])).toBe('pending');
    await clock.stepAsync(2_000);
    for (const outcome of await Promise.all(outcomes)) expect(outcome).toBeInstanceOf(ConnectionLostError);
    const relisted = await list('pods');
    expect(relisted.items.length).toBeGreaterThan(0);
    expect(cluster.connections.accepted).toBe(2);
  });

  it('resetConnections (resume from sleep) fails the watches at once and the next request reconnects', async () => {
    const { cluster, connection, list, watch } = await harness();
    const { metadata } = await list('pods');
    const watcher = await watch('configmaps', metadata.resourceVersion ?? '');
    const outcome = nextEvent(watcher).then(
      () => 'event',
      (error: unknown) => error,
    );
    connection.resetConnections('resumed from sleep');
    expect(await outcome).toBeInstanceOf(ConnectionLostError);
    await list('pods');
    expect(cluster.connections.accepted).toBe(2);
  });

  it('never fails a quiet healthy connection: ten silent minutes of answered PINGs, then events flow', async () => {
    const { cluster, clock, list, watch } = await harness({ simulate: false });
    const { metadata } = await list('configmaps');
    const watcher = await watch('configmaps', metadata.resourceVersion ?? '');
    let failure: unknown;
    const next = nextEvent(watcher).catch((error: unknown) => (failure = error));
    // Steps shorter than the ping timeout, each followed by the real network's answer to any PING.
    for (let second = 0; second < 600; second += 5) {
      await clock.stepAsync(5_000);
      await pingAnswered(clock);
    }
    expect(failure).toBeUndefined();
    cluster.storage.create(cluster.resource('configmaps'), 'default', {
      metadata: { name: 'after-the-quiet' },
    });
    const result = await next;
    expect((result as IteratorResult<KubeObject>).value?.object.metadata.name).toBe('after-the-quiet');
    expect(cluster.connections.accepted).toBe(1);
  });
});

describe('GOAWAY', () => {
  it('lets the stream in flight finish, and sends new requests over a new connection', async () => {
    const certificates = await servingCertificates();
    const server = http2.createSecureServer({ key: certificates.privateKey, cert: certificates.certificate });
    let sessions = 0;
    server.on('session', () => sessions++);
    server.on('stream', (stream, headers) => {
      stream.respond({ ':status': 200, 'content-type': 'application/json' });
      if (headers[':path'] !== '/slow') return void stream.end('{"kind":"Status"}');
      // The server says goodbye mid-reply, then finishes the stream it had accepted.
      stream.write('{"kind":');
      stream.session?.goaway();
      setTimeout(() => stream.end('"Status"}'), 50);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const connection = kubeconfigFor(
      `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
      certificates.certificateAuthority,
    ).connect();
    cleanup.push(async () => {
      connection.close();
      await new Promise((resolve) => server.close(resolve));
    });
    const client = new RestClient(connection);
    const get = (path: string) =>
      client.json<{ kind: string }>({ path, description: { verb: 'get', resource: 'status' } });
    expect(await get('/slow')).toEqual({ kind: 'Status' });
    expect(await get('/fast')).toEqual({ kind: 'Status' });
    expect(sessions).toBe(2);
  });
});

describe('HTTP/1.1 fallback', () => {
  it('speaks HTTP/1.1, a socket per watch, to a plain http:// cluster', async () => {
    const cluster: EmbeddedCluster = await startEmbeddedCluster({ seed: 3 });
    const connection = Kubeconfig.fromString(cluster.kubeconfigYaml()).connect();
    cleanup.push(async () => {
      connection.close();
      await cluster.close();
    });
    const client = new RestClient(connection);
    const controller = new AbortController();
    cleanup.push(async () => controller.abort());
    const { metadata } = await client.list<KubeList>({
      path: '/api/v1/namespaces',
      description: { verb: 'list', resource: 'namespaces' },
    });
    for (const kind of kinds.slice(0, 3))
      await httpListerWatcher(client, { group: '', version: 'v1', resource: kind }).watch(
        { resourceVersion: metadata.resourceVersion },
        controller.signal,
      );
    expect(connection.protocol).toBe('http/1.1');
    expect(cluster.connections.accepted).toBe(3);
  });

  it('fails a silent HTTP/1.1 watch after 150 s (two missed bookmarks), not at the 60 s cadence', async () => {
    const cluster: EmbeddedCluster = await startEmbeddedCluster({ seed: 3, simulate: false });
    const connection = Kubeconfig.fromString(cluster.kubeconfigYaml()).connect();
    const controller = new AbortController();
    cleanup.push(async () => {
      controller.abort();
      connection.close();
      await cluster.close();
    });
    const clock = new FakeClock();
    const watcher = await httpListerWatcher(
      new RestClient(connection),
      { group: '', version: 'v1', resource: 'configmaps' },
      '',
      undefined,
      { clock },
    ).watch({ resourceVersion: String(cluster.store.resourceVersion) }, controller.signal);
    let failure: unknown;
    void nextEvent(watcher).catch((error: unknown) => (failure = error));
    await clock.stepAsync(149_000);
    expect(failure).toBeUndefined();
    await clock.stepAsync(1_000);
    expect(failure).toBeInstanceOf(WatchInactivityError);
  });

  it('speaks HTTP/1.1 over TLS when ALPN does not pick h2', async () => {
    const certificates = await servingCertificates();
    const server = https.createServer(
      { key: certificates.privateKey, cert: certificates.certificate },
      (request, response) => {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end(
          JSON.stringify({
            kind: 'Status',
            alpn: (request.socket as { alpnProtocol?: unknown }).alpnProtocol,
          }),
        );
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const kubeconfig = kubeconfigFor(url, certificates.certificateAuthority);
    const connection = kubeconfig.connect();
    cleanup.push(async () => {
      connection.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });
    const reply = await new RestClient(connection).json<{ alpn: unknown }>({
      path: '/version',
      description: { verb: 'get', resource: 'version' },
    });
    expect(connection.protocol).toBe('http/1.1');
    expect(reply.alpn).toBe(false);
  });
});
