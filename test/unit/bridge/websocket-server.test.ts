import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  createLaunchSecret,
  isLoopbackAddress,
  listenWebSocketBridge,
} from '../../../main/bridge/websocket-server';
import type { ListeningWebSocketBridge } from '../../../main/bridge/websocket-server';
import type { Transport } from '../../../main/bridge/transport';
import { bridgeSubprotocol, sessionCookieName } from '../../../shared/protocol/websocket-handshake';

/** The session cookie a browser opened by main would send. */
const cookie = (port: number, secret: string) => ({ Cookie: `${sessionCookieName(port)}=${secret}` });

const open: ListeningWebSocketBridge[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((bridge) => bridge.close()));
});

async function bridge(secret: string) {
  const connections: Transport[] = [];
  const refused: string[] = [];
  const server = await listenWebSocketBridge({
    secret,
    onConnection: (transport) => connections.push(transport),
    onRefused: (reason) => refused.push(reason),
  });
  open.push(server);
  return { server, connections, refused };
}

/** Resolves with the accepted subprotocol, or the HTTP status of the refusal. */
function connect(url: string, protocols: string[], headers: Record<string, string> = {}) {
  return new Promise<{ protocol?: string; status?: number; socket: WebSocket }>((resolve) => {
    const socket = new WebSocket(url, protocols, { headers });
    socket.on('open', () => resolve({ protocol: socket.protocol, socket }));
    socket.on('unexpected-response', (_request, response) => {
      resolve({ status: response.statusCode, socket });
      response.resume();
    });
    socket.on('error', () => {});
  });
}

describe('WebSocket bridge server', () => {
  it('accepts the right secret, selecting the bridge subprotocol without echoing the secret', async () => {
    const secret = createLaunchSecret();
    const { server, connections } = await bridge(secret);
    const result = await connect(
      `ws://127.0.0.1:${server.port}/bridge`,
      [bridgeSubprotocol],
      cookie(server.port, secret),
    );
    expect(result.protocol).toBe(bridgeSubprotocol);
    expect(connections).toHaveLength(1);
    result.socket.close();
  });

  it('refuses a wrong secret with 401', async () => {
    const { server, connections, refused } = await bridge(createLaunchSecret());
    const result = await connect(
      `ws://127.0.0.1:${server.port}/bridge`,
      [bridgeSubprotocol],
      cookie(server.port, createLaunchSecret()),
    );
    expect(result.status).toBe(401);
    expect(refused).toEqual(['wrong session secret']);
    expect(connections).toHaveLength(0);
  });

  it('refuses a missing secret with 401', async () => {
    const { server, refused } = await bridge(createLaunchSecret());
    const result = await connect(`ws://127.0.0.1:${server.port}/bridge`, [bridgeSubprotocol]);
    expect(result.status).toBe(401);
    expect(refused).toEqual(['no session cookie offered']);
  });

  it('refuses a foreign Origin even with the right secret', async () => {
    const secret = createLaunchSecret();
    const { server, refused } = await bridge(secret);
    const result = await connect(`ws://127.0.0.1:${server.port}/bridge`, [bridgeSubprotocol], {
      ...cookie(server.port, secret),
      Origin: 'https://evil.example',
    });
    expect(result.status).toBe(403);
    expect(refused[0]).toMatch(/Origin https:\/\/evil.example/);
  });

  it('accepts its own loopback origin', async () => {
    const secret = createLaunchSecret();
    const { server } = await bridge(secret);
    const result = await connect(`ws://127.0.0.1:${server.port}/bridge`, [bridgeSubprotocol], {
      ...cookie(server.port, secret),
      Origin: `http://127.0.0.1:${server.port}`,
    });
    expect(result.protocol).toBe(bridgeSubprotocol);
    result.socket.close();
  });

  it('refuses a non-loopback Host header (DNS rebinding)', async () => {
    const secret = createLaunchSecret();
    const { server } = await bridge(secret);
    const result = await connect(`ws://127.0.0.1:${server.port}/bridge`, [bridgeSubprotocol], {
      ...cookie(server.port, secret),
      Host: `rebind.example:${server.port}`,
    });
    expect(result.status).toBe(403);
  });

  it('carries JSON messages both ways once connected', async () => {
    const secret = createLaunchSecret();
    const { server, connections } = await bridge(secret);
    const result = await connect(
      `ws://127.0.0.1:${server.port}/bridge`,
      [bridgeSubprotocol],
      cookie(server.port, secret),
    );
    const received = new Promise<unknown>((resolve) => connections[0].onMessage(resolve));
    const echoed = new Promise<unknown>((resolve) =>
      result.socket.once('message', (data) => resolve(JSON.parse(String(data)))),
    );
    result.socket.send(JSON.stringify({ type: 'listContexts', requestId: 1 }));
    expect(await received).toEqual({ type: 'listContexts', requestId: 1 });
    connections[0].send({ type: 'rejected', reason: 'just testing' });
    expect(await echoed).toEqual({ type: 'rejected', reason: 'just testing' });
    result.socket.close();
  });

  it('recognises loopback addresses only', () => {
    expect(['127.0.0.1', '127.8.0.1', '::1', '::ffff:127.0.0.1'].every(isLoopbackAddress)).toBe(true);
    expect(['10.0.0.1', '::ffff:192.168.1.2', '', undefined].some(isLoopbackAddress)).toBe(false);
  });
});
