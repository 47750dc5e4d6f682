// Serves the built renderer (out/renderer) to a browser. Only files inside the folder are reachable
// (the resolved path must stay under it), only GET and HEAD are answered, and every response carries
// the security headers browser mode promises: the app's CSP, no framing, no sniffing, no referrer.
//
// The page's scripts and styles (/assets/, named by their content's hash, so never changed in place)
// are read into memory when the handler is made and sent in one write. Streamed from disk, the 850 KB
// script went in 64 KiB reads, each waiting for a turn of this thread's event loop, which is the
// informers' and is busiest exactly when a page opens (a 150,000-pod LIST decoding): in the ui
// bench's startup trace the script arrived 450 ms after the page asked for it, a quarter of its
// first rows.
import { createReadStream } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
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

/** Assets kept in memory: the page's scripts and styles, not their source maps (4 MB, read by a devtools user). */
const keptAsset = (name: string) => !name.endsWith('.map');

/** Reads the kept assets under `root`/assets: pathname -> bytes (none if the folder is missing). */
async function readAssets(root: string): Promise<Map<string, Buffer>> {
  const assets = new Map<string, Buffer>();
  const names = await readdir(join(root, 'assets')).catch(() => [] as string[]);
  for (const name of names.filter(keptAsset)) {
    const bytes = await readFile(join(root, 'assets', name)).catch(() => undefined);
    if (bytes !== undefined) assets.set(`/assets/${name}`, bytes);
  }
  return assets;
}

/**
 * A request handler for the files under `root`. "/" is index.html; anything else that does not name a
 * file is 404 (the UI is one page). browser-server.ts decides who may have index.html and its routes.
 */
export function staticFileHandler(
  root: string,
): (request: IncomingMessage, response: ServerResponse) => void {
  const base = normalize(root + sep);
  // Read now, off this thread (the file system's pool), long before a page asks: a server starts
  // before the browser opens its address.
  const assets = readAssets(root);
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
    void assets.then((kept) => {
      const bytes = kept.get(pathname);
      if (bytes === undefined) streamFile(request, response, file, pathname);
      else sendAsset(request, response, file, bytes);
    });
  };
}

function assetHeaders(file: string, size: number, immutable: boolean): Record<string, string> {
  return {
    ...securityHeaders(),
    'Content-Type': contentTypes[extname(file)] ?? 'application/octet-stream',
    'Content-Length': String(size),
    'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
  };
}

function sendAsset(request: IncomingMessage, response: ServerResponse, file: string, bytes: Buffer): void {
  response.writeHead(200, assetHeaders(file, bytes.length, true));
  response.end(request.method === 'HEAD' ? undefined : bytes);
}

function streamFile(
  request: IncomingMessage,
  response: ServerResponse,
  file: string,
  pathname: string,
): void {
  stat(file).then(
    (info) => {
      if (!info.isFile()) return send(response, 404, 'Not found');
      response.writeHead(200, assetHeaders(file, info.size, pathname.startsWith('/assets/')));
      if (request.method === 'HEAD') response.end();
      else createReadStream(file).pipe(response);
    },
    () => send(response, 404, 'Not found'),
  );
}
