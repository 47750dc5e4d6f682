// Serves the built renderer (out/renderer) to a browser. Only files inside the folder are reachable
// (the resolved path must stay under it), only GET and HEAD are answered, and every response carries
// the security headers browser mode promises: the app's CSP, no framing, no sniffing, no referrer.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { contentSecurityPolicy } from '../../shared/security/content-security-policy';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** Headers on every browser-mode response, including errors. */
export function securityHeaders(): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(),
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), usb=(), serial=(), clipboard-read=()',
  };
}

function send(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { ...securityHeaders(), 'Content-Type': 'text/plain; charset=utf-8' });
  response.end(text);
}

/**
 * A request handler for the files under `root`. "/" is index.html; anything else that does not name a
 * file is 404 (the UI is one page). browser-server.ts decides who may have index.html and its routes.
 */
export function staticFileHandler(
  root: string,
): (request: IncomingMessage, response: ServerResponse) => void {
  const base = normalize(root + sep);
  return (request, response) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('Allow', 'GET, HEAD');
      send(response, 405, 'Method not allowed');
      return;
    }
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    } catch {
      send(response, 400, 'Bad request');
      return;
    }
    const file = normalize(join(base, pathname === '/' ? 'index.html' : pathname));
    if (!file.startsWith(base) || pathname.includes('\0')) {
      send(response, 404, 'Not found');
      return;
    }
    stat(file).then(
      (info) => {
        if (!info.isFile()) return send(response, 404, 'Not found');
        const immutable = pathname.startsWith('/assets/');
        response.writeHead(200, {
          ...securityHeaders(),
          'Content-Type': contentTypes[extname(file)] ?? 'application/octet-stream',
          'Content-Length': String(info.size),
          'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        });
        if (request.method === 'HEAD') response.end();
        else createReadStream(file).pipe(response);
      },
      () => send(response, 404, 'Not found'),
    );
  };
}
