// How requests reach one API server, as client-go's transport does it: over TLS, ALPN offers "h2"
// and "http/1.1"; when the server picks h2, every LIST, WATCH and GET shares one HTTP/2 connection
// (more only past the server's SETTINGS_MAX_CONCURRENT_STREAMS, or after a GOAWAY), health-checked
// with PINGs. When it picks http/1.1, when the URL is plain http:// (client-go does not speak h2c)
// or when DISABLE_HTTP2 is set (as client-go reads it), requests go through a keep-alive Agent,
// a socket per request in flight, with TCP keep-alive on every socket. Through a proxy
// (proxy-selection.ts) every connection is a tunnel (proxy-tunnel.ts) with TLS to the server inside
// it, h2 negotiated as directly; a plain http:// server behind an HTTP proxy is asked through the
// proxy in absolute form, as Go's transport does.
import http from 'node:http';
import https from 'node:https';
import type { OutgoingHttpHeaders } from 'node:http2';
import { isIP } from 'node:net';
import tls from 'node:tls';
import type { TLSSocket } from 'node:tls';
import type { Socket } from 'node:net';
import type { Clock } from '../cache/clock';
import { DialDeadline } from './dial-deadline';
import { ConnectionLostError } from './errors';
import { Http2Connection } from './http2-connection';
import type { Http2HealthSettings } from './http2-health-check';
import { http1Response, http2Response } from './http-response';
import type { HttpProtocol, HttpResponse, OutgoingRequest } from './http-response';
import { bareHost, proxyPort } from './proxy-selection';
import { authority, openTunnel, proxyAuthorization } from './proxy-tunnel';
import type { TunnelTarget } from './proxy-tunnel';

/** The TLS half of a kubeconfig's cluster and user: what the server is trusted by, and who we are. */
export interface TlsMaterial {
  ca?: string | Buffer;
  cert?: string | Buffer;
  key?: string | Buffer;
  rejectUnauthorized?: boolean;
  servername?: string;
}

export interface ClusterTransportOptions {
  /** The server's base URL. */
  server: string;
  /** Undefined for a plain http:// server. */
  tls: TlsMaterial | undefined;
  clock: Clock;
  health: Http2HealthSettings;
  /** Refuse h2 and speak HTTP/1.1 only (client-go: the DISABLE_HTTP2 environment variable). */
  disableHttp2?: boolean;
  /** The proxy every connection goes through (proxy-selection.ts); undefined: direct. */
  proxy?: URL;
}

export interface TransportRequest {
  /** The full URL, query included. */
  url: string;
  method: string;
  /** An array: the header repeated, once per value. */
  headers: Record<string, string | string[]>;
  payload?: Buffer;
}

/**
 * Go's net.Dialer in client-go's transports: 30 s to connect, then TCP keep-alive probes after 30 s
 * idle. The keep-alive is what eventually ends a dead HTTP/1.1 connection the server cannot answer on.
 */
const dialTimeoutMs = 30_000;
const tcpKeepAliveDelayMs = 30_000;
/** HTTP/1.1: a watch holds a socket for its life, so the cap sits well above the watches a context runs. */
const maxSockets = 256;
const maxFreeSockets = 16;
/** Headers a HTTP/2 request must not carry (RFC 9113 §8.2.2); Host becomes :authority. */
const connectionSpecificHeaders = new Set([
  'connection',
  'host',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
]);

export class ClusterTransport {
  /** What ALPN chose on the last connection made; undefined until the first one. */
  private negotiated: HttpProtocol | undefined;
  private readonly connections = new Set<Http2Connection>();
  private dialing: Promise<void> | undefined;
  private agent: http.Agent;
  private closed = false;
  /** The server's host (IPv6 without brackets) and port, as connections and tunnels dial them. */
  private readonly target: TunnelTarget;

