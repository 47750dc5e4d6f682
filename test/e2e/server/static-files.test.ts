import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { staticFileHandler } from '../../../main/app/static-files';

let folder: string;
let server: Server;
let port: number;

function get(
  path: string,
  method = 'GET',
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, path, method }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

beforeAll(async () => {
  const root = mkdtempSync(join(tmpdir(), 'kubetide-static-'));
  folder = join(root, 'renderer');
  mkdirSync(join(folder, 'assets'), { recursive: true });
  writeFileSync(join(folder, 'index.html'), '<!doctype html><title>Kubetide</title>');
  writeFileSync(join(folder, 'assets', 'app.js'), 'export {};');
  writeFileSync(join(root, 'secret.txt'), 'outside');
  server = createServer(staticFileHandler(folder));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(join(folder, '..'), { recursive: true, force: true });
});

describe('staticFileHandler', () => {
  it('serves index.html at / with the CSP and anti-framing headers', async () => {
    const response = await get('/');
    expect(response.status).toBe(200);
    expect(response.body).toContain('Kubetide');
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves assets with their content type', async () => {
    const response = await get('/assets/app.js');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/javascript/);
  });

  it("sends the page's assets from memory, read when the handler was made, and others from disk", async () => {
    // Read before any request: the script is sent in one write, never in reads that each wait for a
    // turn of the informers' busy event loop.
    rmSync(join(folder, 'assets', 'app.js'));
    const kept = await get('/assets/app.js');
    expect(kept.status).toBe(200);
    expect(kept.body).toBe('export {};');
    expect(kept.headers['content-length']).toBe('10');
    expect(kept.headers['cache-control']).toContain('immutable');
    expect(kept.headers['content-security-policy']).toContain("script-src 'self'");
    expect((await get('/assets/app.js', 'HEAD')).body).toBe('');
    // A file written after (a rebuild's new name) is read from disk.
    writeFileSync(join(folder, 'assets', 'later.js'), 'export const later = 1;');
    expect((await get('/assets/later.js')).body).toBe('export const later = 1;');
    writeFileSync(join(folder, 'assets', 'app.js'), 'export {};');
  });

  it('never serves a file outside its folder', async () => {
    expect((await get('/../secret.txt')).status).toBe(404);
    expect((await get('/%2e%2e/secret.txt')).status).toBe(404);
    expect((await get('/assets/..%2f..%2fsecret.txt')).status).toBe(404);
  });

  it('answers only GET and HEAD', async () => {
    const response = await get('/', 'POST');
    expect(response.status).toBe(405);
    expect(response.headers['content-security-policy']).toBeDefined();
  });
});
