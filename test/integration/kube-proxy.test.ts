// Requests to a cluster through a proxy, as client-go sends them: the kubeconfig cluster's proxy-url
// (http, https, socks5) or the environment's HTTPS_PROXY / HTTP_PROXY / NO_PROXY. The cluster is named
// by a host only the proxies can resolve (kubernetes.proxy-test), so nothing reaches it directly; its
// certificate is checked under tls-server-name. Lists and watches go through each proxy over HTTP/2
// and HTTP/1.1, and a proxy's refusals read as the proxy's, not the server's. kubectl goes through the
// same proxies with the same kubeconfig, so they are proxies as real clients know them.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parse, stringify } from 'yaml';
import { FakeClock } from '../../main/cache/fake-clock';
import { realClock } from '../../main/cache/real-clock';
import { ServerUnreachableError } from '../../main/kube/errors';
import { Kubeconfig } from '../../main/kube/kubeconfig';
import { httpListerWatcher } from '../../main/kube/lister-watcher';
import { ProxyConfigurationError } from '../../main/kube/proxy-selection';
import type { ProxyEnvironment } from '../../main/kube/proxy-selection';
import { RestClient } from '../../main/kube/rest-client';
import { servingCertificates } from '../../main/sim/certificates';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import type { KubeList } from '../../shared/kube/object';
import { startHttpProxy, startSocksProxy } from '../support/test-proxies';
import type { TestProxy, TestProxyOptions } from '../support/test-proxies';

const run = promisify(execFile);
const proxiedHost = 'kubernetes.proxy-test';
const resolve = (host: string) => (host === proxiedHost ? '127.0.0.1' : host);
let cleanup: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
  delete process.env.DISABLE_HTTP2;
});

async function cluster(tls = true): Promise<EmbeddedCluster> {
  const started = await startEmbeddedCluster({ tls, pods: 20, seed: 11 });
  cleanup.push(() => started.close());
  return started;
}

async function proxy(kind: 'http' | 'https' | 'socks5', options: TestProxyOptions = {}): Promise<TestProxy> {
  const tls =
    kind === 'https'
      ? await servingCertificates().then(({ certificate, privateKey }) => ({ certificate, privateKey }))
      : undefined;
  const started =
    kind === 'socks5'
      ? await startSocksProxy({ resolve, ...options })
      : await startHttpProxy({ resolve, ...options, ...(tls ? { tls } : {}) });
  cleanup.push(() => started.close());
  return started;
}

/**
 * A TCP server that accepts and never answers: it reads what it is sent (so it sees the client
 * leave) and holds every connection, closed after the test.
 */
async function silentServer(): Promise<{ port: number; held: net.Socket[] }> {
  const silent = net.createServer(() => undefined);
  await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
  const held: net.Socket[] = [];
  silent.on('connection', (socket) => held.push(socket.resume()));
  cleanup.push(() => {
    for (const socket of held) socket.destroy();
    return new Promise<void>((done) => silent.close(() => done()));
  });
  return { port: (silent.address() as net.AddressInfo).port, held };
}

/**
 * Once the silent server holds the request's connection, steps `clock` to 1 ms short of the 30 s
 * dial deadline (the connection still open), then onto it: the request fails as a timeout.
 */
async function expectDialTimeout(
  clock: FakeClock,
  held: net.Socket[],
  outcome: Promise<string>,
): Promise<void> {
  await vi.waitFor(() => expect(held.length).toBe(1));
  clock.step(29_999);
  await new Promise((done) => setTimeout(done, 50));
  expect(held[0]!.destroyed).toBe(false);
  clock.step(1);
  expect(await outcome).toMatch(/cannot reach .* \(connection timed out\)|no connection within 30 s/);
}

/** The cluster's kubeconfig with its server named by the proxied host, and `proxyUrl` if given. */
function kubeconfigText(target: EmbeddedCluster, proxyUrl?: string): string {
  const config = parse(target.kubeconfigYaml()) as {
    clusters: { cluster: Record<string, string> }[];
  };
  const entry = config.clusters[0]!.cluster;
  const server = new URL(entry.server!);
  server.hostname = proxiedHost;
  entry.server = server.toString().replace(/\/$/, '');
  if (server.protocol === 'https:') entry['tls-server-name'] = 'localhost';
  if (proxyUrl) entry['proxy-url'] = proxyUrl;
  return stringify(config);
}

