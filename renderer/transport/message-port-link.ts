// The Electron link: main hands the renderer a MessagePort (one structured clone per message, no
// contextBridge copy). The preload cannot pass a port through contextBridge, so it forwards it with
// window.postMessage; a nonce the renderer chose proves the port answers this renderer's request and
// not some other script's message (VS Code's preload does the same).
//
// Sequence (shared/preload-api.ts): the renderer makes a nonce and calls the preload's
// requestPort(nonce); the preload asks main, receives the port, and posts a PortAnnouncement
// ({ kubetideBridgePort: nonce }) to this window with the port attached.
import type { ClientMessage } from '../../shared/protocol/client-messages';
import type { ServerMessage } from '../../shared/protocol/server-messages';
import type { PortAnnouncement } from '../../shared/preload-api';
import type { BridgeLink, LinkOpener } from './bridge-link';
import { serverMessageOf } from './websocket-link';

export type { PortAnnouncement };

/** The window events the link listens on. */
export interface PortTarget {
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

export interface MessagePortLinkOptions {
  /** The preload's function asking main for a port; the port comes back as a window message. */
  requestPort: (nonce: string) => void;
  /** The window the preload posts to (and the event source it must be). */
  target: PortTarget;
  /** The page's own origin: the preload posts the port to it, so an announcement from any other is not ours. */
  origin?: string;
  newNonce?: () => string;
  timeoutMs?: number;
}

export function messagePortLinkOpener(options: MessagePortLinkOptions): LinkOpener {
  return () => openMessagePortLink(options);
}

export function openMessagePortLink(options: MessagePortLinkOptions): Promise<BridgeLink> {
  const nonce = (options.newNonce ?? (() => crypto.randomUUID()))();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      options.target.removeEventListener('message', onMessage);
      reject(new Error('main did not hand over a bridge port in time'));
    }, options.timeoutMs ?? 10_000);
    function onMessage(event: MessageEvent): void {
      const data = event.data as Partial<PortAnnouncement> | undefined;
      if (
        event.source !== options.target ||
        (options.origin !== undefined && event.origin !== options.origin) ||
        data?.kubetideBridgePort !== nonce ||
        event.ports.length !== 1
      )
        return;
      clearTimeout(timer);
      options.target.removeEventListener('message', onMessage);
      resolve(linkOverPort(event.ports[0]));
    }
    options.target.addEventListener('message', onMessage);
    options.requestPort(nonce);
  });
}

/** A BridgeLink over an already transferred MessagePort (also usable with Node's MessageChannel). */
export function linkOverPort(port: MessagePort): BridgeLink {
  let closeListener: ((reason: string) => void) | undefined;
  let closed = false;
  const closeOnce = (reason: string) => {
    if (closed) return;
    closed = true;
    closeListener?.(reason);
  };
  port.addEventListener('close', () => closeOnce('main closed the bridge port'));
  port.start();
  return {
    send: (message: ClientMessage) => {
      if (!closed) port.postMessage(message);
    },
    onMessage: (listener) => {
      // A message main sends as its JSON text (what a history worker serialized: a travel's rows, a
      // moment's usage) is parsed here, as the WebSocket link parses every message; the rest are values.
      port.onmessage = (event: MessageEvent) => {
        const data: unknown = event.data;
        if (typeof data !== 'string') return listener(data as ServerMessage);
        const message = serverMessageOf(data);
        if (message) listener(message);
        else console.error('kubetide: main sent text that is not a message; dropped');
      };
    },
    onClose: (listener) => (closeListener = listener),
    close: (reason = 'closed by the renderer') => {
      port.close();
      closeOnce(reason);
    },
  };
}
