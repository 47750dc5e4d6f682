// A cluster that does not answer discovery when Kubetide starts: one that accepts connections and
// never answers (a hung API server, a VPN middlebox) no longer keeps the app from opening for over a
// minute, and one that cannot be reached at start (the VPN not up yet) gets its kinds, CRDs included,
// once it answers, where the session used to keep the built-in kinds for good.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startBackend } from '../../main/app/backend';
import type { Backend } from '../../main/app/backend';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import { administratorToken } from '../../main/sim/sim-users';
import type { BridgeClient } from '../../renderer/transport/bridge-client';
import { connectRenderer } from '../support/backend-renderer';

const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A kubeconfig for `server` (the embedded cluster's administrator token), in a folder of its own. */
function kubeconfigFor(server: string): { file: string; data: string } {
  const directory = mkdtempSync(join(tmpdir(), 'unanswered-discovery-'));
  cleanups.push(() => rmSync(directory, { recursive: true, force: true }));
  const file = join(directory, 'config');
  writeFileSync(
    file,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'far', cluster: { server } }],
      users: [{ name: 'far', user: { token: administratorToken } }],
      contexts: [{ name: 'far', context: { cluster: 'far', user: 'far' } }],
      'current-context': 'far',
    }),
  );
  return { file, data: join(directory, 'data') };
}

async function listen(server: Server, port = 0): Promise<number> {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

function rendererOf(backend: Backend): BridgeClient {
  const renderer = connectRenderer(backend, 'unanswered');
  cleanups.push(() => renderer.close());
  return renderer.client;
}

const kindGroups = (client: BridgeClient) =>
  new Set(client.state.getState().kinds.map((kind) => kind.gvr.group));

describe('discovery that does not answer at start', () => {
  it('opens the app within seconds on a cluster that accepts connections and never answers', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    const port = await listen(silent);
    cleanups.push(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    });
    const { file, data } = kubeconfigFor(`https://127.0.0.1:${port}`);
    const logged: string[] = [];
    const started = Date.now();
    const backend = await startBackend({
      kubeconfig: file,
      dataDirectory: data,
      log: (line) => logged.push(line),
    });
    cleanups.push(() => backend.close());
    // Discovery's patience is 3 s; each request's own deadlines took over a minute in all.
    expect(Date.now() - started).toBeLessThan(15_000);
    const client = rendererOf(backend);
    await expect.poll(() => kindGroups(client).has('apps'), { timeout: 10_000 }).toBe(true);
    expect(logged.join('\n')).not.toMatch(/discovery failed/);
  });

  it("offers the cluster's own kinds once a cluster unreachable at start answers", async () => {
    const probe = createServer();
    const port = await listen(probe);
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const { file, data } = kubeconfigFor(`http://127.0.0.1:${port}`);
    const logged: string[] = [];
    const backend = await startBackend({
      kubeconfig: file,
      dataDirectory: data,
      log: (line) => logged.push(line),
    });
    cleanups.push(() => backend.close());
    const client = rendererOf(backend);
    await expect.poll(() => kindGroups(client).has('apps'), { timeout: 10_000 }).toBe(true);
    expect(kindGroups(client).has('certs.kubetide.dev')).toBe(false);
    expect(logged.join('\n')).toMatch(
      /discovery failed for context far .*; offering the built-in kinds, and trying again/,
    );

    // The cluster comes up where the kubeconfig points (the VPN connects): its CRDs are offered.
    const cluster = await startEmbeddedCluster({ port, pods: 10, seed: 3 });
    cleanups.push(() => cluster.close());
    await expect.poll(() => kindGroups(client).has('certs.kubetide.dev'), { timeout: 30_000 }).toBe(true);
    expect(logged.join('\n')).toMatch(/discovery of context far answered after \d+ attempts/);
  }, 60_000);
});
