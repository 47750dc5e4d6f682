// Discovery against the embedded cluster: every served kind, and CRDs appearing and disappearing while
// connected, without reconnecting.
import { afterEach, describe, expect, it } from 'vitest';
import type { ClusterConnection } from '../../main/kube/cluster-connection';
import { Discovery } from '../../main/kube/discovery';
import type { DiscoveryChange } from '../../main/kube/discovery';
import { Kubeconfig } from '../../main/kube/kubeconfig';
import { RestClient } from '../../main/kube/rest-client';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { createWidgetDefinition } from './kube-fixtures';

let cluster: EmbeddedCluster | undefined;
let connection: ClusterConnection | undefined;
let discovery: Discovery | undefined;

afterEach(async () => {
  discovery?.stop();
  connection?.close();
  await cluster?.close();
  cluster = connection = discovery = undefined;
});

async function startDiscovery(): Promise<Discovery> {
  cluster = await startEmbeddedCluster({ seed: 1 });
  connection = Kubeconfig.fromString(cluster.kubeconfigYaml()).connect();
  discovery = new Discovery(new RestClient(connection), { rediscoverDelayMs: 20 });
  await discovery.start();
  return discovery;
}

function nextChange(discovery: Discovery): Promise<DiscoveryChange> {
  return new Promise((resolve) => {
    const unsubscribe = discovery.onChange((change) => {
      unsubscribe();
      resolve(change);
    });
  });
}

describe('Discovery', () => {
  it('finds core, grouped and cluster-scoped kinds with their verbs, short names and preferred version', async () => {
    const registry = await startDiscovery();
    expect(registry.find('po')).toMatchObject({
      group: '',
      version: 'v1',
      resource: 'pods',
      kind: 'Pod',
      namespaced: true,
      preferred: true,
    });
    expect(registry.find('po')?.verbs).toEqual(expect.arrayContaining(['list', 'watch']));
    expect(registry.find('deploy')).toMatchObject({
      group: 'apps',
      resource: 'deployments',
      kind: 'Deployment',
    });
    expect(registry.find('Node')).toMatchObject({ resource: 'nodes', namespaced: false });
    expect(registry.find('deployments.apps')?.kind).toBe('Deployment');
    expect(registry.resources().some((resource) => resource.resource.includes('/'))).toBe(false);
  });

  it('adds a CRD created while connected, and removes it once deleted', async () => {
    const registry = await startDiscovery();
    expect(registry.find('widgets')).toBeUndefined();

    const added = nextChange(registry);
    createWidgetDefinition(cluster!);
    expect((await added).added.map((resource) => `${resource.resource}.${resource.group}`)).toEqual([
      'widgets.example.com',
    ]);
    expect(registry.find('wd')).toMatchObject({
      kind: 'Widget',
      group: 'example.com',
      version: 'v1',
      namespaced: true,
    });

    const removed = nextChange(registry);
    cluster!.storage.delete(
      cluster!.resource('customresourcedefinitions', 'apiextensions.k8s.io'),
      undefined,
      'widgets.example.com',
    );
    expect((await removed).removed.map((resource) => resource.resource)).toEqual(['widgets']);
    expect(registry.find('widget')).toBeUndefined();
  });
});
