// When a metrics resource's next poll is due, so that polls land soon after metrics-server publishes a
// scrape. metrics-server scrapes every kubelet once per resolution (15 s by default) and serves the
// latest scrape until the next one: a poll just before a scrape shows usage that is already a window
// old, for a whole window more. Where in its window a poll lands is found from the samples' own
// timestamps, compared only with one another (the server's clock is never compared with ours, which may
// be skewed by any amount): while a poll brings a newer scrape than the last, the next comes a little
// earlier in the window; one that brings the same scrape came before the next was published, so the
// poll after it comes a little later, and the phase holds from there. Polls keep to one per window
// (but for that one retry), each window's scrape is read (the recording's metric samples have no hole
// where a slow poll pushed the next past a scrape), and the phase is sought again now and then, as the
// two clocks drift.

/** How much earlier each poll comes while the phase is sought. */
export const metricsPhaseStepMs = 2_000;

/** After a poll that brought no new scrape: the retry's delay, from when that poll was due. */
export const metricsStaleRetryMs = 3_000;

/** Polls at the found phase before it is sought again (10 minutes at 15 s). */
export const metricsPhaseHoldPolls = 40;

export class MetricsPollPhase {
  /** The newest sample's timestamp of the last poll that brought one (the server's clock). */
  private lastTimestamp: number | undefined;
  /** Polls left at the found phase; 0 while it is sought. */
  private holding = 0;
  /** The last poll was a retry after a poll that brought no new scrape. */
  private retried = false;

  /**
   * A poll brought samples whose newest is `timestamp` (undefined: none); the scrapes come every
   * `periodMs`. Returns when the next poll is due, counted from when this one was due.
   */
  next(periodMs: number, timestamp: number | undefined): number {
    if (timestamp === undefined) return periodMs;
    const fresh = this.lastTimestamp === undefined || timestamp > this.lastTimestamp;
    if (!fresh) {
      // Before the next scrape was published. One retry a little later finds it; a second poll in a
      // row with nothing new (a metrics-server that stopped scraping) waits a whole period again.
      if (this.retried) return periodMs;
      this.retried = true;
      this.holding = metricsPhaseHoldPolls;
      return metricsStaleRetryMs;
    }
    this.lastTimestamp = timestamp;
    this.retried = false;
    if (this.holding > 0) {
      this.holding--;
      return periodMs;
    }
    return periodMs - metricsPhaseStepMs;
  }
}
