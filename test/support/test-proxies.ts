// Proxies for tests, as a corporate proxy or a bastion's SOCKS server would stand between a user and
// a cluster: an HTTP proxy (CONNECT tunnels, and absolute-form requests for plain http:// targets;
// over TLS when given a certificate), and a SOCKS5 server (no authentication, or RFC 1929 username
// and password). Each resolves the target's name itself through `resolve`, so a test's server can be
// named by a host only the proxy knows, and records what it was asked for. kubectl reaches clusters
// through both (sim-kubectl-proxy assertions in kube-proxy.test.ts), so they speak the protocols as
// real clients expect them.
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TestProxyOptions {
  /** Maps a requested host to the address to connect to (default: itself). */
  resolve?: (host: string) => string;
  /** Required credentials; anything else is refused (407, or SOCKS auth failure). */
  credentials?: { username: string; password: string };
  /** An https:// proxy: its certificate and key (HTTP proxy only). */
  tls?: { certificate: string; privateKey: string };
}

export interface TestProxy {
  /** The proxy's URL, credentials not included. */
  readonly url: string;
  /** What clients asked for: "CONNECT host:port", "GET http://...", "SOCKS host:port (domain)". */
  readonly requests: string[];
  /** Tunnels and forwarded requests open now. */
  openConnections(): number;
  close(): Promise<void>;
}

export async function startHttpProxy(options: TestProxyOptions = {}): Promise<TestProxy> {
  const resolve = options.resolve ?? ((host: string) => host);
  const requests: string[] = [];
  const sockets = new Set<net.Socket>();
  const authorized = (header: string | undefined) =>
    !options.credentials ||
    header ===
      `Basic ${Buffer.from(`${options.credentials.username}:${options.credentials.password}`).toString('base64')}`;
  const handler = (request: http.IncomingMessage, response: http.ServerResponse) => {
    requests.push(`${request.method} ${request.url}`);
    if (!authorized(request.headers['proxy-authorization'])) {
      response.writeHead(407, { 'Proxy-Authenticate': 'Basic realm="test"' }).end();
      return;
    }
    const target = new URL(request.url ?? '');
    const headers = { ...request.headers };
    delete headers['proxy-authorization'];
    const forwarded = http.request(
      {
        host: resolve(target.hostname),
        port: target.port || 80,
        path: target.pathname + target.search,
        method: request.method,
        headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.once('error', () => response.destroy());
    response.once('close', () => forwarded.destroy());
    request.pipe(forwarded);
  };
  const server = options.tls
    ? https.createServer({ cert: options.tls.certificate, key: options.tls.privateKey }, handler)
    : http.createServer(handler);
  server.on('connect', (request: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    requests.push(`CONNECT ${request.url}`);
    if (!authorized(request.headers['proxy-authorization'])) {
      client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n\r\n',
      );
      return;
    }
    const [host, port] = splitAuthority(request.url ?? '');
    const upstream = net.connect({ host: resolve(host), port });
    tunnel(client, upstream, sockets);
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
    });
    upstream.once('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
  });
  return listening(server, options.tls ? 'https' : 'http', requests, sockets);
}

export async function startSocksProxy(options: TestProxyOptions = {}): Promise<TestProxy> {
  const resolve = options.resolve ?? ((host: string) => host);
  const requests: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    void negotiate(client, options, resolve, requests, sockets).catch(() => client.destroy());
  });
  return listening(server, 'socks5', requests, sockets);
}

async function negotiate(
  client: net.Socket,
  options: TestProxyOptions,
  resolve: (host: string) => string,
  requests: string[],
  sockets: Set<net.Socket>,
): Promise<void> {
  const read = reader(client);
  const [, methodCount] = await read(2);
  const methods = [...(await read(methodCount!))];
  const wanted = options.credentials ? 0x02 : 0x00;
  if (!methods.includes(wanted)) {
    client.end(Buffer.from([5, 0xff]));
    return;
  }
  client.write(Buffer.from([5, wanted]));
  if (options.credentials) {
    const [, userLength] = await read(2);
    const user = (await read(userLength!)).toString();
    const [passwordLength] = await read(1);
    const password = (await read(passwordLength!)).toString();
    const accepted = user === options.credentials.username && password === options.credentials.password;
    client.write(Buffer.from([1, accepted ? 0 : 1]));
    if (!accepted) {
      client.end();
      return;
    }
  }
  const [, command, , addressType] = await read(4);
  let host: string;
  let kind: string;
  if (addressType === 3) {
    const [length] = await read(1);
    host = (await read(length!)).toString();
    kind = 'domain';
  } else if (addressType === 1) {
    host = [...(await read(4))].join('.');
    kind = 'ipv4';
  } else {
    const bytes = await read(16);
    host = Array.from({ length: 8 }, (_, index) => bytes.readUInt16BE(index * 2).toString(16)).join(':');
    kind = 'ipv6';
  }
  const port = (await read(2)).readUInt16BE(0);
  requests.push(`SOCKS ${host}:${port} (${kind})`);
  if (command !== 1) {
    client.end(Buffer.from([5, 7, 0, 1, 0, 0, 0, 0, 0, 0]));
    return;
  }
  const upstream = net.connect({ host: resolve(host), port });
  upstream.once('connect', () => {
    client.write(Buffer.from([5, 0, 0, 1, 127, 0, 0, 1, 0, 0]));
    tunnel(client, upstream, sockets);
  });
  // Host unreachable (RFC 1928's reply 4).
  upstream.once('error', () => client.end(Buffer.from([5, 4, 0, 1, 0, 0, 0, 0, 0, 0])));
}

/** Reads exactly n bytes at a time from a socket that has not been piped anywhere yet. */
function reader(socket: net.Socket): (bytes: number) => Promise<Buffer> {
  let buffered = Buffer.alloc(0);
  let waiting: (() => void) | undefined;
  const onData = (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    waiting?.();
  };
  socket.on('data', onData);
  return async (bytes) => {
    while (buffered.length < bytes) {
      if (socket.destroyed) throw new Error('the client went away during the handshake');
      await new Promise<void>((resolve) => {
        waiting = resolve;
        socket.once('close', resolve);
      });
    }
    // A client sends nothing of the tunnel before the handshake's reply, so nothing is left over.
    const taken = buffered.subarray(0, bytes);
    buffered = buffered.subarray(bytes);
    return Buffer.from(taken);
  };
}

function tunnel(client: net.Socket, upstream: net.Socket, sockets: Set<net.Socket>): void {
  client.removeAllListeners('data');
  sockets.add(client);
  sockets.add(upstream);
  client.pipe(upstream).pipe(client);
  const end = () => {
    client.destroy();
    upstream.destroy();
    sockets.delete(client);
    sockets.delete(upstream);
  };
  client.once('close', end);
  upstream.once('close', end);
  client.once('error', end);
  upstream.once('error', end);
}

function splitAuthority(authority: string): [string, number] {
  const colon = authority.lastIndexOf(':');
  return [authority.slice(0, colon).replace(/^\[(.*)\]$/, '$1'), Number(authority.slice(colon + 1))];
}

async function listening(
  server: net.Server,
  scheme: string,
  requests: string[],
  sockets: Set<net.Socket>,
): Promise<TestProxy> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    requests,
    openConnections: () => sockets.size / 2,
    async close() {
      for (const socket of sockets) socket.destroy();
      if ('closeAllConnections' in server) (server as http.Server).closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
