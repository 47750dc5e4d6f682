// Browser mode's server (main/app/browser-server.ts), as a hostile neighbour meets it: a bridge
// connection needs the session cookie, which only a one-time launch code buys, and nothing from off
// this machine gets in. The address check
// is exercised both through isLoopbackAddress, the function that decides it, and through the server's
// own upgrade path with a peer address that loopback sockets cannot produce.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startBrowserServer } from '../../main/app/browser-server';
import type { BrowserServer } from '../../main/app/browser-server';
import { isLoopbackAddress } from '../../main/bridge/websocket-server';
import {
  bridgeSubprotocol,
  bridgeWebSocketPath,
  sessionCookieName,
} from '../../shared/protocol/websocket-handshake';

let server: BrowserServer;
let directory: string;
const refusals: string[] = [];
let connections = 0;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'kubetide-ws-'));
  writeFileSync(join(directory, 'index.html'), '<!doctype html><title>Kubetide</title>');
  server = await startBrowserServer({
    rendererDirectory: directory,
    onConnection: (transport) => {
      connections++;
      transport.close('test');
    },
    onRefused: (reason) => refusals.push(reason),
  });
});

afterAll(async () => {
  await server.close();
  rmSync(directory, { recursive: true, force: true });
});

const cookie = (secret: string) => ({ Cookie: `${sessionCookieName(server.port)}=${secret}` });

/** Opens a bridge WebSocket and resolves with the HTTP status of a refusal, or 101 when accepted. */
function attempt(headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${server.port}${bridgeWebSocketPath}`, [bridgeSubprotocol], {
      headers,
    });
    socket.on('open', () => {
      socket.close();
      resolve(101);
    });
    socket.on('unexpected-response', (_request, response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.on('error', (error) => {
      if (!String(error).includes('Unexpected server response')) reject(error);
    });
  });
}

describe('browser-mode WebSocket bridge', () => {
  it('accepts the browser that redeemed a launch code, with the cookie it was given', async () => {
    const launched = await fetch(server.launchUrl(), { redirect: 'manual' });
    expect(launched.status).toBe(303);
    const setCookie = launched.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    const secret = setCookie.split(';')[0].split('=')[1];
    expect(await attempt(cookie(secret))).toBe(101);
    await expect.poll(() => connections).toBe(1);
  });

  it('refuses a connection without the session cookie', async () => {
    expect(await attempt()).toBe(401);
  });

  it('refuses a connection with a wrong or truncated secret', async () => {
    expect(await attempt(cookie('guess'))).toBe(401);
    expect(await attempt(cookie(server.secret.slice(0, -1)))).toBe(401);
  });

  it('refuses the right cookie from another web page, even on a local port (Origin), and through a rebound name (Host)', async () => {
    expect(await attempt({ ...cookie(server.secret), Origin: 'https://evil.example' })).toBe(403);
    expect(await attempt({ ...cookie(server.secret), Origin: `http://127.0.0.1:${server.port + 1}` })).toBe(
      403,
    );
    expect(await attempt({ ...cookie(server.secret), Host: `evil.example:${server.port}` })).toBe(403);
  });

  it('serves the app page only to a browser holding the cookie', async () => {
    expect((await fetch(`http://127.0.0.1:${server.port}/`)).status).toBe(401);
    const page = await fetch(`http://127.0.0.1:${server.port}/`, { headers: cookie(server.secret) });
    expect(page.status).toBe(200);
  });

  it('never serves the secret over plain HTTP', async () => {
    const page = await fetch(`http://127.0.0.1:${server.port}/`);
    expect(await page.text()).not.toContain(server.secret);
  });

  it('decides loopback by address: 127/8 and ::1 (also IPv4-mapped) only', () => {
    for (const address of ['127.0.0.1', '127.255.0.9', '::1', '::ffff:127.0.0.1'])
      expect(isLoopbackAddress(address), address).toBe(true);
    for (const address of [
      '10.0.0.1',
      '192.168.1.20',
      '0.0.0.0',
      '::',
      'fe80::1',
      '::ffff:10.0.0.1',
      '128.0.0.1',
      '127.0.0.1.evil.example',
      '1127.0.0.1',
      '',
      undefined,
    ])
      expect(isLoopbackAddress(address), String(address)).toBe(false);
  });

  it('refuses an upgrade from a non-loopback peer even with the right secret', async () => {
    const socket = new PassThrough();
    let written = '';
    socket.on('data', (chunk: Buffer) => (written += chunk.toString()));
    const request = {
      url: bridgeWebSocketPath,
      method: 'GET',
      headers: {
        host: `127.0.0.1:${server.port}`,
        upgrade: 'websocket',
        connection: 'Upgrade',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        'sec-websocket-protocol': bridgeSubprotocol,
        cookie: `${sessionCookieName(server.port)}=${server.secret}`,
      },
      socket: { remoteAddress: '192.168.1.20', remotePort: 50000 },
    } as unknown as IncomingMessage;
    const before = connections;
    server.server.emit('upgrade', request, socket, Buffer.alloc(0));
    await expect.poll(() => written).toMatch(/^HTTP\/1\.1 403/);
    expect(written).toContain('non-loopback address 192.168.1.20');
    expect(refusals.some((reason) => reason.includes('192.168.1.20'))).toBe(true);
    expect(connections).toBe(before);
  });
});
