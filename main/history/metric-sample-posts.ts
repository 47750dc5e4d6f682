// The Recorder's metric samples on their way to the recording process: each poll is cut into parts
// (see metricSamplesParts) posted one per turn of the event loop, in order, so a poll that defines
// many series never holds the informers' thread for its whole structured clone.
import type { MetricSamplesEntry } from './recording-protocol';
import { metricSamplesParts } from './metric-samples-parts';

export class MetricSamplePosts {
  /** Parts not posted yet, in order. */
  private parts: MetricSamplesEntry[] = [];

  constructor(
    /** Posts one part; false when it cannot be posted (the recording process died): the rest stay. */
    private readonly post: (part: MetricSamplesEntry) => boolean,
    /** Runs the next part's post in a later turn. */
    private readonly nextTurn: (work: () => void) => void,
  ) {}

  /** Queues one poll's samples; the first part goes now unless earlier parts are still going out. */
  add(samples: MetricSamplesEntry): void {
    const posting = this.parts.length > 0;
    this.parts.push(...metricSamplesParts(samples));
    if (!posting) this.postNext();
  }

  /** Posts every part still waiting, now (a poll under way is recorded whole before a close). */
  postAll(): void {
    while (this.parts.length > 0) this.postNext();
  }

  private postNext(): void {
    const part = this.parts.shift();
    if (!part || !this.post(part)) return;
    if (this.parts.length > 0) this.nextTurn(() => this.postNext());
  }
}
