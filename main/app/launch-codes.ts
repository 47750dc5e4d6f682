// One-time launch codes: what the browser is opened on instead of the session secret. A code is
// random, redeemable once, and only for a few seconds, so a copy read off the browser opener's command
// line (`ps`, /proc/PID/cmdline are readable by every local user) is spent or stale before it helps
// anyone. The session secret itself only ever travels in the HttpOnly cookie a code is exchanged for.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../cache/clock';
import { realClock } from '../cache/real-clock';

/**
 * How long the code handed to the browser opener lives: the browser is started and requests the
 * address within a second or two on a normal machine; ten seconds leaves room for a slow one.
 */
export const openerCodeLifetimeMs = 10_000;
/**
 * How long the printed address lives: long enough to copy into a browser by hand, short enough that
 * a terminal scroll-back or screen share found later is useless. Pressing Enter prints a fresh one.
 */
export const printedCodeLifetimeMs = 60_000;

interface IssuedCode {
  readonly code: Buffer;
  readonly expiresAt: number;
}

export class LaunchCodes {
  private issued: IssuedCode[] = [];

  constructor(private readonly clock: Clock = realClock) {}

  /** A new code, valid once within `lifetimeMs`. */
  issue(lifetimeMs: number): string {
    this.forgetExpired();
    const code = randomBytes(24);
    this.issued.push({ code, expiresAt: this.clock.now() + lifetimeMs });
    return code.toString('base64url');
  }

  /** True (once) for an issued, unexpired code; the code is spent either way it matched. */
  redeem(offered: string): boolean {
    this.forgetExpired();
    const bytes = Buffer.from(offered, 'base64url');
    const index = this.issued.findIndex(
      (issued) => issued.code.length === bytes.length && timingSafeEqual(issued.code, bytes),
    );
    if (index < 0) return false;
    this.issued.splice(index, 1);
    return true;
  }

  private forgetExpired(): void {
    const now = this.clock.now();
    this.issued = this.issued.filter((issued) => issued.expiresAt > now);
  }
}