function client(text: string, proxyEnvironment: ProxyEnvironment = {}) {
  const connection = Kubeconfig.fromString(text).connect(undefined, { proxyEnvironment });
  cleanup.push(() => connection.close());
  const rest = new RestClient(connection);
  const controller = new AbortController();
  cleanup.push(() => controller.abort());
  return {
    connection,
    list: (resource: string) =>
      rest.list<KubeList>({ path: `/api/v1/${resource}`, description: { verb: 'list', resource } }),
    watch: (resource: string, resourceVersion: string) =>
      httpListerWatcher(rest, { group: '', version: 'v1', resource }, '', undefined, {
        clock: realClock,
      }).watch({ resourceVersion, allowWatchBookmarks: true }, controller.signal),
  };
}

/** Lists pods, then watches them until the cluster's next change arrives: both through the proxy. */
async function listAndWatch(target: EmbeddedCluster, kube: ReturnType<typeof client>): Promise<void> {
  const pods = await kube.list('pods');
  expect(pods.items.length).toBeGreaterThanOrEqual(20);
  const watcher = await kube.watch('pods', pods.metadata.resourceVersion!);
  const first = (async () => {
    for await (const event of watcher) if (event.type !== 'BOOKMARK') return event.type;
    return 'ended';
  })();
  target.churn.step(5);
  await expect(first).resolves.toMatch(/^(ADDED|MODIFIED|DELETED)$/);
  watcher.stop();
}

describe('proxy-url', () => {
  for (const kind of ['http', 'https', 'socks5'] as const) {
    for (const protocol of ['h2', 'http/1.1'] as const) {
      it(`lists and watches through an ${kind} proxy over ${protocol}`, async () => {
        if (protocol === 'http/1.1') process.env.DISABLE_HTTP2 = '1';
        const target = await cluster();
        const through = await proxy(kind, { credentials: { username: 'ada', password: 'p@ss:word' } });
        const url = new URL(through.url);
        url.username = 'ada';
        url.password = encodeURIComponent('p@ss:word');
        const kube = client(kubeconfigText(target, url.toString()));
        await listAndWatch(target, kube);
        expect(kube.connection.protocol).toBe(protocol);
        const port = new URL(target.url).port;
        const asked =
          kind === 'socks5' ? `SOCKS ${proxiedHost}:${port} (domain)` : `CONNECT ${proxiedHost}:${port}`;
        expect(through.requests).toContain(asked);
        // Every request went through the proxy: the server's name resolves nowhere else.
        expect(through.requests.every((request) => request === asked)).toBe(true);
      });
    }
  }

  it('asks an HTTP proxy for a plain http:// server in absolute form', async () => {
    const target = await cluster(false);
    const through = await proxy('http');
    const kube = client(kubeconfigText(target, through.url));
    await listAndWatch(target, kube);
    const port = new URL(target.url).port;
    expect(through.requests).toContain(`GET http://${proxiedHost}:${port}/api/v1/pods`);
    expect(through.requests.some((request) => request.startsWith('CONNECT'))).toBe(false);
  });

  it('says a proxy asks for credentials, or refused the ones given, and never shows them', async () => {
    const target = await cluster();
    const through = await proxy('http', { credentials: { username: 'ada', password: 'secret' } });
    const missing = client(kubeconfigText(target, through.url)).list('pods');
    await expect(missing).rejects.toBeInstanceOf(ServerUnreachableError);
    await expect(missing).rejects.toThrow(
      `the proxy ${through.url} would not connect to ${proxiedHost}:${new URL(target.url).port} (407 Proxy Authentication Required): it asks for credentials`,
    );
    const wrong = new URL(through.url);
    wrong.username = 'ada';
    wrong.password = 'guess';
    const refused = client(kubeconfigText(target, wrong.toString())).list('pods');
    await expect(refused).rejects.toThrow('it did not accept the credentials in the proxy URL');
    await expect(refused).rejects.not.toThrow('guess');
  });

  it('says the proxy cannot be reached, not the API server', async () => {
    const target = await cluster();
    const closed = await freePort();
    const attempt = client(kubeconfigText(target, `socks5://127.0.0.1:${closed}`)).list('pods');
    await expect(attempt).rejects.toThrow(
      `cannot reach the proxy socks5://127.0.0.1:${closed} (connect ECONNREFUSED`,
    );
    await expect(attempt).rejects.not.toThrow('is the API server running');
  });

  for (const protocol of ['h2', 'http/1.1'] as const) {
    it(`fails a request after the 30 s dial timeout when the proxy accepts and never answers (${protocol})`, async () => {
      if (protocol === 'http/1.1') process.env.DISABLE_HTTP2 = '1';
      const target = await cluster();
      const { port, held } = await silentServer();
      const clock = new FakeClock();
      const connection = Kubeconfig.fromString(kubeconfigText(target, `http://127.0.0.1:${port}`)).connect(
        undefined,
        {
          clock,
        },
      );
      cleanup.push(() => connection.close());
      const listing = new RestClient(connection, { clock }).list<KubeList>({
        path: '/api/v1/pods',
        description: { verb: 'list', resource: 'pods' },
      });
      const outcome = listing.then(
        () => 'listed',
        (error: Error) => error.message,
      );
      await expectDialTimeout(clock, held, outcome);
      await vi.waitFor(() => expect(held[0]!.destroyed).toBe(true));
    });
  }

  for (const protocol of ['h2', 'http/1.1'] as const) {
    it(`counts the TLS handshake inside the tunnel in the 30 s dial timeout (${protocol})`, async () => {
      if (protocol === 'http/1.1') process.env.DISABLE_HTTP2 = '1';
      const target = await cluster();
      // The proxy tunnels to a server that accepts TCP and never answers the handshake.
      const { port: silentPort, held } = await silentServer();
      const tunnel = await proxy('http');
      const config = parse(kubeconfigText(target, tunnel.url)) as {
        clusters: { cluster: { server: string } }[];
      };
      config.clusters[0]!.cluster.server = `https://${proxiedHost}:${silentPort}`;
      const clock = new FakeClock();
      const connection = Kubeconfig.fromString(stringify(config)).connect(undefined, { clock });
      cleanup.push(() => connection.close());
      const outcome = new RestClient(connection, { clock })
        .list<KubeList>({ path: '/api/v1/pods', description: { verb: 'list', resource: 'pods' } })
        .then(
          () => 'listed',
          (error: Error) => error.message,
        );
      await expectDialTimeout(clock, held, outcome);
      await vi.waitFor(() => expect(tunnel.openConnections()).toBe(0));
    });
  }

  it('refuses a proxy-url scheme client-go refuses', async () => {
    const target = await cluster();
    expect(() => client(kubeconfigText(target, 'socks4://127.0.0.1:1080'))).toThrow(ProxyConfigurationError);
    expect(() => client(kubeconfigText(target, 'socks4://127.0.0.1:1080'))).toThrow(
      'unsupported scheme "socks4", must be http, https, or socks5',
    );
  });
});

