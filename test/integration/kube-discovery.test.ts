// Discovery against the embedded cluster: every served kind, and CRDs appearing and disappearing while
// connected, without reconnecting; aggregated discovery (two requests) finding what the legacy documents
// (a request per group version) say, for Discovery and for kubectl alike.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ClusterConnection } from '../../main/kube/cluster-connection';
import { Discovery } from '../../main/kube/discovery';
import type { DiscoveryChange } from '../../main/kube/discovery';
import { Kubeconfig } from '../../main/kube/kubeconfig';
import { RestClient } from '../../main/kube/rest-client';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { createWidgetDefinition } from './kube-fixtures';
import { kubectlHarness } from './kubectl-harness';

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

/** Discovery once against a cluster, its resources and the discovery paths it asked for. */
async function discoverOnce(legacyDiscoveryOnly: boolean) {
  const started = await startEmbeddedCluster({ seed: 1, legacyDiscoveryOnly });
  const opened = Kubeconfig.fromString(started.kubeconfigYaml()).connect();
  try {
    const client = new RestClient(opened);
    const json = vi.spyOn(client, 'json');
    const registry = new Discovery(client, { watchCustomResourceDefinitions: false });
    await registry.start();
    const paths = json.mock.calls.map(([request]) => request.path);
    return { resources: registry.resources(), paths };
  } finally {
    opened.close();
    await started.close();
  }
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

  it('finds in the two aggregated documents every resource the legacy ones list', async () => {
    const aggregated = await discoverOnce(false);
    const legacy = await discoverOnce(true);
    const sorted = (resources: typeof aggregated.resources) =>
      [...resources].sort((a, b) =>
        `${a.group}/${a.version}/${a.resource}`.localeCompare(`${b.group}/${b.version}/${b.resource}`),
      );
    expect(aggregated.resources.length).toBeGreaterThan(20);
    expect(sorted(aggregated.resources)).toEqual(sorted(legacy.resources));
    expect(aggregated.paths.sort()).toEqual(['/api', '/apis']);
    expect(legacy.paths).toContain('/apis/apps/v1');
    expect(legacy.paths.length).toBeGreaterThan(10);
  });

  it('gives kubectl the same resources in aggregated form, in two requests', async () => {
    const run = async (legacyDiscoveryOnly: boolean) => {
      const started = await startEmbeddedCluster({ seed: 1, legacyDiscoveryOnly });
      const kubectl = kubectlHarness(started);
      try {
        const table = await kubectl.kubectl(['api-resources', '-o', 'wide', '--sort-by=name']);
        const { stderr } = await kubectl.kubectlWithStderr(['api-resources', '-v=6']);
        const gets = stderr.split('\n').filter((line) => / GET https?:\/\/\S+\/apis?[/?]/.test(line));
        return { table, gets };
      } finally {
        kubectl.close();
        await started.close();
      }
    };
    const aggregated = await run(false);
    const legacy = await run(true);
    expect(aggregated.table).toEqual(legacy.table);
    expect(aggregated.table).toMatch(/^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment\s+\S*create/m);
    expect(aggregated.gets).toHaveLength(2);
    expect(legacy.gets.length).toBeGreaterThan(10);
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
