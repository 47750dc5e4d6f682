// Browser mode's HTTP side of history export and import: an export is fetched once from its download
// address, an import is uploaded and answered with a token for historyImport. browser-server.ts lets
// only the browser holding the session cookie reach these routes, and an upload only from the app's
// own origin; the files themselves stay in HistoryTransfers' private folder.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createReadStream } from 'node:fs';
import type { HistoryTransfers } from '../bridge/history-transfers';
import { historyDownloadPath, historyUploadPath } from '../../shared/protocol/history-messages';
import type { AuthenticatedRoute } from './browser-server';
import { securityHeaders } from './static-files';

function answer(response: ServerResponse, status: number, text: string, allow?: string): void {
  response.writeHead(status, {
    ...securityHeaders(),
    'Content-Type': 'text/plain; charset=utf-8',
    'Cache-Control': 'no-store',
    ...(allow ? { Allow: allow } : {}),
  });
  response.end(text);
}

function download(transfers: HistoryTransfers, request: IncomingMessage, response: ServerResponse): void {
  if (request.method !== 'GET') return answer(response, 405, 'Method not allowed', 'GET');
  const token = new URL(request.url ?? '/', 'http://127.0.0.1').pathname.slice(historyDownloadPath.length);
  const offered = transfers.takeDownload(token);
  if (!offered)
    return answer(response, 404, 'This download was already fetched or has expired: export again.');
  response.writeHead(200, {
    ...securityHeaders(),
    'Content-Type': 'application/vnd.sqlite3',
    'Content-Disposition': `attachment; filename="${offered.name}"`,
    'Cache-Control': 'no-store',
  });
  const stream = createReadStream(offered.file);
  stream.on('error', () => response.destroy());
  // The file is gone once sent, or once the browser gave up on it.
  response.on('close', () => offered.remove());
  stream.pipe(response);
}

function upload(transfers: HistoryTransfers, request: IncomingMessage, response: ServerResponse): void {
  if (request.method !== 'POST') return answer(response, 405, 'Method not allowed', 'POST');
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > transfers.maxBytes) {
    request.resume();
    return answer(response, 413, `A recording may be at most ${transfers.maxBytes} bytes.`);
  }
  const name = new URL(request.url ?? '/', 'http://127.0.0.1').searchParams.get('name') ?? '';
  transfers.receiveUpload(request, name).then(
    (token) => {
      response.writeHead(201, {
        ...securityHeaders(),
        'Content-Type': 'application/json; charset=utf-8',
        'Cache-Control': 'no-store',
      });
      response.end(JSON.stringify({ upload: token }));
    },
    (error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      answer(response, /larger than/.test(reason) ? 413 : 400, `Not imported: ${reason}`);
      request.resume();
    },
  );
}

/** The routes for browser-server's `routes` option. */
export function historyTransferRoutes(transfers: HistoryTransfers): Record<string, AuthenticatedRoute> {
  return {
    [historyDownloadPath]: (request, response) => download(transfers, request, response),
    [historyUploadPath]: (request, response) => upload(transfers, request, response),
  };
}
