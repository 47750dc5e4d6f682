// The kubetide://app protocol handler: serves out/renderer to the app's windows, every response (the
// 404s included) carrying the same security headers as browser mode: the CSP, no framing, no
// sniffing, no referrer. Electron never runs session.webRequest for a custom protocol, so these
// headers exist only because this handler writes them.
import { resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { securityHeaders } from './static-files';

/** Reads a file:// URL; Electron's net.fetch in the app, a stand-in in tests. */
export type FileFetcher = (fileUrl: string) => Promise<Response>;

export function rendererProtocolHandler(
  rendererDirectory: string,
  fetchFile: FileFetcher,
): (request: Request) => Promise<Response> {
  const headers = securityHeaders();
  return async (request) => {
    const { host, pathname } = new URL(request.url);
    let file: string;
    try {
      file = resolve(
        rendererDirectory,
        `.${decodeURIComponent(pathname === '/' ? '/index.html' : pathname)}`,
      );
    } catch {
      return new Response('bad request', { status: 400, headers });
    }
    if (host !== 'app' || !file.startsWith(rendererDirectory + sep)) {
      return new Response('not found', { status: 404, headers });
    }
    const fetched = await fetchFile(pathToFileURL(file).toString());
    const merged = new Headers(fetched.headers);
    for (const [name, value] of Object.entries(headers)) merged.set(name, value);
    return new Response(fetched.body, {
      status: fetched.status,
      statusText: fetched.statusText,
      headers: merged,
    });
  };
}
