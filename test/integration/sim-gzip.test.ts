// The embedded cluster compressing as kube-apiserver does (compressResponses): a LIST over 128 KiB
// gzipped at level 1 for a client that accepts gzip, a smaller one and a watch plain. Against it,
// unmodified kubectl and Kubetide's informer over TLS and HTTP/2 (a real cluster's transport) read
// the same pods as the cluster holds, and the cluster counts their replies gzipped: a client that
// stopped asking for gzip, or read a gzipped reply wrong, fails here.
import http from 'node:http';
import https from 'node:https';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SharedIndexInformer } from '../../main/cache/shared-informer';
import { Kubeconfig } from '../../main/kube/kubeconfig';
import { httpListerWatcher } from '../../main/kube/lister-watcher';
import { RestClient } from '../../main/kube/rest-client';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import { acceptsGzip, gzipThresholdBytes } from '../../main/sim/response-compression';
import type { KubeList, KubeObject } from '../../shared/kube/object';
import type { KubectlHarness } from './kubectl-harness';
import { kubectlHarness } from './kubectl-harness';

interface Reply {
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * GET as the administrator (a request without credentials is one), over HTTP/1.1 (TLS trusting the
 * cluster's CA when it serves TLS); the body as it came, not inflated.
 */
function get(cluster: EmbeddedCluster, path: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const url = `${cluster.url}${path}`;
    const request = (cluster.certificateAuthority ? https : http).get(
      url,
      { headers, ...(cluster.certificateAuthority ? { ca: cluster.certificateAuthority } : {}) },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
  });
}

async function compressedResponses(cluster: EmbeddedCluster): Promise<number> {
  const { body } = await get(cluster, '/_sim/stats');
  return (JSON.parse(body.toString('utf8')) as { compressedResponses: number }).compressedResponses;
}

describe('acceptsGzip', () => {
  it('reads Accept-Encoding as HTTP does: listed, any case, not refused with q=0', () => {
    expect(acceptsGzip('gzip')).toBe(true);
    expect(acceptsGzip('deflate, GZIP;q=0.5')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('identity')).toBe(false);
    expect(acceptsGzip('x-gzip-like')).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
  });
});

describe('an embedded cluster over plain HTTP that compresses', () => {
  let cluster: EmbeddedCluster;
  beforeAll(async () => {
    cluster = await startEmbeddedCluster({
      seed: 8,
      pods: 300,
      namespaces: 3,
      simulate: false,
      compressResponses: true,
    });
  });
  afterAll(async () => {
    await cluster?.close();
  });

  it('gzips a LIST over 128 KiB for a client that accepts gzip, the same JSON as it sends plain', async () => {
    const plain = await get(cluster, '/api/v1/pods');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(gzipThresholdBytes);
    const before = await compressedResponses(cluster);
    const gzipped = await get(cluster, '/api/v1/pods', { 'Accept-Encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.vary).toBe('Accept-Encoding');
    expect(gzipped.body.length).toBeLessThan(plain.body.length / 4);
    expect(gunzipSync(gzipped.body).toString('utf8')).toBe(plain.body.toString('utf8'));
    expect(await compressedResponses(cluster)).toBe(before + 1);
    // Refused with q=0: plain.
    const refused = await get(cluster, '/api/v1/pods', { 'Accept-Encoding': 'gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
  });

  it('sends a list of 128 KiB or less plain, and a page of a big one gzipped', async () => {
    const small = await get(cluster, '/api/v1/namespaces', { 'Accept-Encoding': 'gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect((JSON.parse(small.body.toString('utf8')) as KubeList).items.length).toBeGreaterThan(3);
    const page = await get(cluster, '/api/v1/pods?limit=100', { 'Accept-Encoding': 'gzip' });
    expect(page.headers['content-encoding']).toBe('gzip');
    const list = JSON.parse(gunzipSync(page.body).toString('utf8')) as KubeList;
    expect(list.items).toHaveLength(100);
    expect(list.metadata.continue).toBeTruthy();
  });

  it('never compresses a watch', async () => {
    const watched = await new Promise<http.IncomingHttpHeaders>((resolve, reject) => {
      const request = http.get(
        `${cluster.url}/api/v1/pods?watch=true&timeoutSeconds=1`,
        { headers: { 'Accept-Encoding': 'gzip' } },
        (response) => {
          resolve(response.headers);
          response.resume();
        },
      );
      request.on('error', reject);
    });
    expect(watched['content-encoding']).toBeUndefined();
  });
});

describe('clients of a compressing cluster over TLS and HTTP/2', () => {
  let cluster: EmbeddedCluster;
  let harness: KubectlHarness;
  beforeAll(async () => {
    cluster = await startEmbeddedCluster({
      tls: true,
      seed: 9,
      pods: 400,
      namespaces: 3,
      simulate: false,
      compressResponses: true,
    });
    harness = kubectlHarness(cluster);
  });
  afterAll(async () => {
    harness?.close();
    await cluster?.close();
  });

  it("kubectl reads every pod from a gzipped LIST, as objects and as the server's table", async () => {
    const before = await compressedResponses(cluster);
    // JSONPath over the objects themselves: kubectl asks for the full list, not the server's table.
    const names = await harness.kubectl(['get', 'pods', '-A', '-o', 'jsonpath={.items[*].metadata.name}']);
    expect(names.trim().split(' ')).toHaveLength(cluster.store.count('pods'));
    const [, ...rows] = (await harness.kubectl(['get', 'pods', '-A'])).trim().split('\n');
    expect(rows).toHaveLength(cluster.store.count('pods'));
    expect(await compressedResponses(cluster)).toBeGreaterThanOrEqual(before + 2);
  });

  it("Kubetide's informer syncs the same pods, resourceVersion for resourceVersion, from a gzipped LIST", async () => {
    const connection = Kubeconfig.fromString(cluster.kubeconfigYaml()).connect();
    const client = new RestClient(connection);
    const before = await compressedResponses(cluster);
    const informer = new SharedIndexInformer<KubeObject>({
      name: 'gzip pods',
      listerWatcher: httpListerWatcher(client, { group: '', version: 'v1', resource: 'pods' }),
    });
    const stop = new AbortController();
    const running = informer.run(stop.signal);
    try {
      await expect.poll(() => informer.hasSynced(), { timeout: 15_000 }).toBe(true);
      const cached = new Map(
        informer
          .getIndexer()
          .list()
          .map((pod) => [pod.metadata.uid, pod.metadata.resourceVersion]),
      );
      const served = [...cluster.store.values('pods')].map((stored) => stored.object);
      expect(cached.size).toBe(served.length);
      for (const pod of served) expect(cached.get(pod.metadata.uid)).toBe(pod.metadata.resourceVersion);
      expect(await compressedResponses(cluster)).toBeGreaterThanOrEqual(before + 1);
    } finally {
      stop.abort();
      await running;
      connection.close();
    }
  });
});
