// The bridge over WebSocket, for browser mode. The server listens on loopback only and accepts a
// connection only when all of these hold, each refusal answered with an HTTP status and its reason:
//
// - the peer address is loopback (127.0.0.0/8 or ::1), so nothing off this machine can connect even if
//   the listener were misconfigured;
// - the Host header names a loopback host, which defeats DNS rebinding (a hostile page resolving its
//   own name to 127.0.0.1);
// - an Origin, when present, is one of the app's own origins, which stops other web pages open in the
//   user's browser (cross-site WebSocket hijacking);
// - the session cookie (sessionCookieName(port)) carries the per-launch secret, compared in constant
//   time. The secret never appears in a URL or command line: the browser gets the cookie in exchange
//   for a one-time launch code (main/app/browser-server.ts, shared/protocol/websocket-handshake.ts).
//   Other local processes and users can reach a loopback port, but cannot read the browser's
//   HttpOnly cookie, so the secret is what actually authenticates the renderer. The Origin check
//   matters with it: other ports of 127.0.0.1 are the same site to the browser, so SameSite alone
//   would let a page served from another local port send the cookie.
//
// Once accepted, a connection's socket errors (a bad frame, a reset) close that connection only.
//
// Large messages go compressed (RFC 7692 permessage-deflate, negotiated by ws and the browser): a
// listing's batches are ~1.1 MB of JSON text (2,000 rows), and in browser mode every byte crosses
// Chromium's network service and a data pipe into the page. Row JSON repeats field names, labels and
// values, so level-1 deflate makes a batch ~7x smaller; ws deflates on zlib's thread pool, in order,
// and counts what waits for it in bufferedAmount (which the batch streams' backpressure reads); the
// browser inflates in its network stack, off the page's main thread. A bare page took 8 listing
// batches (4.9 MiB) in 3.1-4.0 s as text and 1.7-3.1 s deflated, with less of main's CPU
// (test/bench/README.md). Small messages (sync states, replies) go as they are: deflating them would
// cost more than it saves.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import {
  bridgeSubprotocol,
  bridgeWebSocketPath,
  cookieValue,
  sessionCookieName,
} from '../../shared/protocol/websocket-handshake';
import type { DeltaBatch } from '../../shared/protocol/server-messages';
import { batchBytes } from './batch-bytes';
import type { OutgoingMessage } from './outgoing-message';
import { encodedReplyBytes, isEncodedReply, messageText } from './outgoing-message';
import type { Transport } from './transport';

export interface WebSocketBridgeOptions {
  /** The per-launch session secret (see createLaunchSecret), expected in the session cookie. */
  secret: string;
  /** Receives each authenticated connection. */
  onConnection: (transport: Transport) => void;
  /**
   * Origins allowed besides the server's own loopback origins (e.g. a Vite dev server's). Requests
   * without an Origin (non-browser clients) are judged by the secret alone.
   */
  extraOrigins?: readonly string[];
  /** Largest message accepted from a renderer; larger ones close the connection. */
  maxPayloadBytes?: number;
  /** Told about every refused upgrade, with the reason. */
  onRefused?: (reason: string, request: IncomingMessage) => void;
  /** Where socket errors of accepted connections are reported (default console.warn). */
  log?: (message: string) => void;
}

export interface WebSocketBridge {
  /** Closes every bridge connection (the HTTP server itself is left to its owner). */
  close(): Promise<void>;
}

export interface ListeningWebSocketBridge extends WebSocketBridge {
  readonly port: number;
}

/** 32 random bytes, base64url: a valid cookie value. */
export function createLaunchSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Messages of at least this many bytes are deflated. */
export const compressAboveBytes = 64 * 1024;
/** The most deflated output zlib produces per pass (see attachWebSocketBridge). */
export const deflateChunkBytes = 1024 * 1024;

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const unmapped = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return unmapped === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(unmapped);
}

function hostName(hostHeader: string | undefined): string | undefined {
  if (!hostHeader) return undefined;
  const match = /^(\[[^\]]+\]|[^:]+)(?::\d+)?$/.exec(hostHeader);
  return match?.[1].toLowerCase();
}

