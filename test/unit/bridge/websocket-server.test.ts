import { randomBytes } from 'node:crypto';
import { connect as connectTcp } from 'node:net';
import zlib, { constants, inflateRawSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import {
  compressAboveBytes,
  createLaunchSecret,
  deflateChunkBytes,
  isLoopbackAddress,
  listenWebSocketBridge,
} from '../../../main/bridge/websocket-server';
import type { ListeningWebSocketBridge } from '../../../main/bridge/websocket-server';
import type { Transport } from '../../../main/bridge/transport';
import { bridgeSubprotocol, sessionCookieName } from '../../../shared/protocol/websocket-handshake';
import type { DeltaBatch } from '../../../shared/protocol/server-messages';
import { row } from './fixtures';
import { serverMessageOf } from '../../../renderer/transport/websocket-link';
import { EncodedValue, jsonBytes } from '../../../main/bridge/encoded-value';

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

/** Frames of the server's first `count` messages as a browser offering permessage-deflate reads them. */
async function rawFrames(port: number, secret: string, count: number, afterOpen: () => void) {
  const socket = connectTcp(port, '127.0.0.1');
  const key = randomBytes(16).toString('base64');
  socket.write(
    [
      'GET /bridge HTTP/1.1',
      `Host: 127.0.0.1:${port}`,
      'Upgrade: websocket',
      'Connection: Upgrade',
      `Sec-WebSocket-Key: ${key}`,
      'Sec-WebSocket-Version: 13',
      `Sec-WebSocket-Protocol: ${bridgeSubprotocol}`,
      // What Chromium offers.
      'Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits',
      `Cookie: ${sessionCookieName(port)}=${secret}`,
      '',
      '',
    ].join('\r\n'),
  );
  let buffer = Buffer.alloc(0);
  let head: string | undefined;
  const frames: { first: number; payload: Buffer }[] = [];
  await new Promise<void>((resolve, reject) => {
    socket.on('error', reject);
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (head === undefined) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        head = buffer.subarray(0, end).toString();
        buffer = buffer.subarray(end + 4);
        afterOpen();
      }
      // Unmasked server frames: 7-bit, 16-bit or 64-bit payload lengths.
      while (buffer.length >= 2) {
        let length = buffer[1] & 0x7f;
        let offset = 2;
        if (length === 126) [length, offset] = [buffer.readUInt16BE(2), 4];
        else if (length === 127) [length, offset] = [Number(buffer.readBigUInt64BE(2)), 10];
        if (buffer.length < offset + length) return;
        frames.push({ first: buffer[0], payload: buffer.subarray(offset, offset + length) });
        buffer = buffer.subarray(offset + length);
      }
      if (frames.length >= count) resolve();
    });
  });
  socket.destroy();
  return { head: head ?? '', frames };
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

  it('sends large messages compressed (permessage-deflate) and small ones as they are, in order', async () => {
    const secret = createLaunchSecret();
    const { server, connections } = await bridge(secret);
    const large = { type: 'rejected' as const, reason: 'row '.repeat(compressAboveBytes / 2) };
    const small = { type: 'rejected' as const, reason: 'small' };
    const buffered: number[] = [];
    const { head, frames } = await rawFrames(server.port, secret, 3, () => {
      connections[0].send(small);
      connections[0].send(large);
      // Text waiting for deflate counts as buffered: the batch streams' backpressure reads it.
      buffered.push(connections[0].bufferedAmount?.() ?? 0);
      connections[0].send(small);
    });
    expect(head).toMatch(/sec-websocket-extensions: permessage-deflate/i);
    expect(buffered[0]).toBeGreaterThanOrEqual(JSON.stringify(large).length);
    // FIN + text; the large one with RSV1 (compressed), much smaller than its text.
    expect(frames.map((frame) => frame.first)).toEqual([0x81, 0xc1, 0x81]);
    expect(frames[1].payload.length).toBeLessThan(JSON.stringify(large).length / 20);
    // RFC 7692: the message is a sync-flushed deflate stream without its 00 00 FF FF tail.
    const inflated = inflateRawSync(Buffer.concat([frames[1].payload, Buffer.from([0, 0, 0xff, 0xff])]), {
      finishFlush: constants.Z_SYNC_FLUSH,
    });
    expect(JSON.parse(inflated.toString())).toEqual(large);
    expect(JSON.parse(frames[2].payload.toString())).toEqual(small);
  });

  it("deflates a large message in a few passes of zlib's thread pool, each a turn of main's loop, not one per 16 KiB", async () => {
    // Each pass's output comes back through main's event loop before zlib deflates on: at 16 KiB a
    // pass, an 8 MB reply took ~100 turns of a busy loop, every message after it waiting.
    const passes: number[] = [];
    const create = zlib.createDeflateRaw;
    const spy = vi.spyOn(zlib, 'createDeflateRaw').mockImplementation((options) => {
      const stream = create(options);
      stream.on('data', (chunk: Buffer) => passes.push(chunk.length));
      return stream;
    });
    try {
      const secret = createLaunchSecret();
      const { server, connections } = await bridge(secret);
      // Random text: deflated to ~3/4 of its size, some 2.3 MB of output.
      const large = { type: 'rejected' as const, reason: randomBytes(2_250_000).toString('base64') };
      const { frames } = await rawFrames(server.port, secret, 1, () => connections[0].send(large));
      expect(frames[0].first).toBe(0xc1);
      const deflated = passes.reduce((sum, length) => sum + length, 0);
      expect(deflated).toBeGreaterThan(2 * 1024 * 1024);
      expect(passes.length).toBeLessThanOrEqual(Math.ceil(deflated / deflateChunkBytes) + 1);
      const inflated = inflateRawSync(Buffer.concat([frames[0].payload, Buffer.from([0, 0, 0xff, 0xff])]), {
        finishFlush: constants.Z_SYNC_FLUSH,
      });
      expect(JSON.parse(inflated.toString())).toEqual(large);
    } finally {
      spy.mockRestore();
    }
  });

  it('sends a batch of rows as a text frame of its JSON (rows as tuples), compressed when large', async () => {
    const secret = createLaunchSecret();
    const { server, connections } = await bridge(secret);
    // Over compressAboveBytes as tuples (~90 bytes a row here).
    const upserts = Array.from({ length: 1_000 }, (_, index) =>
      row(`ns/pod-${index}`, String(index), { labels: { app: 'caf\u00e9 \u2638' } }),
    );
    const large: DeltaBatch = { type: 'batch', subscriptionId: 's1', seq: 1, upserts, deletes: [] };
    const small: DeltaBatch = { ...large, seq: 2, upserts: upserts.slice(0, 1), deletes: ['ns/gone'] };
    const { frames } = await rawFrames(server.port, secret, 2, () => {
      connections[0].send(large);
      connections[0].send(small);
    });
    // Text frames (opcode 1), never binary ones: the page parses text.
    expect(frames.map((frame) => frame.first)).toEqual([0xc1, 0x81]);
    const inflated = inflateRawSync(Buffer.concat([frames[0].payload, Buffer.from([0, 0, 0xff, 0xff])]), {
      finishFlush: constants.Z_SYNC_FLUSH,
    });
    expect(serverMessageOf(inflated.toString())).toEqual(large);
    expect(serverMessageOf(frames[1].payload.toString())).toEqual(small);
  });

  it('sends a reply whose value a worker serialized as its bytes, in a text frame the page reads as the reply', async () => {
    const secret = createLaunchSecret();
    const { server, connections } = await bridge(secret);
    const value = {
      timestamp: 5,
      windowMs: 15_000,
      keys: ['ns/caf\u00e9-1', 'ns/web-2'],
      cpu: [0.25, 1],
      memory: [1, 2],
    };
    const { frames } = await rawFrames(server.port, secret, 1, () =>
      connections[0].send({
        type: 'reply',
        requestId: 9,
        ok: true,
        value: new EncodedValue(jsonBytes(value)),
      }),
    );
    expect(frames.map((frame) => frame.first)).toEqual([0x81]);
    expect(serverMessageOf(frames[0].payload.toString())).toEqual({
      type: 'reply',
      requestId: 9,
      ok: true,
      value,
    });
  });

  it('closes a connection whose compressed message inflates past the payload limit (1009)', async () => {
    const secret = createLaunchSecret();
    const { server, connections } = await bridge(secret);
    const result = await connect(
      `ws://127.0.0.1:${server.port}/bridge`,
      [bridgeSubprotocol],
      cookie(server.port, secret),
    );
    expect(result.socket.extensions).toMatch(/permessage-deflate/);
    const received: unknown[] = [];
    connections[0].onMessage((message) => received.push(message));
    const closed = new Promise<number>((resolve) => result.socket.once('close', resolve));
    // 8 MiB of one character deflates to a few KiB on the wire.
    result.socket.send(`"${'a'.repeat(8 * 1024 * 1024)}"`, { compress: true });
    expect(await closed).toBe(1009);
    expect(received).toEqual([]);
  });

  it('recognises loopback addresses only', () => {
    expect(['127.0.0.1', '127.8.0.1', '::1', '::ffff:127.0.0.1'].every(isLoopbackAddress)).toBe(true);
    expect(['10.0.0.1', '::ffff:192.168.1.2', '', undefined].some(isLoopbackAddress)).toBe(false);
  });
});
