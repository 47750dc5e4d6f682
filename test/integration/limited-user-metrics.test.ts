// Pod and node metrics through a ClusterSession over real HTTP, as a namespace-limited user: a renderer
// subscribing to pods starts the poller, which is refused the cluster scope and lists pod metrics per
// namespace the user may read; nodes are refused everywhere and say so, as a state of the kind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterSession } from '../../main/bridge/cluster-session';
import { NamespaceAccess } from '../../main/bridge/namespace-access';
import type { KindSource } from '../../main/bridge/served-kinds';
import type { ClusterConnection } from '../../main/kube/cluster-connection';
import { Kubeconfig } from '../../main/kube/kubeconfig';
import { httpListerWatcher } from '../../main/kube/lister-watcher';
import { listMetrics } from '../../main/kube/metrics-list';
import { RestClient } from '../../main/kube/rest-client';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import { namespaceViewer } from '../../main/sim/sim-users';
import type { GroupVersionResource } from '../../shared/kube/object';
import type { MetricsMessage } from '../../shared/protocol/metrics-messages';
import type { ServerMessage } from '../../shared/protocol/server-messages';
import { messageValue } from '../../main/bridge/outgoing-message';

const pods: GroupVersionResource = { group: '', version: 'v1', resource: 'pods' };
const nodes: GroupVersionResource = { group: '', version: 'v1', resource: 'nodes' };

let cluster: EmbeddedCluster;
let connection: ClusterConnection;
let session: ClusterSession;
const metricsRequests: string[] = [];

/** Discovery as far as the poller reads it: metrics.k8s.io's pods and nodes are served. */
const discovery: KindSource = {
  preferredResources: () =>
    (['pods', 'nodes'] as const).map((resource) => ({
      group: 'metrics.k8s.io',
      version: 'v1beta1',
      resource,
      kind: resource === 'pods' ? 'PodMetrics' : 'NodeMetrics',
      namespaced: resource === 'pods',
      verbs: ['get', 'list'],
      preferred: true,
    })),
  onChange: () => () => undefined,
};

beforeAll(async () => {
  cluster = await startEmbeddedCluster({
    seed: 11,
    pods: 40,
    namespaces: 3,
    users: [namespaceViewer({ name: 'jane', namespaces: ['payments-00', 'search-00'], token: 'jane' })],
    simulation: { timing: { startupMs: 50 } },
  });
  connection = Kubeconfig.fromString(cluster.kubeconfigYaml('jane')).connect();
  const client = new RestClient(connection);
  const access = new NamespaceAccess({ contextNamespace: connection.namespace });
  access.setAddedNamespaces(['search-00']);
  session = new ClusterSession({
    context: 'jane',
    access,
    discovery,
    log: () => undefined,
    newListerWatcher: (gvr, namespace, tweak) => httpListerWatcher(client, gvr, namespace, tweak),
    metrics: (resource, namespace, signal, keys) => {
      metricsRequests.push(`${resource}@${namespace || '*'}`);
      return listMetrics(client, resource, namespace, signal, keys);
    },
  });
  // The seeded pods start running after the simulated startup delay: wait until metrics-server would
  // report some in both of jane's namespaces, so the first poll finds them.
  const running = async (namespace: string) => {
    const response = await fetch(`${cluster.url}/apis/metrics.k8s.io/v1beta1/namespaces/${namespace}/pods`);
    return ((await response.json()) as { items: unknown[] }).items.length > 0;
  };
  for (let attempt = 0; !((await running('search-00')) && (await running('payments-00'))); attempt++) {
    if (attempt === 100) throw new Error('no pod of payments-00 and search-00 ran within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
});

afterAll(async () => {
  await session?.close();
  connection?.close();
  await cluster?.close();
});

describe('metrics of a user limited to two namespaces', () => {
  it('lists pod metrics per readable namespace once the cluster scope is refused', async () => {
    const received: ServerMessage[] = [];
    const peer = session.attach({ send: (message) => received.push(messageValue(message)) });
    const metrics = () => received.filter((message): message is MetricsMessage => message.type === 'metrics');
    peer.subscribe('pods', pods);
    await expect.poll(() => metrics().at(0)?.availability, { timeout: 10_000 }).toBe('served');
    const latest = metrics().at(0)!;
    expect(latest.keys.every((key) => key.startsWith('payments-00/') || key.startsWith('search-00/'))).toBe(
      true,
    );
    expect(latest.keys.some((key) => key.startsWith('search-00/'))).toBe(true);
    expect(metricsRequests).toContain('pods@*');
    expect(metricsRequests).toContain('pods@search-00');

    // A renderer that starts showing pods now is sent the latest poll at once, not a window later.
    const later: ServerMessage[] = [];
    const laterPeer = session.attach({ send: (message) => later.push(messageValue(message)) });
    laterPeer.subscribe('pods', pods);
    expect(later.filter((message) => message.type === 'metrics')).toEqual([latest]);
    laterPeer.close();

    peer.subscribe('nodes', nodes);
    await expect
      .poll(() => metrics().find((message) => message.resource === 'nodes')?.availability)
      .toBe('forbidden');
    expect(metrics().find((message) => message.resource === 'nodes')?.reason).toContain(
      'cannot list resource "nodes"',
    );

    peer.close();
  });
});
