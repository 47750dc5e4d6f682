// Browser mode's one HTTP server: the built UI on GET, the bridge WebSocket on upgrade, both on
// 127.0.0.1 at one port, so the page's origin is the bridge's origin and the CSP's connect-src 'self'
// covers it. The launch secret reaches the page only in the URL fragment it prints.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { attachWebSocketBridge, createLaunchSecret } from '../bridge/websocket-server';
import type { Transport } from '../bridge/transport';
import { staticFileHandler } from './static-files';

export interface BrowserServerOptions {
  /** The built renderer (index.html and assets/). */
  rendererDirectory: string;
  /** Receives every authenticated bridge connection. */
  onConnection: (transport: Transport) => void;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Defaults to a fresh per-launch secret. */
  secret?: string;
  /** Told about refused bridge connections (wrong secret, foreign origin). */
  onRefused?: (reason: string) => void;
}

export interface BrowserServer {
  readonly port: number;
  /** http://127.0.0.1:PORT/#secret=SECRET: what the user opens. */
  readonly url: string;
  readonly secret: string;
  readonly server: Server;
  close(): Promise<void>;
}

export async function startBrowserServer(options: BrowserServerOptions): Promise<BrowserServer> {
  const secret = options.secret ?? createLaunchSecret();
  const server = createServer(staticFileHandler(options.rendererDirectory));
  const bridge = attachWebSocketBridge(server, {
    secret,
    onConnection: options.onConnection,
    onRefused: (reason) => options.onRefused?.(reason),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    port,
    secret,
    server,
    url: `http://127.0.0.1:${port}/#secret=${secret}`,
    close: () =>
      (closing ??= (async () => {
        await bridge.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      })()),
  };
}