  constructor(private readonly options: ClusterTransportOptions) {
    const url = new URL(options.server);
    this.target = { host: bareHost(url), port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)) };
    this.agent = this.newAgent();
    if (!options.tls || options.disableHttp2) this.negotiated = 'http/1.1';
  }

  /** The protocol requests use now ('h2' only once a connection negotiated it). */
  get protocol(): HttpProtocol | undefined {
    return this.negotiated;
  }

  start(request: TransportRequest): OutgoingRequest {
    if (this.negotiated === 'http/1.1') return this.startHttp1(request);
    let aborted: Error | undefined;
    let inner: OutgoingRequest | undefined;
    const response = (async (): Promise<HttpResponse> => {
      const connection = await this.connectionWithCapacity();
      if (aborted) throw aborted;
      inner = connection ? this.startHttp2(connection, request) : this.startHttp1(request);
      return inner.response;
    })();
    return {
      response,
      abort: (error) => {
        aborted ??= error;
        inner?.abort(error);
      },
    };
  }

  /**
   * Fails every request in flight with ConnectionLostError(`reason`) and drops every connection, so
   * the next request opens a fresh one: after sleep, a connection is most likely half-open.
   */
  resetConnections(reason: string): void {
    for (const connection of [...this.connections])
      connection.destroy(new ConnectionLostError(this.options.server, reason));
    this.connections.clear();
    this.agent.destroy();
    this.agent = this.newAgent();
  }

  /** Lets requests in flight finish on their connections; new ones are refused. */
  retire(): void {
    this.closed = true;
    for (const connection of this.connections) connection.close();
  }

  /** Ends every connection, requests in flight included. */
  close(): void {
    this.closed = true;
    for (const connection of [...this.connections])
      connection.destroy(new Error(`the connection to ${this.options.server} was closed`));
    this.connections.clear();
    this.agent.destroy();
  }

  /** An h2 connection that can take a stream now, or undefined when the server speaks HTTP/1.1. */
  private async connectionWithCapacity(): Promise<Http2Connection | undefined> {
    for (;;) {
      if (this.closed) throw new Error(`the connection to ${this.options.server} was closed`);
      if (this.negotiated === 'http/1.1') return undefined;
      for (const connection of this.connections) if (connection.hasCapacity()) return connection;
      // One dial at a time: a burst of requests waits for it instead of opening a connection each.
      this.dialing ??= this.dial().finally(() => {
        this.dialing = undefined;
      });
      await this.dialing;
    }
  }

  private async dial(): Promise<void> {
    const socket = await this.connectTls();
    this.negotiated = socket.alpnProtocol === 'h2' ? 'h2' : 'http/1.1';
    if (this.negotiated !== 'h2' || this.closed) {
      // HTTP/1.1 requests go through the Agent, which opens its own sockets.
      socket.destroy();
      return;
    }
    const connection = new Http2Connection(
      this.options.server,
      socket,
      this.options.clock,
      this.options.health,
      (gone) => this.connections.delete(gone),
    );
    this.connections.add(connection);
  }

  private async connectTls(): Promise<TLSSocket> {
    const target = this.target;
    const material = this.options.tls ?? {};
    const deadline = this.dialDeadline();
    try {
      const tunnel = await deadline.bound(this.options.proxy && this.tunnel(deadline.signal));
      const socket = tls.connect({
        ...(tunnel ? { socket: tunnel } : { host: target.host, port: target.port }),
        ...definedOnly(material),
        servername: material.servername ?? (isIP(target.host) ? undefined : target.host),
        ALPNProtocols: ['h2', 'http/1.1'],
      });
      if (!tunnel) socket.setKeepAlive(true, tcpKeepAliveDelayMs);
      return await handshake(socket, deadline);
    } finally {
      deadline.stop();
    }
  }

  /** A tunnel through the proxy to the server, TCP keep-alive on its connection to the proxy. */
  private async tunnel(signal: AbortSignal): Promise<Socket> {
    const socket = await openTunnel(this.options.proxy!, this.target, this.options.tls ?? {}, signal);
    socket.setKeepAlive(true, tcpKeepAliveDelayMs);
    return socket;
  }

  private dialDeadline(): DialDeadline {
    return new DialDeadline(this.options.clock, dialTimeoutMs);
  }

  private startHttp2(connection: Http2Connection, request: TransportRequest): OutgoingRequest {
    const url = new URL(request.url);
    const headers: OutgoingHttpHeaders = {
      ':method': request.method,
      ':path': url.pathname + url.search,
    };
    for (const [name, value] of Object.entries(request.headers)) {
      const lower = name.toLowerCase();
      if (!connectionSpecificHeaders.has(lower)) headers[lower] = value;
    }
    const stream = connection.request(headers, request.payload === undefined);
    if (request.payload !== undefined) stream.end(request.payload);
    const response = new Promise<HttpResponse>((resolve, reject) => {
      stream.once('response', (responseHeaders) => resolve(http2Response(stream, responseHeaders)));
      // Kept after the response too (a no-op then): the body's reader reports its errors.
      stream.on('error', reject);
      stream.once('close', () =>
        reject(new Error(`the stream closed before a response (code ${stream.rstCode})`)),
      );
    });
    return { response, abort: (error) => stream.destroy(error) };
  }

  private startHttp1(request: TransportRequest): OutgoingRequest {
    const forwarded = this.forwardsThroughProxy();
    const secure = forwarded ? this.options.proxy!.protocol === 'https:' : request.url.startsWith('https:');
    const options: https.RequestOptions = {
      method: request.method,
      headers: request.headers,
      agent: this.agent,
    };
    if (forwarded) {
      // The proxy is asked for the absolute URL; it connects to the server itself.
      const proxy = this.options.proxy!;
      const authorization = proxyAuthorization(proxy);
      options.host = bareHost(proxy);
      options.port = proxyPort(proxy);
      options.path = request.url;
      options.headers = {
        ...request.headers,
        Host: authority(this.target),
        ...(authorization ? { 'Proxy-Authorization': authorization } : {}),
      };
    }
    const transport = secure ? https : http;
    const outgoing = forwarded ? transport.request(options) : transport.request(request.url, options);
    outgoing.once('socket', (socket) => socket.setKeepAlive(true, tcpKeepAliveDelayMs));
    const response = new Promise<HttpResponse>((resolve, reject) => {
      outgoing.once('response', (message) => resolve(http1Response(message)));
      outgoing.on('error', reject);
    });
    outgoing.end(request.payload);
    return { response, abort: (error) => outgoing.destroy(error) };
  }

  /** A plain http:// server behind an http(s):// proxy: requests go to the proxy, in absolute form. */
  private forwardsThroughProxy(): boolean {
    const proxy = this.options.proxy;
    return proxy !== undefined && proxy.protocol !== 'socks5:' && !this.options.tls;
  }

  private newAgent(): http.Agent {
    const common = {
      keepAlive: true,
      keepAliveMsecs: tcpKeepAliveDelayMs,
      maxSockets,
      maxFreeSockets,
      scheduling: 'lifo' as const,
    };
    const proxy = this.options.proxy;
    if (proxy && this.forwardsThroughProxy()) {
      // Every connection is to the proxy (in TLS for an https:// one, verified as Go does it).
      return proxy.protocol === 'https:'
        ? new https.Agent({ ...common, ...definedOnly(this.options.tls ?? {}) })
        : new http.Agent(common);
    }
    // An https Agent offers no ALPN, so its servers answer in HTTP/1.1.
    const agent = this.options.tls
      ? new https.Agent({ ...common, ...definedOnly(this.options.tls) })
      : new http.Agent(common);
    if (proxy) this.tunnelConnections(agent, Boolean(this.options.tls));
    return agent;
  }

  /** Makes `agent` open each connection through a tunnel (TLS inside it when `secure`). */
  private tunnelConnections(agent: http.Agent, secure: boolean): void {
    const create = (options: tls.ConnectionOptions, done: (error: Error | null, socket?: Socket) => void) => {
      const deadline = this.dialDeadline();
      // The TLS handshake inside the tunnel is part of the dial, as on the HTTP/2 path.
      deadline
        .bound(this.tunnel(deadline.signal))
        .then<Socket>((tunnel) =>
          secure ? handshake(tls.connect({ ...options, socket: tunnel }), deadline) : tunnel,
        )
        .then(
          (socket) => done(null, socket),
          (error: Error) => done(error),
        )
        .finally(() => deadline.stop());
      return undefined;
    };
    // Node's Agent takes a connection made later through the callback when none is returned.
    (agent as unknown as { createConnection: typeof create }).createConnection = create;
  }
}

/** `socket` once its TLS handshake is done, within `deadline` (which destroys it when it expires). */
function handshake(socket: TLSSocket, deadline: DialDeadline): Promise<TLSSocket> {
  deadline.onExpiry((error) => socket.destroy(error));
  return deadline.bound(
    new Promise<TLSSocket>((resolve, reject) => {
      socket.once('secureConnect', () => {
        socket.off('error', reject);
        resolve(socket);
      });
      socket.once('error', reject);
    }),
  );
}

function definedOnly(material: TlsMaterial): https.AgentOptions {
  return Object.fromEntries(Object.entries(material).filter(([, value]) => value !== undefined));
}
