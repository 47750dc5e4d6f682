// The HTTP/2 health check at client-go's real values (30 s read-idle, 15 s ping timeout, real
// clock): a watch whose connection the network blackholes for ever fails with ConnectionLostError
// within 45-50 s, and the next requests are served on a new connection. About 50 s long.
import { afterEach, expect, it } from 'vitest';
import { ConnectionLostError } from '../../main/kube/errors';
import { http2HealthSettings } from '../../main/kube/http2-health-check';
import { Kubeconfig } from '../../main/kube/kubeconfig';
import { httpListerWatcher } from '../../main/kube/lister-watcher';
import { RestClient } from '../../main/kube/rest-client';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import type { KubeList } from '../../shared/kube/object';

let cluster: EmbeddedCluster | undefined;
let close: (() => void) | undefined;

afterEach(async () => {
  close?.();
  await cluster?.close();
});

it('fails a blackholed watch within 45-50 s at production settings, then serves on a new connection', async () => {
  expect(http2HealthSettings(process.env)).toEqual({ readIdleTimeoutMs: 30_000, pingTimeoutMs: 15_000 });
  cluster = await startEmbeddedCluster({ tls: true, faultProxy: true, pods: 20, seed: 11 });
  const connection = Kubeconfig.fromString(cluster.kubeconfigYaml()).connect();
  close = () => connection.close();
  const client = new RestClient(connection);
  const pods = { group: '', version: 'v1', resource: 'pods' };
  const list = () =>
    client.list<KubeList>({ path: '/api/v1/pods', description: { verb: 'list', resource: 'pods' } });
  const { metadata } = await list();
  const watcher = await httpListerWatcher(client, pods).watch(
    { resourceVersion: metadata.resourceVersion, allowWatchBookmarks: true },
    new AbortController().signal,
  );
  const started = Date.now();
  expect(cluster.faults.blackholeConnections()).toBe(1);
  let failure: unknown;
  try {
    for await (const event of watcher) void event;
  } catch (error) {
    failure = error;
  }
  const elapsedMs = Date.now() - started;
  expect(failure).toBeInstanceOf(ConnectionLostError);
  expect(elapsedMs).toBeGreaterThanOrEqual(44_000);
  expect(elapsedMs).toBeLessThanOrEqual(50_000);
  const relisted = await list();
  expect(relisted.items.length).toBeGreaterThan(0);
  expect(cluster.connections.accepted).toBe(2);
}, 70_000);
