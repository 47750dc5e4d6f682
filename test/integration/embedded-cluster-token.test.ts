// The app's embedded cluster listens on loopback, where any local process can connect: it served a
// request without credentials, or with the well-known kubetide-embedded-token, as its administrator,
// so another process could read it, write objects the window would show as the cluster's, or inject
// faults. Its administrator's token is now a secret of the run, which the app's own kubeconfig holds.
import https from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Backend } from '../../main/app/backend';
import { startBackend } from '../../main/app/backend';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { administratorToken } from '../../main/sim/sim-users';

let backend: Backend;
let cluster: EmbeddedCluster;

/** The status of one request to the embedded cluster, as another local process would make it. */
function status(path: string, token: string | undefined, method = 'GET'): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = https.request(
      `${cluster.url}${path}`,
      {
        method,
        ca: cluster.certificateAuthority,
        agent: false,
        headers: token === undefined ? {} : { Authorization: `Bearer ${token}` },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.end(method === 'POST' ? JSON.stringify({ changesPerSecond: 5_000 }) : undefined);
  });
}

beforeAll(async () => {
  backend = await startBackend({ embedded: true, pods: 20, record: false, log: () => undefined });
  cluster = backend.embedded!;
}, 60_000);

afterAll(async () => {
  await backend?.close();
});

describe("the app's embedded cluster", () => {
  it('answers only the token its own kubeconfig holds', async () => {
    expect(cluster.administratorToken).not.toBe(administratorToken);
    expect(cluster.administratorToken).toMatch(/^[0-9a-f]{64}$/);
    expect(await status('/api/v1/secrets', undefined)).toBe(401);
    expect(await status('/api/v1/secrets', administratorToken)).toBe(401);
    expect(await status('/_sim/churn', undefined, 'POST')).toBe(401);
    expect(await status('/api/v1/secrets', cluster.administratorToken)).toBe(200);
    expect(cluster.kubeconfigYaml()).toContain(`token: ${cluster.administratorToken}`);
  });

  it('is listed and watched by the app through that kubeconfig', async () => {
    // A watch opens only after its list went through: the app's own requests carry the token.
    await expect.poll(() => cluster.watches.all().length, { timeout: 30_000 }).toBeGreaterThan(0);
  });
});
