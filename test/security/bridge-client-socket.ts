// A raw bridge client for the adversarial tests: a WebSocket to browser mode's server carrying the
// session cookie (obtained the way a browser obtains it, by redeeming a launch code), with helpers to
// send protocol messages, await replies and write hand-made frames.
import type { Socket } from 'node:net';
import WebSocket from 'ws';
import type { BrowserServer } from '../../main/app/browser-server';
import type { ReplyMessage, ServerMessage } from '../../shared/protocol/server-messages';
import { bridgeSubprotocol, bridgeWebSocketPath } from '../../shared/protocol/websocket-handshake';
import { serverMessageOf } from '../../renderer/transport/websocket-link';

/** Redeems a launch code as a browser would and returns the Cookie header it was given. */
export async function sessionCookie(server: BrowserServer): Promise<string> {
  const launched = await fetch(server.launchUrl(), { redirect: 'manual' });
  return launched.headers.get('set-cookie')!.split(';')[0];
}

export class BridgeClientSocket {
  readonly received: ServerMessage[] = [];
  closed: { code: number; reason: string } | undefined;
  private nextRequestId = 1;

  private constructor(readonly socket: WebSocket) {
    // Batches come with their rows as tuples: decoded as the page decodes them.
    socket.on('message', (data) => this.received.push(serverMessageOf(String(data))!));
    socket.on('close', (code, reason) => (this.closed = { code, reason: String(reason) }));
    socket.on('error', () => undefined);
  }

  static open(server: BrowserServer, cookie: string): Promise<BridgeClientSocket> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(
        `ws://127.0.0.1:${server.port}${bridgeWebSocketPath}`,
        [bridgeSubprotocol],
        {
          headers: { Cookie: cookie },
          // Test clients may send what a browser never would (oversize frames): no client-side cap.
          maxPayload: 256 * 1024 * 1024,
        },
      );
      socket.once('open', () => resolve(new BridgeClientSocket(socket)));
      socket.once('unexpected-response', (_request, response) =>
        reject(new Error(`refused with ${response.statusCode}`)),
      );
    });
  }

  /** Sends `message` with a fresh requestId and resolves with its reply. */
  async request(message: Record<string, unknown>, timeoutMs = 30_000): Promise<ReplyMessage> {
    const requestId = this.nextRequestId++;
    this.send({ ...message, requestId });
    const started = Date.now();
    for (;;) {
      const reply = this.received.find(
        (received): received is ReplyMessage => received.type === 'reply' && received.requestId === requestId,
      );
      if (reply) return reply;
      if (this.closed) throw new Error(`closed before reply ${requestId}: ${this.closed.reason}`);
      if (Date.now() - started > timeoutMs) throw new Error(`no reply to ${String(message.type)}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  hello(): Promise<ReplyMessage> {
    return this.request({ type: 'hello', protocolVersion: 1 });
  }

  send(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }

  /** Writes bytes straight to the TCP socket, under ws's framing (a client frame must be masked). */
  writeRawFrame(firstByte: number, payload: Buffer): void {
    const header = Buffer.from([firstByte, 0x80 | payload.length, 0, 0, 0, 0]);
    (this.socket as unknown as { _socket: Socket })._socket.write(Buffer.concat([header, payload]));
  }

  async waitForClose(timeoutMs = 10_000): Promise<{ code: number; reason: string }> {
    const started = Date.now();
    while (!this.closed) {
      if (Date.now() - started > timeoutMs) throw new Error('the connection stayed open');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return this.closed;
  }

  close(): void {
    this.socket.terminate();
  }
}
