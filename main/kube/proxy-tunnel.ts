// A byte stream to an API server's host and port through a proxy, as Go's http.Transport opens one for
// client-go: an HTTP CONNECT to an http:// proxy, the same inside TLS to an https:// proxy (verified
// with the cluster's TLS settings, as Go's transport uses its TLSClientConfig for the proxy too), or a
// SOCKS5 CONNECT (no authentication, or RFC 1929's username and password from the proxy URL). The
// target's name goes to the proxy unresolved, so a name only the proxy's network can resolve (a
// private cluster behind a bastion) still works. The caller speaks TLS (or plain HTTP) over it.
import http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import { SocksClient } from 'socks';
import type { TlsMaterial } from './cluster-transport';
import { ProxyTunnelError } from './errors';
import { bareHost, describeProxy, proxyPort } from './proxy-selection';

export interface TunnelTarget {
  /** A host name or an IP address (IPv6 without brackets). */
  readonly host: string;
  readonly port: number;
}

/**
 * Opens a tunnel to `target` through `proxy`; rejects with ProxyTunnelError, or with `signal`'s
 * reason once it aborts (the socket to the proxy destroyed then, whatever stage it was at).
 */
export async function openTunnel(
  proxy: URL,
  target: TunnelTarget,
  material: TlsMaterial = {},
  signal?: AbortSignal,
): Promise<net.Socket> {
  signal?.throwIfAborted();
  const sockets: net.Socket[] = [];
  const abandon = () => {
    for (const socket of sockets) socket.destroy(signal?.reason as Error);
  };
  signal?.addEventListener('abort', abandon, { once: true });
  const track = (socket: net.Socket) => {
    sockets.push(socket);
    return socket;
  };
  try {
    return proxy.protocol === 'socks5:'
      ? await socksTunnel(proxy, target, track)
      : await connectTunnel(proxy, target, material, track);
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (error instanceof ProxyTunnelError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new ProxyTunnelError(
      `cannot reach the proxy ${describeProxy(proxy)} (${(error as Error).message})`,
      code ?? 'EPROXY',
      { cause: error },
    );
  } finally {
    signal?.removeEventListener('abort', abandon);
  }
}

/** Basic credentials from the proxy URL's user info, as Go sends them in Proxy-Authorization. */
export function proxyAuthorization(proxy: URL): string | undefined {
  if (proxy.username === '' && proxy.password === '') return undefined;
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return `Basic ${Buffer.from(credentials).toString('base64')}`;
}

/** The target as a CONNECT request names it: host:port, an IPv6 address in brackets. */
export function authority(target: TunnelTarget): string {
  return net.isIPv6(target.host) ? `[${target.host}]:${target.port}` : `${target.host}:${target.port}`;
}

/** A connection to the proxy itself: TCP, inside TLS for an https:// proxy. */
function connectToProxy(proxy: URL, material: TlsMaterial): net.Socket {
  const host = bareHost(proxy);
  const port = proxyPort(proxy);
  if (proxy.protocol !== 'https:') return net.connect({ host, port });
  const { ca, cert, key, rejectUnauthorized } = material;
  return tls.connect({
    host,
    port,
    ...(ca !== undefined ? { ca } : {}),
    ...(cert !== undefined && key !== undefined ? { cert, key } : {}),
    ...(rejectUnauthorized !== undefined ? { rejectUnauthorized } : {}),
    servername: net.isIP(host) ? undefined : host,
    ALPNProtocols: ['http/1.1'],
  });
}

type Track = (socket: net.Socket) => net.Socket;

function connectTunnel(
  proxy: URL,
  target: TunnelTarget,
  material: TlsMaterial,
  track: Track,
): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Host: authority(target) };
    const authorization = proxyAuthorization(proxy);
    if (authorization) headers['Proxy-Authorization'] = authorization;
    const request = http.request({
      method: 'CONNECT',
      path: authority(target),
      headers,
      createConnection: () => track(connectToProxy(proxy, material)),
    });
    request.once('connect', (response, socket, head) => {
      if (response.statusCode !== 200) {
        socket.destroy();
        reject(refusal(proxy, target, response));
        return;
      }
      // Bytes the proxy sent past its answer belong to the tunnel (a server speaking first).
      if (head.length > 0) socket.unshift(head);
      resolve(socket);
    });
    // A proxy that answers CONNECT without upgrading (an HTTP error with a body) ends up here.
    request.once('response', (response) => {
      response.resume();
      reject(refusal(proxy, target, response));
    });
    request.once('error', reject);
    request.end();
  });
}

function refusal(proxy: URL, target: TunnelTarget, response: http.IncomingMessage): ProxyTunnelError {
  const status = `${response.statusCode} ${response.statusMessage ?? ''}`.trim();
  const hint =
    response.statusCode === 407
      ? proxyAuthorization(proxy)
        ? ': it did not accept the credentials in the proxy URL'
        : ': it asks for credentials; put them in the proxy URL (http://user:password@host:port)'
      : '';
  return new ProxyTunnelError(
    `the proxy ${describeProxy(proxy)} would not connect to ${authority(target)} (${status})${hint}`,
    'EPROXY',
  );
}

async function socksTunnel(proxy: URL, target: TunnelTarget, track: Track): Promise<net.Socket> {
  // The TCP connection is opened here, so that failing to reach the proxy keeps Node's code and
  // reads as such; what the SOCKS library reports after it is the proxy's own answer.
  const connection = await new Promise<net.Socket>((resolve, reject) => {
    const socket = track(connectToProxy(proxy, {}));
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
  try {
    const { socket } = await SocksClient.createConnection({
      proxy: {
        host: bareHost(proxy),
        port: proxyPort(proxy),
        type: 5,
        ...(proxy.username !== '' ? { userId: decodeURIComponent(proxy.username) } : {}),
        ...(proxy.password !== '' ? { password: decodeURIComponent(proxy.password) } : {}),
      },
      command: 'connect',
      destination: { host: target.host, port: target.port },
      existing_socket: connection,
      // The caller's dial deadline bounds the whole tunnel; this only outlives it.
      timeout: 24 * 60 * 60 * 1000,
    });
    return socket;
  } catch (error) {
    connection.destroy();
    throw new ProxyTunnelError(
      `the proxy ${describeProxy(proxy)} would not connect to ${authority(target)} (${(error as Error).message})`,
      'EPROXY',
      { cause: error },
    );
  }
}
