// How requests reach one API server, as client-go's transport does it: over TLS, ALPN offers "h2"
// and "http/1.1"; when the server picks h2, every LIST, WATCH and GET shares one HTTP/2 connection
// (more only past the server's SETTINGS_MAX_CONCURRENT_STREAMS, or after a GOAWAY), health-checked
// with PINGs. When it picks http/1.1, when the URL is plain http:// (client-go does not speak h2c)
// or when DISABLE_HTTP2 is set (as client-go reads it), requests go through a keep-alive Agent,
// a socket per request in flight, with TCP keep-alive on every socket.
import http from 'node:http';
import https from 'node:https';
import type { OutgoingHttpHeaders } from 'node:http2';
import { isIP } from 'node:net';
import tls from 'node:tls';
import type { TLSSocket } from 'node:tls';
import type { Clock } from '../cache/clock';
import { ConnectionLostError } from './errors';
import { Http2Connection } from './http2-connection';
import type { Http2HealthSettings } from './http2-health-check';
import { http1Response, http2Response } from './http-response';
import type { HttpProtocol, HttpResponse, OutgoingRequest } from './http-response';

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
}

export interface TransportRequest {
  /** The full URL, query included. */
  url: string;
  method: string;
  headers: Record<string, string>;
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

  constructor(private readonly options: ClusterTransportOptions) {
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

  private connectTls(): Promise<TLSSocket> {
    const url = new URL(this.options.server);
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const material = this.options.tls ?? {};
    return new Promise((resolve, reject) => {
      const socket = tls.connect({
        host,
        port: Number(url.port || 443),
        ...definedOnly(material),
        servername: material.servername ?? (isIP(host) ? undefined : host),
        ALPNProtocols: ['h2', 'http/1.1'],
      });
      socket.setKeepAlive(true, tcpKeepAliveDelayMs);
      const timer = this.options.clock.setTimeout(() => {
        socket.destroy(
          Object.assign(new Error(`no connection within ${dialTimeoutMs / 1000} s`), { code: 'ETIMEDOUT' }),
        );
      }, dialTimeoutMs);
      socket.once('secureConnect', () => {
        timer.stop();
        socket.off('error', reject);
        resolve(socket);
      });
      socket.once('error', (error) => {
        timer.stop();
        reject(error);
      });
    });
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
    const transport = request.url.startsWith('https:') ? https : http;
    const outgoing = transport.request(request.url, {
      method: request.method,
      headers: request.headers,
      agent: this.agent,
    });
    outgoing.once('socket', (socket) => socket.setKeepAlive(true, tcpKeepAliveDelayMs));
    const response = new Promise<HttpResponse>((resolve, reject) => {
      outgoing.once('response', (message) => resolve(http1Response(message)));
      outgoing.on('error', reject);
    });
    outgoing.end(request.payload);
    return { response, abort: (error) => outgoing.destroy(error) };
  }

  private newAgent(): http.Agent {
    const common = {
      keepAlive: true,
      keepAliveMsecs: tcpKeepAliveDelayMs,
      maxSockets,
      maxFreeSockets,
      scheduling: 'lifo' as const,
    };
    // An https Agent offers no ALPN, so its servers answer in HTTP/1.1.
    return this.options.tls
      ? new https.Agent({ ...common, ...definedOnly(this.options.tls) })
      : new http.Agent(common);
  }
}

function definedOnly(material: TlsMaterial): https.AgentOptions {
  return Object.fromEntries(Object.entries(material).filter(([, value]) => value !== undefined));
}
