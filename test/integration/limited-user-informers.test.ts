// Kubetide's informers as a namespace-limited user over real HTTP: the embedded cluster's RBAC refuses
// the cluster scope, SelfSubjectRulesReview narrows the namespaces, and the session serves each kind
// from per-namespace informers merged into one feed, with the kinds it cannot read marked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterSession } from '../../main/bridge/cluster-session';
import { NamespaceAccess } from '../../main/bridge/namespace-access';
import type { ClusterConnection } from '../../main/kube/cluster-connection';
import { Kubeconfig } from '../../main/kube/kubeconfig';
import { httpListerWatcher } from '../../main/kube/lister-watcher';
import { RestClient } from '../../main/kube/rest-client';
import { selfSubjectRules } from '../../main/kube/self-subject-rules';
import { selfSubjectAccessReview } from '../../main/kube/self-subject-access-review';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import { namespaceViewer } from '../../main/sim/sim-users';
import type { GroupVersionResource } from '../../shared/kube/object';
import { seedWorkload } from './kube-fixtures';

const pods: GroupVersionResource = { group: '', version: 'v1', resource: 'pods' };
const secrets: GroupVersionResource = { group: '', version: 'v1', resource: 'secrets' };
const nodes: GroupVersionResource = { group: '', version: 'v1', resource: 'nodes' };

let cluster: EmbeddedCluster;
let connection: ClusterConnection;
let session: ClusterSession;
let access: NamespaceAccess;
let client: RestClient;
const requested: string[] = [];

beforeAll(async () => {
  cluster = await startEmbeddedCluster({
    seed: 9,
    simulate: false,
    users: [namespaceViewer({ name: 'jane', namespaces: ['web', 'payments'], token: 'jane' })],
  });
  seedWorkload(cluster);
  connection = Kubeconfig.fromString(cluster.kubeconfigYaml('jane')).connect();
  client = new RestClient(connection);
  access = new NamespaceAccess({
    contextNamespace: connection.namespace,
    rules: (namespace) => selfSubjectRules(client, namespace),
  });
  session = new ClusterSession({
    context: 'jane',
    access,
    log: () => undefined,
    newListerWatcher: (gvr, namespace, tweak) => {
      requested.push(`${gvr.resource}|${namespace}`);
      return httpListerWatcher(client, gvr, namespace, tweak);
    },
  });
});

afterAll(async () => {
  await session?.close();
  connection?.close();
  await cluster?.close();
});

function podKeys(namespaces: readonly string[]): string[] {
  return [...cluster.store.values('pods')]
    .map((stored) => stored.object.metadata)
    .filter((metadata) => namespaces.includes(metadata.namespace ?? ''))
    .map((metadata) => `${metadata.namespace}/${metadata.name}`)
    .sort();
}

describe('informers of a user limited to two namespaces', () => {
  it('serve the context namespace, then a namespace the user adds, from per-namespace informers', async () => {
    expect(connection.namespace).toBe('web');
    const feed = session.feeds.acquire(pods, '');
    await expect.poll(() => feed.syncState().phase, { timeout: 10_000 }).toBe('synced');
    expect(
      feed
        .rows()
        .map((row) => row.key)
        .sort(),
    ).toEqual(podKeys(['web']));

    session.setAddedNamespaces(['payments', 'default']);
    await expect
      .poll(() => feed.rows().length, { timeout: 10_000 })
      .toBe(podKeys(['web', 'payments']).length);
    expect(
      feed
        .rows()
        .map((row) => row.key)
        .sort(),
    ).toEqual(podKeys(['web', 'payments']));
    await expect.poll(() => feed.syncState().phase, { timeout: 10_000 }).toBe('synced');
    // The rules said the cluster scope and "default" are refused: neither was asked for.
    expect(requested.filter((entry) => entry.startsWith('pods|')).sort()).toEqual([
      'pods|payments',
      'pods|web',
    ]);
  });

  it('mark Secrets and Nodes as forbidden kinds, with no count', async () => {
    session.feeds.acquire(secrets, '');
    session.feeds.acquire(nodes, '');
    await expect
      .poll(() =>
        session
          .kinds()
          .filter((kind) => kind.forbidden !== undefined)
          .map((kind) => kind.gvr.resource),
      )
      .toEqual(expect.arrayContaining(['secrets', 'nodes', 'namespaces']));
    const kinds = session.kinds();
    expect(kinds.find((kind) => kind.gvr.resource === 'secrets')?.count).toBeUndefined();
    expect(kinds.find((kind) => kind.gvr.resource === 'pods')?.forbidden).toBeUndefined();
    expect(requested.some((entry) => entry.startsWith('secrets|') || entry.startsWith('nodes|'))).toBe(false);
  });

  it('are planned by the same SelfSubjectAccessReview answers kubectl auth can-i gets', async () => {
    expect(await selfSubjectAccessReview(client, 'web', 'watch', pods)).toBe(true);
    expect(await selfSubjectAccessReview(client, '', 'list', pods)).toBe(false);
    expect(await selfSubjectAccessReview(client, 'web', 'list', secrets)).toBe(false);
  });
});
