// metrics.k8s.io on the embedded cluster, as metrics-server serves it: discovery through the group list,
// PodMetrics and NodeMetrics over HTTP (lists, gets, selectors, RBAC), and `kubectl top` (v1.32,
// unmodified) reading them; and a cluster started without metrics, which kubectl reports as such.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import { namespaceViewer } from '../../main/sim/sim-users';
import { parseQuantity } from '../../shared/kube/quantity';
import type { KubectlHarness } from './kubectl-harness';
import { kubectlHarness } from './kubectl-harness';

let cluster: EmbeddedCluster;
let harness: KubectlHarness;
const jane = namespaceViewer({ name: 'jane', namespaces: ['default'], token: 'jane-token' });

beforeAll(async () => {
  cluster = await startEmbeddedCluster({
    seed: 5,
    pods: 30,
    nodes: 3,
    namespaces: 2,
    users: [jane],
    simulation: { timing: { startupMs: 50 } },
  });
  harness = kubectlHarness(cluster);
  // The seeded pods start running after the simulated startup delay.
  await waitFor(async () => ((await get('/apis/metrics.k8s.io/v1beta1/pods')).body as List).items.length > 0);
});

afterAll(async () => {
  harness?.close();
  await cluster?.close();
});

interface List {
  items: { metadata: { name: string; namespace?: string; labels?: Record<string, string> } }[];
}

async function get(path: string, token?: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(cluster.url + path, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  return { status: response.status, body: await response.json() };
}

async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('condition not met');
}

describe('metrics.k8s.io over HTTP', () => {
  it('is listed in discovery with pods and nodes', async () => {
    const groups = (await get('/apis')).body as { groups: { name: string }[] };
    expect(groups.groups.map((group) => group.name)).toContain('metrics.k8s.io');
    const resources = (await get('/apis/metrics.k8s.io/v1beta1')).body as {
      resources: { name: string; kind: string }[];
    };
    expect(resources.resources.map(({ name, kind }) => `${name}:${kind}`)).toEqual([
      'nodes:NodeMetrics',
      'pods:PodMetrics',
    ]);
  });

  it('serves PodMetrics per container with timestamp and window, in and across namespaces', async () => {
    const all = (await get('/apis/metrics.k8s.io/v1beta1/pods')).body as List & { kind: string };
    expect(all.kind).toBe('PodMetricsList');
    const first = all.items[0] as unknown as {
      metadata: { name: string; namespace: string };
      timestamp: string;
      window: string;
      containers: { name: string; usage: { cpu: string; memory: string } }[];
    };
    expect(first.window).toBe('15s');
    expect(Date.parse(first.timestamp) % 15_000).toBe(0);
    expect(parseQuantity(first.containers[0]!.usage.cpu)).toBeGreaterThan(0);
    expect(parseQuantity(first.containers[0]!.usage.memory)).toBeGreaterThan(2 ** 20);
    const namespace = first.metadata.namespace;
    const within = (await get(`/apis/metrics.k8s.io/v1beta1/namespaces/${namespace}/pods`)).body as List;
    expect(within.items.length).toBeGreaterThan(0);
    expect(within.items.every((item) => item.metadata.namespace === namespace)).toBe(true);
    const one = await get(`/apis/metrics.k8s.io/v1beta1/namespaces/${namespace}/pods/${first.metadata.name}`);
    expect(one.status).toBe(200);
    expect((one.body as { kind: string }).kind).toBe('PodMetrics');
    const missing = await get(`/apis/metrics.k8s.io/v1beta1/namespaces/${namespace}/pods/absent`);
    expect(missing.status).toBe(404);
  });

  it('narrows lists by label selector', async () => {
    const all = (await get('/apis/metrics.k8s.io/v1beta1/pods')).body as List & {
      items: { metadata: { labels?: Record<string, string> } }[];
    };
    const app = all.items[0]!.metadata.labels!.app!;
    const narrowed = (await get(`/apis/metrics.k8s.io/v1beta1/pods?labelSelector=app%3D${app}`))
      .body as List & {
      items: { metadata: { labels?: Record<string, string> } }[];
    };
    expect(narrowed.items.length).toBeGreaterThan(0);
    expect(narrowed.items.length).toBeLessThan(all.items.length);
    expect(narrowed.items.every((item) => item.metadata.labels?.app === app)).toBe(true);
  });

  it('serves NodeMetrics using at least the sum of their pods', async () => {
    const nodes = (await get('/apis/metrics.k8s.io/v1beta1/nodes')).body as List;
    expect(nodes.items).toHaveLength(3);
    const node = (await get(`/apis/metrics.k8s.io/v1beta1/nodes/${nodes.items[0]!.metadata.name}`)).body as {
      kind: string;
      usage: { cpu: string };
    };
    expect(node.kind).toBe('NodeMetrics');
    expect(parseQuantity(node.usage.cpu)).toBeGreaterThan(0.05);
  });

  it('cannot be watched', async () => {
    expect((await get('/apis/metrics.k8s.io/v1beta1/pods?watch=true')).status).toBe(405);
  });

  it("honours RBAC: a namespace viewer reads its namespace's pod metrics only", async () => {
    expect((await get('/apis/metrics.k8s.io/v1beta1/namespaces/default/pods', jane.token)).status).toBe(200);
    const refused = await get('/apis/metrics.k8s.io/v1beta1/pods', jane.token);
    expect(refused.status).toBe(403);
    expect((refused.body as { message: string }).message).toBe(
      'pods.metrics.k8s.io is forbidden: User "jane" cannot list resource "pods" in API group "metrics.k8s.io" at the cluster scope',
    );
    expect((await get('/apis/metrics.k8s.io/v1beta1/nodes', jane.token)).status).toBe(403);
  });
});

