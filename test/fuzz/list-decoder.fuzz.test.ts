// The LIST decoder (RestClient.json under httpListerWatcher.list) meets whatever a server, a proxy or
// a broken network returns: mutated and truncated JSON, wrong shapes, huge bodies. Each LIST either
// yields a list whose items are objects, or fails with an error that names the request; nothing hangs.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListerWatcher } from '../../main/cache/lister-watcher';
import { Kubeconfig } from '../../main/kube/kubeconfig';
import { httpListerWatcher } from '../../main/kube/lister-watcher';
import { RestClient } from '../../main/kube/rest-client';
import type { KubeObject } from '../../shared/kube/object';
import { seededRandom } from '../support/seeded-random';
import { mutateBytes } from './fuzz-inputs';

const pods = { group: '', version: 'v1', resource: 'pods' };
let server: http.Server;
/** What the next LIST is answered with: status code and body bytes (closing mid-body when truncated). */
let nextReply: { code: number; body: Buffer; truncate?: boolean } = { code: 200, body: Buffer.from('{}') };
let listerWatcher: ListerWatcher<KubeObject>;

function podList(count: number, note = ''): Buffer {
  const items = Array.from({ length: count }, (_, index) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `pod-${index}`, namespace: 'fuzz', resourceVersion: String(10 + index) },
    spec: { note },
  }));
  return Buffer.from(
    JSON.stringify({ apiVersion: 'v1', kind: 'PodList', metadata: { resourceVersion: '99' }, items }),
  );
}

beforeAll(async () => {
  server = http.createServer((request, response) => {
    request.resume();
    const { code, body, truncate } = nextReply;
    response.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': body.length });
    if (truncate) {
      response.write(body.subarray(0, Math.floor(body.length / 2)));
      setImmediate(() => response.destroy());
    } else response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const kubeconfig = [
    'apiVersion: v1',
    'kind: Config',
    'clusters: [{name: fuzz, cluster: {server: "http://127.0.0.1:' + port + '"}}]',
    'users: [{name: fuzz, user: {}}]',
    'contexts: [{name: fuzz, context: {cluster: fuzz, user: fuzz}}]',
    'current-context: fuzz',
  ].join('\n');
  const client = new RestClient(Kubeconfig.fromString(kubeconfig).connect(), { inactivityTimeoutMs: 5_000 });
  listerWatcher = httpListerWatcher(client, pods);
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function list(): Promise<{ items?: unknown[]; error?: Error }> {
  try {
    const result = await listerWatcher.list({}, AbortSignal.timeout(20_000));
    return { items: result.items };
  } catch (error) {
    return { error: error as Error };
  }
}

function expectListOrClearError(outcome: { items?: unknown[]; error?: Error }, input: string): void {
  if (outcome.error) {
    expect(outcome.error, input).toBeInstanceOf(Error);
    expect(outcome.error.message, input).toMatch(/pods/);
    return;
  }
  expect(Array.isArray(outcome.items), input).toBe(true);
  for (const item of outcome.items!) expect(typeof item === 'object' && item !== null, input).toBe(true);
}

describe('LIST decoding under malformed, truncated and huge replies', () => {
  it('mutated JSON yields a list or an error naming the request', async () => {
    const random = seededRandom(91);
    const valid = podList(20);
    for (let iteration = 0; iteration < 80; iteration++) {
      const body = mutateBytes(random, valid);
      nextReply = { code: 200, body };
      expectListOrClearError(await list(), body.toString('utf8').slice(0, 80));
    }
  });

  it('a reply cut off mid-body fails with an error naming the request', async () => {
    nextReply = { code: 200, body: podList(500), truncate: true };
    const outcome = await list();
    expect(outcome.error?.message).toMatch(/pods/);
  });

  it('a proxy error page instead of JSON fails with the status and the request', async () => {
    nextReply = { code: 502, body: Buffer.from('<html><body>Bad Gateway</body></html>') };
    const outcome = await list();
    expect(outcome.error?.message).toMatch(/pods/);
    expect(outcome.error?.message).toMatch(/502|Bad Gateway/);
  });

  it('a 5 MiB list of objects over 1.5 MiB each decodes whole', async () => {
    nextReply = { code: 200, body: podList(3, 'x'.repeat(1.7 * 1024 * 1024)) };
    const outcome = await list();
    expect(outcome.error).toBeUndefined();
    expect(outcome.items).toHaveLength(3);
  });

  /**
   * A reply that parses but is not a list must not reach the Reflector: an array or `metadata: 7`
   * would be taken as an empty list (Replace would delete every cached object), and `items: "oops"`
   * would cache its characters.
   */
  it.each([
    ['null', 'null'],
    ['an array', '[1,2,3]'],
    ['a string', '"PodList"'],
    ['items that is a string', '{"kind":"PodList","metadata":{},"items":"oops"}'],
    ['items holding numbers', '{"kind":"PodList","metadata":{},"items":[1,null]}'],
    ['metadata that is a number', '{"kind":"PodList","metadata":7,"items":[]}'],
  ])('JSON of the wrong shape (%s) is refused with an error naming the request', async (_, body) => {
    nextReply = { code: 200, body: Buffer.from(body) };
    const outcome = await list();
    expect(outcome.error?.message).toMatch(/pods/);
  });
});
