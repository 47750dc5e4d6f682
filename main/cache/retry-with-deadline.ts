// client-go tools/cache retry_with_deadline.go: retries a class of errors (for the Reflector, a watch
// that ends with InternalError, e.g. "etcdserver: no leader") for a bounded time before giving up and
// relisting. Errors further apart than the reset period start a fresh retry window.
import type { Clock } from './clock';

export class RetryWithDeadline {
  private firstErrorTime: number | undefined;
  private lastErrorTime: number | undefined;

  /**
   * @param maxRetryDurationMs how long after the first retryable error retries are allowed; ≤ 0 turns
   *   retrying off.
   * @param minResetPeriodMs a retryable error at least this long after the previous one starts a new
   *   window.
   */
  constructor(
    private readonly maxRetryDurationMs: number,
    private readonly minResetPeriodMs: number,
    private readonly isRetryable: (error: unknown) => boolean,
    private readonly clock: Clock,
  ) {}

  /** Records the outcome of an attempt; only retryable errors count. */
  after(error: unknown): void {
    if (error === undefined || !this.isRetryable(error)) return;
    const now = this.clock.now();
    if (this.lastErrorTime === undefined || now - this.lastErrorTime >= this.minResetPeriodMs) this.reset();
    if (this.firstErrorTime === undefined) this.firstErrorTime = now;
    this.lastErrorTime = now;
  }

  /** True while the current window of retryable errors is within the allowed duration. */
  shouldRetry(): boolean {
    if (this.maxRetryDurationMs <= 0) return false;
    if (
      this.firstErrorTime !== undefined &&
      this.clock.now() - this.firstErrorTime <= this.maxRetryDurationMs
    ) {
      return true;
    }
    this.reset();
    return false;
  }

  private reset(): void {
    this.firstErrorTime = undefined;
    this.lastErrorTime = undefined;
  }
}
