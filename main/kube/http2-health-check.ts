// client-go's HTTP/2 connection health check. k8s.io/apimachinery/pkg/util/net/http.go
// (configureHTTP2Transport, called from SetTransportDefaults for every client-go transport) sets
// golang.org/x/net/http2.Transport's ReadIdleTimeout to 30 s and PingTimeout to 15 s, read from
// HTTP2_READ_IDLE_TIMEOUT_SECONDS and HTTP2_PING_TIMEOUT_SECONDS when set (a read-idle of 0 turns the
// check off), "to detect and close broken transport layer connections" that the kernel would only
// drop after 13 to 30 minutes (client-go#374, kubernetes#87615). x/net/http2 resets a read-idle timer
// on every frame it reads; when the timer fires it sends a PING, and no ACK within the ping timeout
// closes the connection (closeForLostPing), failing every stream on it.
//
// Node runs the HTTP/2 framing natively and reports no per-frame event, but the socket's bytesRead
// grows with every frame read; it is sampled every second, so a PING leaves between 30 and 31 s after
// the last frame. Timers run on the injected Clock.
import type { Clock, Timer } from '../cache/clock';

export interface Http2HealthSettings {
  /** No frame read for this long sends a PING; 0 turns the check off. */
  readIdleTimeoutMs: number;
  /** A PING unanswered for this long closes the connection. */
  pingTimeoutMs: number;
}

/** What the check needs of a session: a byte counter, and PING. */
export interface PingableSession {
  /** Bytes read from the connection so far (the socket's bytesRead). */
  bytesRead(): number;
  /** Sends a PING; `acknowledged` runs with no error when its ACK arrives. */
  ping(acknowledged: (error: Error | null) => void): void;
}

const sampleIntervalMs = 1_000;

/** client-go's values, or the environment's overrides as client-go reads them. */
export function http2HealthSettings(environment: NodeJS.ProcessEnv = process.env): Http2HealthSettings {
  return {
    readIdleTimeoutMs: seconds(environment.HTTP2_READ_IDLE_TIMEOUT_SECONDS, 30) * 1000,
    pingTimeoutMs: seconds(environment.HTTP2_PING_TIMEOUT_SECONDS, 15) * 1000,
  };
}

/** Like apimachinery: an unparsable value keeps the default (it logs a warning; so do we). */
function seconds(text: string | undefined, fallback: number): number {
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) {
    console.warn(`kubetide: ignoring illegal HTTP/2 health-check setting "${text}"; using ${fallback} s`);
    return fallback;
  }
  return value;
}

export class Http2HealthCheck {
  private lastBytesRead: number;
  private lastReadAt: number;
  private sampler: Timer | undefined;
  private pingDeadline: Timer | undefined;
  private stopped = false;

  /** `lost` runs once, with why, when a PING goes unanswered; the caller closes the connection. */
  constructor(
    private readonly session: PingableSession,
    private readonly clock: Clock,
    private readonly settings: Http2HealthSettings,
    private readonly lost: (reason: string) => void,
  ) {
    this.lastBytesRead = session.bytesRead();
    this.lastReadAt = clock.now();
    if (settings.readIdleTimeoutMs > 0) this.schedule();
  }

  stop(): void {
    this.stopped = true;
    this.sampler?.stop();
    this.pingDeadline?.stop();
  }

  private schedule(): void {
    const untilIdle = this.lastReadAt + this.settings.readIdleTimeoutMs - this.clock.now();
    this.sampler = this.clock.setTimeout(() => this.sample(), Math.min(sampleIntervalMs, untilIdle));
  }

  private sample(): void {
    if (this.stopped) return;
    const bytesRead = this.session.bytesRead();
    if (bytesRead !== this.lastBytesRead) {
      this.lastBytesRead = bytesRead;
      this.lastReadAt = this.clock.now();
    }
    if (this.clock.now() - this.lastReadAt >= this.settings.readIdleTimeoutMs) this.ping();
    else this.schedule();
  }

  /** While a PING is out, only its ACK counts as proof of life, as in x/net/http2's healthCheck. */
  private ping(): void {
    this.pingDeadline = this.clock.setTimeout(() => {
      if (this.stopped) return;
      this.stop();
      this.lost(
        `no frame read for ${this.settings.readIdleTimeoutMs / 1000} s and no answer to a PING ` +
          `within ${this.settings.pingTimeoutMs / 1000} s`,
      );
    }, this.settings.pingTimeoutMs);
    // If Node refuses the PING (too many unanswered already), the deadline above still decides.
    this.session.ping((error) => {
      if (this.stopped || error) return;
      this.pingDeadline?.stop();
      this.lastBytesRead = this.session.bytesRead();
      this.lastReadAt = this.clock.now();
      this.schedule();
    });
  }
}
