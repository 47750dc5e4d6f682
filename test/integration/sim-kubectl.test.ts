// kubectl v1.32, unmodified, against the embedded cluster through a temporary kubeconfig: discovery,
// tables, JSON output, watches, client-side apply (create, then patch), scale, delete, a custom kind
// served through its CRD, and the system objects every cluster holds (service accounts, node leases,
// RBAC's bootstrap roles, a default storage class).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import type { KubectlHarness } from './kubectl-harness';
import { kubectlHarness } from './kubectl-harness';

let cluster: EmbeddedCluster;
let harness: KubectlHarness;

beforeAll(async () => {
  cluster = await startEmbeddedCluster({
    seed: 3,
    pods: 40,
    nodes: 4,
    namespaces: 3,
    simulation: { timing: { startupMs: 50 } },
  });
  harness = kubectlHarness(cluster);
});

afterAll(async () => {
  harness?.close();
  await cluster?.close();
});

const kubectl = (...args: string[]) => harness.kubectl(args);
const manifest = (name: string, text: string) => harness.file(name, text);

const deploymentYaml = (image: string, replicas: number) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: shop
  namespace: default
spec:
  replicas: ${replicas}
  selector:
    matchLabels: {app: shop}
  template:
    metadata:
      labels: {app: shop}
    spec:
      containers:
      - name: shop
        image: ${image}
        ports: [{containerPort: 8080}]
`;

describe('kubectl against the embedded cluster', () => {
  it('get pods -A prints the familiar columns for every pod', async () => {
    const output = await kubectl('get', 'pods', '-A');
    const [header, ...rows] = output.trim().split('\n');
    expect(header.split(/\s+/)).toEqual(['NAMESPACE', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
    expect(rows).toHaveLength(cluster.store.count('pods'));
  });

  it('get pods -o wide adds the priority-1 columns', async () => {
    const [header] = (await kubectl('get', 'pods', '-A', '-o', 'wide')).split('\n');
    expect(header.split(/\s{2,}/)).toEqual([
      'NAMESPACE',
      'NAME',
      'READY',
      'STATUS',
      'RESTARTS',
      'AGE',
      'IP',
      'NODE',
      'NOMINATED NODE',
      'READINESS GATES',
    ]);
  });

  it('get pods -o json returns a v1 List of pods', async () => {
    const list = JSON.parse(await kubectl('get', 'pods', '-A', '-o', 'json'));
    expect(list.kind).toBe('List');
    expect(list.items[0].kind).toBe('Pod');
    expect(list.items).toHaveLength(cluster.store.count('pods'));
  });

  it('get -w sees a change made through the API', async () => {
    cluster.storage.create(cluster.resource('configmaps'), 'default', { metadata: { name: 'existing' } });
    const watcher = harness.spawn(['get', 'configmaps', '-n', 'default', '-w', '--output-watch-events']);
    try {
      await expect.poll(watcher.output, { timeout: 15_000 }).toMatch(/existing/);
      cluster.storage.create(cluster.resource('configmaps'), 'default', {
        metadata: { name: 'watched' },
        data: { a: '1' },
      });
      await expect.poll(watcher.output, { timeout: 15_000 }).toMatch(/ADDED\s+watched/);
    } finally {
      watcher.stop();
    }
  });

  it('apply -f creates a deployment, and applying a change patches it', async () => {
    expect(await kubectl('apply', '-f', manifest('shop.yaml', deploymentYaml('shop:1', 2)))).toContain(
      'deployment.apps/shop created',
    );
    expect(await kubectl('apply', '-f', manifest('shop.yaml', deploymentYaml('shop:2', 2)))).toContain(
      'deployment.apps/shop configured',
    );
    const deployment = JSON.parse(await kubectl('get', 'deployment', 'shop', '-o', 'json'));
    expect(deployment.spec.template.spec.containers[0].image).toBe('shop:2');
    expect(deployment.metadata.generation).toBe(2);
  });

  it('scale deployment --replicas changes the replica count and the controllers follow', async () => {
    expect(await kubectl('scale', 'deployment', 'shop', '--replicas=3')).toContain(
      'deployment.apps/shop scaled',
    );
    await expect
      .poll(
        async () => (await kubectl('get', 'pods', '-l', 'app=shop', '-o', 'name')).trim().split('\n').length,
        { timeout: 15_000 },
      )
      .toBe(3);
  });

  it('delete removes the deployment and, in the background, what it owns', async () => {
    expect(await kubectl('delete', 'deployment', 'shop')).toContain('deployment.apps "shop" deleted');
    await expect
      .poll(async () => (await kubectl('get', 'pods', '-l', 'app=shop', '-o', 'name')).trim(), {
        timeout: 15_000,
      })
      .toBe('');
  });

  it('get crd and a custom kind served through it', async () => {
    const definition = manifest(
      'crd.yaml',
      `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.kubetide.dev}
spec:
  group: example.kubetide.dev
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, shortNames: [wg]}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
    additionalPrinterColumns: [{name: Size, type: integer, jsonPath: .spec.size}]
`,
    );
    await kubectl('apply', '-f', definition);
    expect(await kubectl('get', 'crd')).toMatch(/widgets\.example\.kubetide\.dev/);
    await kubectl(
      'apply',
      '-f',
      manifest(
        'widget.yaml',
        'apiVersion: example.kubetide.dev/v1\nkind: Widget\nmetadata: {name: gizmo, namespace: default}\nspec: {size: 7}\n',
      ),
    );
    const [header, row] = (await kubectl('get', 'wg')).trim().split('\n');
    expect(header.split(/\s+/)).toEqual(['NAME', 'SIZE']);
    expect(row.split(/\s+/)).toEqual(['gizmo', '7']);
  });

  it('serves what a fresh cluster holds of the kinds no controller acts on, as kubectl prints them', async () => {
    const rows = async (...args: string[]) =>
      (await kubectl('get', ...args, '--no-headers'))
        .trim()
        .split('\n')
        .map((line) => line.split(/\s+/));
    const namespaces = await rows('namespaces', '-o', 'name');
    const accounts = await rows('serviceaccounts', '-A');
    expect(accounts).toHaveLength(namespaces.length);
    expect(new Set(accounts.map(([, name]) => name))).toEqual(new Set(['default']));
    expect((await rows('leases', '-n', 'kube-node-lease')).map(([name, holder]) => [name, holder])).toEqual(
      (await rows('nodes', '-o', 'name')).map(([name]) => [
        name.slice('node/'.length),
        name.slice('node/'.length),
      ]),
    );
    expect(await kubectl('get', 'clusterrolebinding', 'cluster-admin', '-o', 'wide')).toMatch(
      /cluster-admin\s+ClusterRole\/cluster-admin\s+\S+\s+system:masters/,
    );
    expect((await rows('clusterroles')).map(([name]) => name)).toContain('system:basic-user');
    expect(await kubectl('get', 'storageclass')).toMatch(
      /^standard \(default\)\s+rancher\.io\/local-path\s+Delete/m,
    );
    for (const kind of ['persistentvolumeclaims', 'ingresses', 'networkpolicies', 'roles', 'rolebindings'])
      expect(await kubectl('get', kind, '-A')).toBe('');
  });
});