describe('kubectl top', () => {
  it('top pods -A lists pods of every namespace in millicores and mebibytes', async () => {
    const output = await harness.kubectl(['top', 'pods', '-A']);
    const lines = output.trim().split('\n');
    expect(lines[0]).toMatch(/^NAMESPACE\s+NAME\s+CPU\(cores\)\s+MEMORY\(bytes\)\s*$/);
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines.slice(1)) expect(line).toMatch(/^\S+\s+\S+\s+\d+m\s+\d+Mi\s*$/);
  });

  it('top pods -n X --containers shows each container', async () => {
    const namespace = (await harness.kubectl(['top', 'pods', '-A', '--no-headers'])).trim().split(/\s+/)[0]!;
    const output = await harness.kubectl(['top', 'pods', '-n', namespace, '--containers']);
    const lines = output.trim().split('\n');
    expect(lines[0]).toMatch(/^POD\s+NAME\s+CPU\(cores\)\s+MEMORY\(bytes\)\s*$/);
    for (const line of lines.slice(1)) expect(line).toMatch(/^\S+\s+\S+\s+\d+m\s+\d+Mi\s*$/);
  });

  it('top nodes shows usage and percentages of allocatable', async () => {
    const output = await harness.kubectl(['top', 'nodes']);
    const lines = output.trim().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+CPU\(cores\)\s+CPU\(%\)\s+MEMORY\(bytes\)\s+MEMORY\(%\)\s*$/);
    expect(lines).toHaveLength(4);
    for (const line of lines.slice(1)) expect(line).toMatch(/^\S+\s+\d+m\s+\d+%\s+\d+Mi\s+\d+%\s*$/);
  });

  it('says the metrics API is not available on a cluster without it', async () => {
    const bare = await startEmbeddedCluster({ seed: 5, pods: 5, nodes: 1, metrics: false });
    const bareHarness = kubectlHarness(bare);
    try {
      expect((await get('/apis')).status).toBe(200);
      const groups = (await (await fetch(`${bare.url}/apis`)).json()) as { groups: { name: string }[] };
      expect(groups.groups.map((group) => group.name)).not.toContain('metrics.k8s.io');
      expect(await bareHarness.kubectlFailure(['top', 'pods', '-A'])).toContain('Metrics API not available');
    } finally {
      bareHarness.close();
      await bare.close();
    }
  });
});