describe('the environment', () => {
  it('goes through HTTPS_PROXY, and directly to a host NO_PROXY names', async () => {
    const target = await cluster();
    const through = await proxy('http');
    await listAndWatch(target, client(kubeconfigText(target), { HTTPS_PROXY: through.url }));
    expect(through.requests.length).toBeGreaterThan(0);
    const direct = client(kubeconfigText(target), { HTTPS_PROXY: through.url, NO_PROXY: '.proxy-test' });
    // Directly, the proxied name resolves nowhere: a DNS failure, the proxy never asked.
    const asked = through.requests.length;
    await expect(direct.list('pods')).rejects.toThrow('DNS lookup failed');
    expect(through.requests.length).toBe(asked);
  });
});

describe('kubectl through the same proxies', () => {
  for (const kind of ['http', 'socks5'] as const) {
    it(`gets pods through the ${kind} proxy with the same kubeconfig`, async () => {
      const target = await cluster();
      const through = await proxy(kind);
      const directory = mkdtempSync(join(tmpdir(), 'kubectl-proxy-'));
      cleanup.push(() => rmSync(directory, { recursive: true, force: true }));
      writeFileSync(join(directory, 'kubeconfig'), kubeconfigText(target, through.url));
      const { stdout } = await run('kubectl', ['get', 'pods', '-A', '--no-headers'], {
        env: {
          ...process.env,
          KUBECONFIG: join(directory, 'kubeconfig'),
          KUBECACHEDIR: join(directory, 'cache'),
        },
        timeout: 20_000,
      });
      expect(stdout.trim().split('\n').length).toBeGreaterThanOrEqual(20);
      expect(through.requests.length).toBeGreaterThan(0);
    });
  }
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}
