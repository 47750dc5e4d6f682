// Go's dial timeout over the whole of opening one connection: the TCP connect, a proxy's tunnel and
// the TLS handshake together must finish within it. Each step's promise is bound to the deadline, so
// a step still pending when it expires fails with ETIMEDOUT, and a socket a step hands over after
// that is destroyed instead of leaking (a proxy that answers after we gave up).
import type { Socket } from 'node:net';
import type { Clock } from '../cache/clock';

export class DialDeadline {
  private expired: Error | undefined;
  private readonly expiryHandlers: ((error: Error) => void)[] = [];
  private readonly timer;
  private readonly controller = new AbortController();
  /** Aborted when the deadline expires: a step in progress (a proxy's handshake) abandons its socket. */
  readonly signal: AbortSignal = this.controller.signal;

  constructor(clock: Clock, timeoutMs: number) {
    this.timer = clock.setTimeout(() => {
      const error = Object.assign(new Error(`no connection within ${timeoutMs / 1000} s`), {
        code: 'ETIMEDOUT',
      });
      this.expired = error;
      this.controller.abort(error);
      for (const handler of this.expiryHandlers) handler(error);
    }, timeoutMs);
  }

  /** `work`'s result, or the deadline's error if it expires first; a value given nothing (undefined) passes. */
  bound<T extends Socket | undefined>(work: Promise<T> | T): Promise<T> {
    if (!(work instanceof Promise)) return Promise.resolve(work);
    return new Promise<T>((resolve, reject) => {
      if (this.expired) reject(this.expired);
      this.expiryHandlers.push(reject);
      work.then((value) => {
        if (this.expired) value?.destroy();
        else resolve(value);
      }, reject);
    });
  }

  /** Runs `handler` when the deadline expires (a socket being set up destroys itself). */
  onExpiry(handler: (error: Error) => void): void {
    this.expiryHandlers.push(handler);
  }

  /** The connection is made (or failed): the timer goes. */
  stop(): void {
    this.timer.stop();
  }
}
