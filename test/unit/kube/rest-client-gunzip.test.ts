// A gzipped reply (a real API server compresses LIST replies over 128 KiB) is inflated in pieces of
// gunzipChunkBytes: each piece comes back through main's event loop before zlib inflates on, so
// zlib's default 16 KiB took 4x the turns of the same reply sent as it is.
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type * as Zlib from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ClusterConnection } from '../../../main/kube/cluster-connection';
import { Kubeconfig } from '../../../main/kube/kubeconfig';
import { RestClient, gunzipChunkBytes } from '../../../main/kube/rest-client';
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
    // Pieces fill up to gunzipChunkBytes (some end short, where a network read's input runs out):
    // fewer than half the 16 KiB pieces the default would make.
    expect(Math.max(...inflated.pieces)).toBe(gunzipChunkBytes);
    expect(inflated.pieces.length).toBeLessThan(total / (16 * 1024) / 2);
  });
});
