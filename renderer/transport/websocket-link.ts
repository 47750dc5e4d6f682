// The browser-mode link: a WebSocket to main's bridge server on loopback. The page never holds the
// session secret: the browser sends main's HttpOnly session cookie with the upgrade, as with any
// same-origin request (see shared/protocol/websocket-handshake.ts).
import type { ServerMessage } from '../../shared/protocol/server-messages';
import { batchFromTuples } from '../../shared/protocol/row-tuples';
import { bridgeSubprotocol, bridgeWebSocketPath } from '../../shared/protocol/websocket-handshake';
import type { BridgeLink, LinkOpener } from './bridge-link';

/** The part of the WebSocket API the link uses (the DOM's, or the ws package's in tests). */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(
    type: 'open' | 'close' | 'error' | 'message',
    listener: (event: { data?: unknown; code?: number; reason?: string }) => void,
  ): void;
}

export type WebSocketConstructor = new (url: string, protocols: string[]) => WebSocketLike;

export interface WebSocketLinkOptions {
  url: string;
  WebSocket?: WebSocketConstructor;
}

/** ws://HOST/bridge, from the page's own location. */
export function webSocketLinkOptionsFrom(location: { host: string; protocol: string }): WebSocketLinkOptions {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return { url: `${scheme}//${location.host}${bridgeWebSocketPath}` };
}

export function webSocketLinkOpener(options: WebSocketLinkOptions): LinkOpener {
  return () => openWebSocketLink(options);
}

export function openWebSocketLink(options: WebSocketLinkOptions): Promise<BridgeLink> {
  const Constructor = options.WebSocket ?? (globalThis.WebSocket as unknown as WebSocketConstructor);
  return new Promise((resolve, reject) => {
    const socket = new Constructor(options.url, [bridgeSubprotocol]);
    let opened = false;
    let messageListener: ((message: ServerMessage) => void) | undefined;
    let closeListener: ((reason: string) => void) | undefined;
    let closedReason: string | undefined;
    // Main sends text frames only (large ones compressed by permessage-deflate, which the browser
    // inflates before this event); anything else is not a message of the bridge.
    socket.addEventListener('message', (event) => {
      if (typeof event.data !== 'string') return;
      const message = serverMessageOf(event.data);
      if (message !== undefined) messageListener?.(message);
    });
    socket.addEventListener('close', (event) => {
      closedReason ??= `connection closed (${event.code ?? 'no code'}${event.reason ? ` ${event.reason}` : ''})`;
      if (!opened) reject(new Error(`could not connect to ${options.url}: ${closedReason}`));
      else closeListener?.(closedReason);
    });
    socket.addEventListener('error', () => {
      if (!opened) closedReason ??= 'refused (this page was not opened by Kubetide, or main is not running)';
    });
    socket.addEventListener('open', () => {
      opened = true;
      resolve({
        send: (message) => {
          if (socket.readyState === 1) socket.send(JSON.stringify(message));
        },
        onMessage: (listener) => (messageListener = listener),
        onClose: (listener) => (closeListener = listener),
        close: (reason = 'closed by the renderer') => {
          closedReason = reason;
          socket.close(1000, reason.slice(0, 120));
        },
      });
    });
  });
}

/**
 * The ServerMessage `text` stands for: a batch of row tuples (batch-bytes.ts) as its DeltaBatch.
 * Undefined when it is not JSON or its rows are not what main writes: dropped, as a frame that is not
 * JSON always was (the subscription's next batch then finds a gap in its seqs and asks for a
 * resnapshot).
 */
export function serverMessageOf(text: string): ServerMessage | undefined {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof message !== 'object' || message === null) return undefined;
  const record = message as Record<string, unknown>;
  if (record.type === 'batch' && 'tuples' in record) return batchFromTuples(record);
  return message as ServerMessage;
}
