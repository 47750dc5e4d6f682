// Whether a synced watch can still vouch for its data. A healthy watch of a quiet kind delivers a
// bookmark about once a minute (see defaultSilenceAfterMs), so a watch that has delivered nothing for
// longer is either dead or served by a server that sends no bookmarks: either way "synced" would
// claim more than the feed knows, and the sync state says "no data for N s" instead.
import type { Clock, Timer } from '../cache/clock';

/**
 * kube-apiserver's watch cache sends every watch that allows bookmarks one about every minute
 * (cacher.go defaultBookmarkFrequency; dispatched on a ~1-1.25 s tick in 1 s buckets), and one 2 s
 * before the watch's deadline (cache_watcher.go nextBookmarkTime), after which the Reflector
 * re-watches and the next comes a minute later. So a healthy quiet watch goes at most about 62 s
 * without data; past 70 s the feed says so rather than showing a "synced" it cannot vouch for.
 */
export const defaultSilenceAfterMs = 60_000 + 10_000;

/**
 * Times the silence of one feed's watch on its clock, with one timer re-armed for the remaining time
 * when it fires (not one per event). `changed` hears the start of a silence (with when the last data
 * came) and its end (undefined).
 */
export class WatchSilence {
  private lastDataAt = 0;
  private timer: Timer | undefined;
  private silent = false;

  constructor(
    private readonly clock: Clock,
    private readonly thresholdMs: number,
    private readonly changed: (silentSince: number | undefined) => void,
  ) {}

  /** The feed (re)synced: its data is fresh now; time the silence from here. */
  restart(): void {
    this.lastDataAt = this.clock.now();
    this.silent = false;
    this.arm(this.thresholdMs);
  }

  /** A watch opened, or delivered data (an event or a bookmark). Cheap: called on every arrival. */
  data(): void {
    this.lastDataAt = this.clock.now();
    if (!this.silent) return;
    this.silent = false;
    this.changed(undefined);
    this.arm(this.thresholdMs);
  }

  /** The feed is no longer synced (or stopped): no silence to time until the next restart. */
  stop(): void {
    this.timer?.stop();
    this.timer = undefined;
    this.silent = false;
  }

  private arm(delayMs: number): void {
    this.timer?.stop();
    this.timer = this.clock.setTimeout(() => this.check(), delayMs);
  }

  private check(): void {
    this.timer = undefined;
    const idle = this.clock.now() - this.lastDataAt;
    if (idle < this.thresholdMs) {
      this.arm(this.thresholdMs - idle);
      return;
    }
    this.silent = true;
    this.changed(this.lastDataAt);
  }
}
