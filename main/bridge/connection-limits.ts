// What renderer connections may ask of main. A renderer is the less trusted side (in browser mode
// any page that got hold of the session could drive it), so main bounds how many it serves and each
// connection on its own: no connection can starve main's event loop, the API server's connection
// pool, or the other connections. Each default sits far above what the UI does, so only a misbehaving client meets one,
// and it is told which limit it hit.
import type { Clock } from '../cache/clock';

export interface ConnectionLimits {
  /**
   * Renderer connections main serves at once, over every transport: a window or browser tab holds one
   * (two briefly while it reloads). Without a bound, a compromised renderer asking for port after port
   * would multiply every per-connection limit below.
   */
  readonly maxConnections: number;
  /**
   * Sustained messages per second. The UI's busiest traffic is one ack per batch per subscription
   * (at most ~20 batches/s each) plus timeline scrubbing (a historyState per pointer move, ~60/s):
   * a few hundred a second at worst.
   */
  readonly messagesPerSecond: number;
  /** Messages accepted at once above the sustained rate (a reconnect resubscribes everything at once). */
  readonly messageBurst: number;
  /**
   * Live plus replay subscriptions one connection may hold. The UI holds one per kind on screen plus
   * the detail pane's helpers and a replay per kind: a handful. Every subscription costs a batch stream
   * and, for a new (kind, namespace), an informer with its own watch.
   */
  readonly maxSubscriptions: number;
  /**
   * Requests (messages with a requestId) still being served. The UI rarely has more than a few in
   * flight (an object, its events, its owners); each may hold an API request open for up to 30 s.
   */
  readonly maxOutstandingRequests: number;
  /**
   * Invalid messages tolerated before the connection is closed. The UI never sends one; a client that
   * sends many is broken or hostile, and answering each would cost main as much as the flood itself.
   */
  readonly maxInvalidMessages: number;
}

export const defaultConnectionLimits: ConnectionLimits = {
  maxConnections: 32,
  messagesPerSecond: 1_000,
  messageBurst: 2_000,
  maxSubscriptions: 64,
  maxOutstandingRequests: 64,
  maxInvalidMessages: 100,
};

/**
 * A token bucket on an injected clock: `burst` tokens, refilled at `perSecond`. take() spends one and
 * says whether there was one to spend.
 */
export class MessageRateLimiter {
  private tokens: number;
  private refilledAt: number;

  constructor(
    private readonly clock: Clock,
    private readonly perSecond: number,
    private readonly burst: number,
  ) {
    this.tokens = burst;
    this.refilledAt = clock.now();
  }

  take(): boolean {
    const now = this.clock.now();
    if (now > this.refilledAt) {
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilledAt) / 1000) * this.perSecond);
      this.refilledAt = now;
    }
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
