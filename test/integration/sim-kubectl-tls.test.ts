// kubectl, unmodified, against the embedded cluster as npm run sim and the app start it: TLS verified
// against the CA in the kubeconfig (no insecure-skip-tls-verify), HTTP/2 negotiated by ALPN, so all
// of kubectl's requests, discovery included, ride one connection; and a watch over it.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';

const run = promisify(execFile);
let cluster: EmbeddedCluster;
let directory: string;
let environment: NodeJS.ProcessEnv;

beforeAll(async () => {
  cluster = await startEmbeddedCluster({ tls: true, seed: 5, pods: 20, namespaces: 2 });
  directory = mkdtempSync(join(tmpdir(), 'sim-kubectl-tls-'));
  writeFileSync(join(directory, 'kubeconfig'), cluster.kubeconfigYaml());
  environment = {
    ...process.env,
    KUBECONFIG: join(directory, 'kubeconfig'),
    KUBECACHEDIR: join(directory, 'cache'),
    HOME: directory,
  };
});

afterAll(async () => {
  await cluster?.close();
  rmSync(directory, { recursive: true, force: true });
});

it('trusts the cluster through certificate-authority-data alone', () => {
  const config = parse(cluster.kubeconfigYaml()) as { clusters: { cluster: Record<string, unknown> }[] };
  const entry = config.clusters[0].cluster;
  expect(entry.server).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  expect(entry['insecure-skip-tls-verify']).toBeUndefined();
  expect(Buffer.from(String(entry['certificate-authority-data']), 'base64').toString()).toBe(
    cluster.certificateAuthority,
  );
});

it('serves kubectl get over one HTTP/2 connection, discovery included', async () => {
  const { stdout } = await run('kubectl', ['get', 'pods', '-A', '-o', 'name'], {
    env: environment,
    timeout: 20_000,
  });
  expect(stdout.split('\n').filter((line) => line.startsWith('pod/')).length).toBe(
    cluster.store.count('pods'),
  );
  expect(cluster.connections.accepted).toBe(1);
});

it('streams a kubectl watch over TLS', async () => {
  const child = spawn('kubectl', ['get', 'configmaps', '-n', 'default', '--watch', '-o', 'name'], {
    env: environment,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    await expect.poll(() => cluster.watches.size, { timeout: 15_000 }).toBe(1);
    cluster.storage.create(cluster.resource('configmaps'), 'default', { metadata: { name: 'over-tls' } });
    await expect.poll(() => output, { timeout: 15_000 }).toContain('configmap/over-tls');
  } finally {
    child.kill();
  }
});
