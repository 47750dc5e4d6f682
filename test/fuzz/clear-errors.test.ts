// Bad input that is not random: a kubeconfig that cannot be used, a user the server refuses, a kind the
// server does not serve, an object over etcd's 1.5 MiB. Each must reach the user as a specific error
// (which file, which context, which kind, which status), or, for the large object, simply work.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BridgeHost } from '../../main/bridge/bridge-host';
import { ClusterSession } from '../../main/bridge/cluster-session';
import { createInMemoryTransportPair } from '../../main/bridge/in-memory-transport';
import type { ListerWatcherFactory } from '../../main/cache/informer-factory';
import { realClock } from '../../main/cache/real-clock';
import { Kubeconfig } from '../../main/kube/kubeconfig';
import { httpListerWatcherFactory } from '../../main/kube/lister-watcher';
import { RestClient } from '../../main/kube/rest-client';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import { newStatus } from '../../shared/kube/status';
import { BridgeClient } from '../../renderer/transport/bridge-client';
import type { BridgeLink } from '../../renderer/transport/bridge-link';
import { ManualFrameScheduler } from '../../renderer/store/frame-scheduler';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A ClusterSession over `newListerWatcher` and a renderer client connected to it in memory. */
async function connectRenderer(newListerWatcher: ListerWatcherFactory): Promise<BridgeClient> {
  const session = new ClusterSession({
    context: 'errors',
    newListerWatcher,
    clock: realClock,
    log: () => undefined,
    reflector: { log: () => undefined, backoff: () => 200 },
  });
  const host = new BridgeHost({
    session,
    listContexts: () => [{ name: 'errors', cluster: 'errors' }],
    openSession: async () => session,
    log: () => undefined,
  });
  const scheduler = new ManualFrameScheduler();
  const client = new BridgeClient({
    scheduler,
    open: async () => {
      const pair = createInMemoryTransportPair('errors');
      host.accept(pair.server);
      return pair.client as unknown as BridgeLink;
    },
  });
  const frames = setInterval(() => scheduler.runFrame(), 10);
  cleanups.push(async () => {
    clearInterval(frames);
    client.close();
    await host.close();
  });
  client.start();
  await expect.poll(() => client.state.getState().connection.phase).toBe('open');
  return client;
}

function kubeconfigFor(server: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    `clusters: [{name: c, cluster: {server: "${server}"}}]`,
    'users: [{name: u, user: {token: expired-token}}]',
    'contexts: [{name: ctx, context: {cluster: c, user: u}}]',
    'current-context: ctx',
  ].join('\n');
}

describe('clear, specific errors', () => {
  it('a kubeconfig that is not YAML names its source and the place', () => {
    expect(() => Kubeconfig.fromString('clusters: [oops', 'my-kubeconfig.yaml')).toThrow(
      /my-kubeconfig\.yaml.*malformed/,
    );
  });

  it('a context that does not exist is named, with the contexts that do', () => {
    const kubeconfig = Kubeconfig.fromString(kubeconfigFor('http://127.0.0.1:1'), 'test');
    expect(() => kubeconfig.connect('staging')).toThrow(/context "staging" not found.*ctx/);
  });

  it('a missing kubeconfig file is named with the reason', () => {
    expect(() => Kubeconfig.fromFiles(['/nonexistent/kubetide/config'])).toThrow(
      /\/nonexistent\/kubetide\/config.*ENOENT/,
    );
  });

  it('a user the server refuses shows as an error with 401 for the subscribed kind', async () => {
    const server = http.createServer((request, response) => {
      request.resume();
      const body = JSON.stringify(newStatus(401, 'Unauthorized', 'Unauthorized'));
      response.writeHead(401, { 'Content-Type': 'application/json' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = new RestClient(Kubeconfig.fromString(kubeconfigFor(url)).connect());
    const renderer = await connectRenderer(httpListerWatcherFactory(client));
    const subscription = await renderer.subscribe({ group: '', version: 'v1', resource: 'pods' });
    await expect.poll(() => renderer.state.getState().syncStates[subscription]?.phase).toBe('error');
    const error = renderer.state.getState().syncStates[subscription]!.error!;
    expect(error.code).toBe(401);
    expect(error.message).toMatch(/pods/);
  });

  it('a kind the server does not serve shows as an error with 404 naming the kind', async () => {
    const cluster = await startEmbeddedCluster({ seed: 3, simulate: false });
    cleanups.push(() => cluster.close());
    const client = new RestClient(Kubeconfig.fromString(cluster.kubeconfigYaml()).connect());
    const renderer = await connectRenderer(httpListerWatcherFactory(client));
    const subscription = await renderer.subscribe({
      group: 'example.com',
      version: 'v1',
      resource: 'gizmos',
    });
    await expect.poll(() => renderer.state.getState().syncStates[subscription]?.phase).toBe('error');
    const error = renderer.state.getState().syncStates[subscription]!.error!;
    expect(error.code).toBe(404);
    expect(error.message).toMatch(/gizmos\.example\.com/);
  });

  it('an object over 1.5 MiB is mirrored as a row and fetched whole for the detail pane', async () => {
    const cluster = await startEmbeddedCluster({ seed: 4, simulate: false });
    cleanups.push(() => cluster.close());
    const payload = 'x'.repeat(1.6 * 1024 * 1024);
    cluster.storage.create(cluster.resource('configmaps'), 'default', {
      metadata: { name: 'large', namespace: 'default' },
      data: { payload },
    });
    const client = new RestClient(Kubeconfig.fromString(cluster.kubeconfigYaml()).connect());
    const renderer = await connectRenderer(httpListerWatcherFactory(client));
    const configmaps = { group: '', version: 'v1', resource: 'configmaps' };
    const subscription = await renderer.subscribe(configmaps);
    await expect.poll(() => renderer.store.mirror(subscription)?.rows.has('default/large')).toBe(true);
    expect(
      JSON.stringify(renderer.store.mirror(subscription)!.rows.get('default/large')).length,
    ).toBeLessThan(4096);
    const object = await renderer.getObject(configmaps, 'default', 'large');
    expect((object.data as { payload: string }).payload).toHaveLength(payload.length);
  });
});