function secretsEqual(offered: string | undefined, expected: string): boolean {
  if (offered === undefined) return false;
  const left = Buffer.from(offered);
  const right = Buffer.from(expected);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Why an upgrade must be refused, with the HTTP status to answer; undefined to accept. */
function refusal(
  request: IncomingMessage,
  options: WebSocketBridgeOptions,
  ownPort: () => number | undefined,
): { status: number; reason: string } | undefined {
  const path = (request.url ?? '').split('?')[0];
  if (path !== bridgeWebSocketPath) return { status: 404, reason: `no bridge endpoint at ${path}` };
  if (!isLoopbackAddress(request.socket.remoteAddress)) {
    return { status: 403, reason: `connection from non-loopback address ${request.socket.remoteAddress}` };
  }
  const host = hostName(request.headers.host);
  if (!host || !loopbackHosts.has(host))
    return { status: 403, reason: `Host ${request.headers.host} is not loopback` };
  const origin = request.headers.origin;
  if (origin !== undefined) {
    const port = ownPort();
    const own = [...loopbackHosts].map((name) => `http://${name}:${port}`);
    if (!own.includes(origin) && !(options.extraOrigins ?? []).includes(origin)) {
      return { status: 403, reason: `Origin ${origin} is not the Kubetide UI` };
    }
  }
  const secret = cookieValue(request.headers.cookie, sessionCookieName(ownPort() ?? 0));
  if (secret === undefined) return { status: 401, reason: 'no session cookie offered' };
  if (!secretsEqual(secret, options.secret)) return { status: 401, reason: 'wrong session secret' };
  return undefined;
}

function webSocketTransport(
  socket: WebSocket,
  description: string,
  log: (message: string) => void,
): Transport {
  // A bad frame (invalid UTF-8, a reserved opcode, a payload over maxPayload) or a reset peer surfaces
  // as 'error' on this socket; ws then closes it (1007, 1002, 1009). Without a listener the error
  // would be thrown and take main down with every other connection.
  socket.on('error', (error) => log(`${description}: ${error.message}; closing this connection`));
  return {
    description,
    send(message: OutgoingMessage) {
      if (socket.readyState !== socket.OPEN) return;
      // A batch of rows goes as the bytes of its text (batch-bytes.ts: cheaper than ws converting a
      // 1 MB string), still a text frame; encoded rows are written into the text as they are, never
      // parsed here.
      if (message.type === 'batch' && Array.isArray(message.upserts))
        socket.send(batchBytes(message as DeltaBatch), { binary: false });
      // A value serialized in a worker goes as its bytes too (see EncodedValue).
      else if (isEncodedReply(message)) socket.send(encodedReplyBytes(message), { binary: false });
      else socket.send(messageText(message));
    },
    onMessage(listener) {
      socket.removeAllListeners('message');
      socket.on('message', (data, isBinary) => {
        if (isBinary) {
          listener({ unreadable: 'binary frame' });
          return;
        }
        let parsed: unknown;
        try {
          parsed = JSON.parse(data.toString());
        } catch {
          parsed = { unreadable: 'invalid JSON' };
        }
        listener(parsed);
      });
    },
    onClose(listener) {
      socket.once('close', (code, reason) =>
        listener(`closed (${code}${reason.length ? ` ${reason}` : ''})`),
      );
    },
    // Includes messages still waiting for deflate: the batch streams' backpressure reads it.
    bufferedAmount: () => socket.bufferedAmount,
    close(reason = 'closed by main') {
      // Frames still arriving are not even parsed: a flood the bridge gave up on costs nothing more.
      socket.removeAllListeners('message');
      socket.close(1000, reason.slice(0, 120));
    },
  };
}

/** Serves the bridge on `server`'s upgrade requests for bridgeWebSocketPath. */
export function attachWebSocketBridge(server: Server, options: WebSocketBridgeOptions): WebSocketBridge {
  const sockets = new WebSocketServer({
    noServer: true,
    // The largest legitimate message is a hello resuming every subscription (a few KiB); 1 MiB leaves
    // room for any future request while bounding what one frame can make main buffer and parse.
    // With compression it bounds the inflated size too: ws stops inflating past it (1009).
    maxPayload: options.maxPayloadBytes ?? 1024 * 1024,
    perMessageDeflate: {
      threshold: compressAboveBytes,
      // Output in chunks of up to 1 MiB: zlib hands each chunk of output back through main's event loop
      // before deflating on, so at its default 16 KiB an 8 MB reply (a past moment's metrics at 150,000
      // pods, ~1.5 MB deflated) took ~100 turns of a loop busy with the informers: 0.7-0.9 s, every
      // message sent after it (a playback's rows and cursor) waiting behind it. With 1 MiB, two turns.
      zlibDeflateOptions: { level: 1, chunkSize: deflateChunkBytes },
      // Each message deflated alone: ws applies the threshold only then (with a shared window it
      // deflates every message, so each small reply would wait for a zlib thread-pool round trip), and
      // a 1 MB batch holds enough repetition of its own.
      serverNoContextTakeover: true,
      // The renderer's messages are small requests: no inflate window is kept between them, so a
      // peer cannot make main hold compression state across messages.
      clientNoContextTakeover: true,
    },
    handleProtocols: (offered) => (offered.has(bridgeSubprotocol) ? bridgeSubprotocol : false),
  });
  const ownPort = () => (server.address() as AddressInfo | null)?.port;
  const log = options.log ?? console.warn;
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    // The peer may reset the connection at any moment, before or while we answer it: an unhandled
    // 'error' (ECONNRESET, EPIPE) on this socket would end the whole process.
    socket.on('error', () => socket.destroy());
    const refused = refusal(request, options, ownPort);
    if (refused) {
      options.onRefused?.(refused.reason, request);
      socket.end(
        `HTTP/1.1 ${refused.status} ${refused.status === 401 ? 'Unauthorized' : refused.status === 404 ? 'Not Found' : 'Forbidden'}\r\n` +
          `Connection: close\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(refused.reason)}\r\n\r\n` +
          refused.reason,
      );
      return;
    }
    sockets.handleUpgrade(request, socket, head, (webSocket) => {
      const peer = `ws ${request.socket.remoteAddress}:${request.socket.remotePort}`;
      options.onConnection(webSocketTransport(webSocket, peer, log));
    });
  };
  server.on('upgrade', onUpgrade);
  return {
    close: () =>
      new Promise((resolve) => {
        server.off('upgrade', onUpgrade);
        for (const client of sockets.clients) client.terminate();
        sockets.close(() => resolve());
      }),
  };
}

/**
 * A bridge server of its own on 127.0.0.1 (port 0: any free port). Plain HTTP requests get 404; the
 * browser-mode server that also serves the UI uses attachWebSocketBridge on its own server instead.
 */
export async function listenWebSocketBridge(
  options: WebSocketBridgeOptions & { port?: number },
): Promise<ListeningWebSocketBridge> {
  const server = createServer((_request, response) => {
    response.writeHead(404).end();
  });
  const bridge = attachWebSocketBridge(server, options);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    close: async () => {
      await bridge.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
