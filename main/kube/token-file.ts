// A kubeconfig user's `tokenFile`, read as client-go's CachedFileTokenSource reads it: the file's
// content, trimmed, re-read at most once a minute, so a token that something else rotates on disk (a
// projected service-account token, a CI job's short-lived credential) is picked up without a restart.
// A read that fails once a token was read keeps the last one (client-go logs and carries on); a 401
// makes the next request read the file again (client-go's ResetTokenOlderThan).
import { readFile } from 'node:fs/promises';
import type { Clock } from '../cache/clock';
import { messageOf } from './errors';

/** client-go's period: a token is reused for a minute after it was read. */
export const tokenFilePeriodMs = 60_000;

export class TokenFile {
  private token: string | undefined;
  private readAt = Number.NEGATIVE_INFINITY;
  private reading: Promise<string> | undefined;

  constructor(
    readonly path: string,
    private readonly clock: Clock,
  ) {}

  /** The token; throws when the file has never been read, with why. */
  async current(): Promise<string> {
    if (this.token !== undefined && this.clock.now() - this.readAt < tokenFilePeriodMs) return this.token;
    this.reading ??= this.read().finally(() => {
      this.reading = undefined;
    });
    return this.reading;
  }

  /** The next current() reads the file again. */
  reset(): void {
    this.readAt = Number.NEGATIVE_INFINITY;
  }

  private async read(): Promise<string> {
    try {
      const token = (await readFile(this.path, 'utf8')).trim();
      if (token === '') throw new Error(`read empty token from file "${this.path}"`);
      this.token = token;
      this.readAt = this.clock.now();
      return token;
    } catch (error) {
      if (this.token === undefined)
        throw new Error(`cannot read the user's tokenFile: ${messageOf(error)}`, { cause: error });
      // Tried again at the next period, not at every request.
      this.readAt = this.clock.now();
      return this.token;
    }
  }
}
