// Browser mode's one HTTP server: the built UI on GET, the bridge WebSocket on upgrade, both on
// 127.0.0.1 at one port, so the page's origin is the bridge's origin and the CSP's connect-src 'self'
// covers it.
//
// Authentication (shared/protocol/websocket-handshake.ts): the browser is opened on a one-time launch
// code, which /launch exchanges for the HttpOnly, SameSite=Strict session cookie and redirects to the
// app. The page itself, the bridge and every authenticated route check that cookie; the static assets
// (the public build output) do not need it.
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import { attachWebSocketBridge, createLaunchSecret } from '../bridge/websocket-server';
import type { Transport } from '../bridge/transport';
import {
  cookieValue,
  launchCodeParameter,
  launchPath,
  sessionCookieName,
} from '../../shared/protocol/websocket-handshake';
import { LaunchCodes, printedCodeLifetimeMs } from './launch-codes';
import { securityHeaders, staticFileHandler } from './static-files';
import type { Clock } from '../cache/clock';

/** A route that only a browser holding the session cookie may use (export download, import upload). */
export type AuthenticatedRoute = (request: IncomingMessage, response: ServerResponse) => void;

export interface BrowserServerOptions {
  /** The built renderer (index.html and assets/). */
  rendererDirectory: string;
  /** Receives every authenticated bridge connection. */
  onConnection: (transport: Transport) => void;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Defaults to a fresh per-launch secret. */
  secret?: string;
  /** Told about refused bridge connections and launch codes (wrong secret, foreign origin). */
  onRefused?: (reason: string) => void;
  /** Authenticated routes by path prefix (e.g. "/history/"). */
  routes?: Readonly<Record<string, AuthenticatedRoute>>;
  clock?: Clock;
  /** Where errors of accepted bridge connections are reported (default console.warn). */
  log?: (message: string) => void;
}

export interface BrowserServer {
  readonly port: number;
  readonly secret: string;
  readonly server: Server;
  /** http://127.0.0.1:PORT/launch?code=CODE: opens the app once, within `lifetimeMs`. */
  launchUrl(lifetimeMs?: number): string;
  close(): Promise<void>;
}

function page(response: ServerResponse, status: number, title: string, text: string): void {
  response.writeHead(status, {
    ...securityHeaders(),
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
  });
  response.end(`<!doctype html><meta charset="utf-8"><title>Kubetide</title><h1>${title}</h1><p>${text}</p>`);
}

const freshAddress =
  'Open the address Kubetide printed in its terminal (press Enter there for a fresh one), or restart it.';

export async function startBrowserServer(options: BrowserServerOptions): Promise<BrowserServer> {
  const secret = options.secret ?? createLaunchSecret();
  const codes = new LaunchCodes(options.clock);
  const staticFiles = staticFileHandler(options.rendererDirectory);
  let port = 0;
  const cookieName = () => sessionCookieName(port);
  const ownOrigins = () => ['127.0.0.1', 'localhost', '[::1]'].map((host) => `http://${host}:${port}`);

  const authenticated = (request: IncomingMessage): boolean => {
    const offered = cookieValue(request.headers.cookie, cookieName());
    if (offered === undefined) return false;
    const left = Buffer.from(offered);
    const right = Buffer.from(secret);
    return left.length === right.length && timingSafeEqual(left, right);
  };

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === launchPath) {
      const code = url.searchParams.get(launchCodeParameter) ?? '';
      if (!codes.redeem(code) && !authenticated(request)) {
        options.onRefused?.('a launch code that was already used, expired or never issued');
        page(response, 403, 'This launch address was already used or has expired', freshAddress);
        return;
      }
      response.writeHead(303, {
        ...securityHeaders(),
        'Set-Cookie': `${cookieName()}=${secret}; HttpOnly; SameSite=Strict; Path=/`,
        Location: '/',
        'Cache-Control': 'no-store',
      });
      response.end();
      return;
    }
    const route = Object.entries(options.routes ?? {}).find(([prefix]) => url.pathname.startsWith(prefix));
    if (route || url.pathname === '/' || url.pathname === '/index.html') {
      if (!authenticated(request)) {
        page(response, 401, 'This page was not opened by Kubetide', freshAddress);
        return;
      }
      if (route) {
        // Cookies reach every port of 127.0.0.1 and SameSite treats them as one site: a request that
        // changes anything must also come from this server's own page.
        const safe = request.method === 'GET' || request.method === 'HEAD';
        if (!safe && !ownOrigins().includes(request.headers.origin ?? '')) {
          options.onRefused?.(`a ${request.method} to ${url.pathname} from origin ${request.headers.origin}`);
          page(response, 403, 'Refused', 'This request did not come from the Kubetide page.');
          return;
        }
        route[1](request, response);
        return;
      }
    }
    staticFiles(request, response);
  });
  const bridge = attachWebSocketBridge(server, {
    secret,
    onConnection: options.onConnection,
    onRefused: (reason) => options.onRefused?.(reason),
    ...(options.log ? { log: options.log } : {}),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    port,
    secret,
    server,
    launchUrl: (lifetimeMs = printedCodeLifetimeMs) =>
      `http://127.0.0.1:${port}${launchPath}?${launchCodeParameter}=${codes.issue(lifetimeMs)}`,
    close: () =>
      (closing ??= (async () => {
        await bridge.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      })()),
  };
}
