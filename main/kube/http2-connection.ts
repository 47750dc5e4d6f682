// One HTTP/2 connection to the API server (x/net/http2's ClientConn): a session over a TLS socket
// that negotiated "h2", carrying any number of concurrent streams up to the server's
// SETTINGS_MAX_CONCURRENT_STREAMS, with the health check of http2-health-check.ts. It stops taking
// new streams once it has received GOAWAY or closed; its pool then opens another.
import http2 from 'node:http2';
import type { ClientHttp2Session, ClientHttp2Stream, OutgoingHttpHeaders } from 'node:http2';
import type { TLSSocket } from 'node:tls';
import type { Clock, Timer } from '../cache/clock';
import { ConnectionLostError } from './errors';
import { Http2HealthCheck } from './http2-health-check';
import type { Http2HealthSettings } from './http2-health-check';

/**
 * Streams assumed allowed until the server's SETTINGS arrive: x/net/http2's
 * initialMaxConcurrentStreams, which kube-apiserver matches by default
 * (--http2-max-streams-per-connection unset).
 */
const initialMaxConcurrentStreams = 100;
/**
 * A connection without streams for this long is closed: client-go's transports keep
 * http.DefaultTransport's IdleConnTimeout (apimachinery SetOldTransportDefaults), 90 s.
 */
const idleConnectionTimeoutMs = 90_000;
/**
 * Flow-control windows of x/net/http2's Transport (transportDefaultStreamFlow, ...ConnFlow): 4 MiB per
 * stream and 1 GiB per connection, so a LIST of many megabytes streams without waiting for a window
 * update every 64 KiB (HTTP/2's default), and watches beside it are not starved.
 */
const streamWindowBytes = 4 << 20;
const connectionWindowBytes = 1 << 30;
/**
 * Node refuses new streams (ENHANCE_YOUR_CALM) once a session holds more than maxSessionMemory MB
 * (default 10); with 4 MiB windows, a few big LISTs at once pass that. Go sets no such cap.
 */
const maxSessionMemoryMegabytes = 512;

export class Http2Connection {
  private readonly session: ClientHttp2Session;
  private readonly health: Http2HealthCheck;
  private activeStreams = 0;
  private idleTimer: Timer | undefined;
  private settingsReceived = false;
  /** GOAWAY received, or the session closed: no new streams. */
  private draining = false;

  /** `gone` runs once, when the connection stops taking new streams. */
  constructor(
    readonly server: string,
    socket: TLSSocket,
    private readonly clock: Clock,
    settings: Http2HealthSettings,
    private readonly gone: (connection: Http2Connection) => void,
  ) {
    this.session = http2.connect(server, {
      createConnection: () => socket,
      maxSessionMemory: maxSessionMemoryMegabytes,
      settings: { initialWindowSize: streamWindowBytes },
    });
    this.session.once('connect', () => this.session.setLocalWindowSize(connectionWindowBytes));
    this.session.on('remoteSettings', () => {
      this.settingsReceived = true;
    });
    // Node shuts the session down gracefully after a GOAWAY: streams the server will still answer
    // (ids up to its last stream id) finish, later ones fail with ERR_HTTP2_GOAWAY_SESSION.
    this.session.on('goaway', () => this.drain());
    this.session.on('close', () => {
      this.health.stop();
      this.idleTimer?.stop();
      this.drain();
    });
    // Errors reach the streams too, which is where callers see them; the session only drains.
    this.session.on('error', () => this.drain());
    this.health = new Http2HealthCheck(
      {
        bytesRead: () => socket.bytesRead,
        ping: (acknowledged) => {
          if (this.session.destroyed) return;
          this.session.ping((error) => acknowledged(error));
        },
      },
      clock,
      settings,
      (reason) => this.destroy(new ConnectionLostError(server, reason)),
    );
    this.becameIdle();
  }

  /** Whether a new stream may start here now. */
  hasCapacity(): boolean {
    if (this.draining || this.session.closed || this.session.destroyed) return false;
    const limit = this.settingsReceived
      ? (this.session.remoteSettings.maxConcurrentStreams ?? initialMaxConcurrentStreams)
      : initialMaxConcurrentStreams;
    return this.activeStreams < limit;
  }

  /** Starts a stream; the caller checked hasCapacity() in the same turn. */
  request(headers: OutgoingHttpHeaders, endStream: boolean): ClientHttp2Stream {
    const stream = this.session.request(headers, { endStream });
    if (this.activeStreams++ === 0) {
      this.idleTimer?.stop();
      this.session.ref();
    }
    stream.once('close', () => {
      if (--this.activeStreams === 0) this.becameIdle();
    });
    return stream;
  }

  /** Fails every stream on the connection with `error` and closes it. */
  destroy(error: Error): void {
    this.drain();
    this.health.stop();
    this.idleTimer?.stop();
    if (!this.session.destroyed) this.session.destroy(error);
  }

  /** Lets the streams in flight finish, then closes; no new streams. */
  close(): void {
    this.drain();
    if (!this.session.closed) this.session.close();
  }

  /** An idle connection does not keep the process alive, and is closed after a while. */
  private becameIdle(): void {
    if (this.session.destroyed) return;
    this.session.unref();
    this.idleTimer?.stop();
    this.idleTimer = this.clock.setTimeout(() => {
      if (this.activeStreams === 0) this.close();
    }, idleConnectionTimeoutMs);
  }

  private drain(): void {
    if (this.draining) return;
    this.draining = true;
    this.gone(this);
  }
}
