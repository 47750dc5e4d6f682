// The embedded cluster's fault proxy: blackholeConnections hangs every connection open at that moment
// for ever (nothing arrives, nothing is closed) while new connections are served; over HTTP the
// reply to the request that asked for it still gets out. Without the proxy the fault is refused.
import http from 'node:http';
import { afterEach, expect, it } from 'vitest';
import { StatusError } from '../../shared/kube/status';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';

let cluster: EmbeddedCluster | undefined;

afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

/** One request on a connection of its own; resolves with the status and body. */
function request(url: string, method = 'GET', body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(url, { method, agent: false }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

it('hangs the open connections for ever, answers the request that asked, and serves new ones', async () => {
  cluster = await startEmbeddedCluster({ faultProxy: true, simulate: false });
  const received: string[] = [];
  let closed = false;
  const watch = http.get(`${cluster.url}/api/v1/configmaps?watch=1`, { agent: false }, (response) => {
    response.on('data', (chunk: Buffer) => received.push(chunk.toString()));
    response.on('close', () => (closed = true));
  });
  watch.on('error', () => undefined);
  await expect.poll(() => cluster!.watches.size).toBe(1);

  const reply = await request(`${cluster.url}/_sim/faults`, 'POST', '{"action":"blackholeConnections"}');
  expect(reply).toEqual({ status: 200, text: '{"ok":true,"affected":2}' });
  await new Promise((resolve) => setTimeout(resolve, 100));
  cluster.storage.create(cluster.resource('configmaps'), 'default', { metadata: { name: 'unseen' } });
  const fresh = await request(`${cluster.url}/api/v1/namespaces/default/configmaps/unseen`);
  expect(fresh.status).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(received.join('')).not.toContain('unseen');
  expect(closed).toBe(false);
  // The server still holds its end of the hung watch: nothing told it either.
  expect(cluster.watches.size).toBe(1);
  watch.destroy();
});

it('refuses the fault without the proxy', async () => {
  cluster = await startEmbeddedCluster({ simulate: false });
  expect(() => cluster!.faults.blackholeConnections()).toThrow(StatusError);
  const reply = await request(`${cluster.url}/_sim/faults`, 'POST', '{"action":"blackholeConnections"}');
  expect(reply.status).toBe(400);
  expect(reply.text).toContain('faultProxy: true');
});
