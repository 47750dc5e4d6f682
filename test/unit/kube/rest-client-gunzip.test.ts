// A gzipped reply (a real API server compresses LIST replies over 128 KiB) is inflated in pieces of
// up to gunzipChunkBytes: each piece comes back through main's event loop before zlib inflates on, so
// zlib's default 16 KiB took 4x the turns of the same reply sent as it is, and pieces of the decoder's
// own size left inflating and decoding taking turns. A LIST's decoder is still handed sinkPieceBytes
// at a time, one piece a task, as from a reply sent plain.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type * as Zlib from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ClusterConnection } from '../../../main/kube/cluster-connection';
import { Kubeconfig } from '../../../main/kube/kubeconfig';
import { ListReplyDecoder } from '../../../main/kube/list-reply-decoder';
import { RestClient, gunzipChunkBytes, sinkPieceBytes } from '../../../main/kube/rest-client';
import { kubeconfigYaml, startServer } from './local-server';
import type { LocalServer } from './local-server';

const inflated = vi.hoisted(() => ({ pieces: [] as number[] }));
vi.mock('node:zlib', async (importOriginal) => {
  const original = await importOriginal<typeof Zlib>();
  return {
    ...original,
    createGunzip: (options?: Zlib.ZlibOptions) => {
      const gunzip = original.createGunzip(options);
      gunzip.on('data', (piece: Buffer) => inflated.pieces.push(piece.length));
      return gunzip;
    },
  };
});

let server: LocalServer | undefined;
let connection: ClusterConnection | undefined;
afterEach(async () => {
  inflated.pieces.length = 0;
  connection?.close();
  await server?.close();
});

describe('a gzipped reply', () => {
  it('is inflated in pieces of up to gunzipChunkBytes, not 16 KiB ones', async () => {
    // Names that do not repeat: a reply of about 2 MB that gzip shrinks by a third at most.
    const items = Array.from({ length: 20_000 }, () => ({
      metadata: { name: randomBytes(48).toString('hex') },
    }));
    server = await startServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
      response.end(gzipSync(JSON.stringify({ items })));
    });
    connection = Kubeconfig.fromString(kubeconfigYaml(server.url, { token: 'secret-token' })).connect();
    const client = new RestClient(connection);
    const list = await client.json<{ items: unknown[] }>({
      path: '/api/v1/pods',
      description: { verb: 'list', resource: 'pods', namespace: '' },
    });
    expect(list.items).toEqual(items);
    const total = inflated.pieces.reduce((sum, length) => sum + length, 0);
    expect(total).toBeGreaterThan(2_000_000);
    // Fewer than half the 16 KiB pieces zlib's default would make, whatever the input's ratio.
    expect(inflated.pieces.length).toBeLessThan(total / (16 * 1024) / 2);
  });

  it("is handed to a LIST's decoder in sinkPieceBytes pieces, one a task, from fewer inflated handovers", async () => {
    // A LIST as an API server's is: ~10x smaller gzipped, so a network read inflates to more than a piece.
    const items = Array.from({ length: 20_000 }, (_, index) => ({
      metadata: { name: `web-${index}`, namespace: 'default', labels: { app: 'web', tier: 'frontend' } },
      spec: { containers: [{ name: 'web', image: 'nginx:1.25', ports: [{ containerPort: 8080 }] }] },
    }));
    server = await startServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
      response.end(gzipSync(JSON.stringify({ items })));
    });
    connection = Kubeconfig.fromString(kubeconfigYaml(server.url, { token: 'secret-token' })).connect();
    const client = new RestClient(connection);
    const pushed: number[] = [];
    let taskPassed = true;
    let sameTask = 0;
    const push = ListReplyDecoder.prototype.push;
    const spy = vi.spyOn(ListReplyDecoder.prototype, 'push').mockImplementation(function (
      this: ListReplyDecoder,
      chunk: Buffer,
    ) {
      pushed.push(chunk.length);
      if (!taskPassed) sameTask++;
      taskPassed = false;
      setImmediate(() => (taskPassed = true));
      return push.call(this, chunk);
    });
    try {
      const list = await client.list<{ items: unknown[] }>({
        path: '/api/v1/pods',
        description: { verb: 'list', resource: 'pods', namespace: '' },
      });
      expect(list.items).toEqual(items);
    } finally {
      spy.mockRestore();
    }
    const total = pushed.reduce((sum, length) => sum + length, 0);
    expect(total).toBeGreaterThan(3_000_000);
    expect(Math.max(...pushed)).toBe(sinkPieceBytes);
    expect(sameTask).toBe(0);
    // zlib handed its output back in pieces of up to gunzipChunkBytes: a quarter of the handovers
    // (each a round trip through main's loop) that pieces of the decoder's size would take.
    expect(Math.max(...inflated.pieces)).toBe(gunzipChunkBytes);
    expect(inflated.pieces.length).toBeLessThan(total / sinkPieceBytes / 2);
  });
});

describe("the cluster's disable-compression", () => {
  /** The Accept-Encoding of a LIST sent under a kubeconfig with `cluster`'s settings, from files merged. */
  async function acceptEncoding(cluster: Record<string, unknown>): Promise<string | undefined> {
    let seen: string | undefined;
    server = await startServer((request, response) => {
      seen = request.headers['accept-encoding'];
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ items: [] }));
    });
    const folder = mkdtempSync(join(tmpdir(), 'kubetide-compression-'));
    try {
      // Read as files are, merged with a second file as KUBECONFIG lists them.
      const first = join(folder, 'first');
      const second = join(folder, 'second');
      writeFileSync(first, kubeconfigYaml(server.url, { token: 't' }, cluster));
      writeFileSync(second, kubeconfigYaml('https://other.example', { token: 'u' }));
      connection = Kubeconfig.fromFiles([first, second]).connect();
      await new RestClient(connection).list({
        path: '/api/v1/pods',
        description: { verb: 'list', resource: 'pods' },
      });
      return seen;
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }

  it('asks for gzip by default, and not when the kubeconfig disables compression', async () => {
    expect(await acceptEncoding({})).toBe('gzip');
    connection?.close();
    await server?.close();
    expect(await acceptEncoding({ 'disable-compression': true })).toBeUndefined();
  });
});
