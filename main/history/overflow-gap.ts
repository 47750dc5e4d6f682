// The Recorder's queue-overflow gap: when the recording process falls behind and the capture queue
// refuses a change, one gap opens for every stream (changes are dropped from then on); once the
// process has caught up, each stream's cache is recorded again as a relist (its untouched objects
// retire), and the gap closes when the last of those records is queued. A loss is never silent: every
// dropped change lies inside this gap.
import type { CaptureQueue } from './capture-queue';
import type { MarkEntry } from './recording-protocol';
import type { StreamTap } from './stream-tap';

/** What the gap needs from its Recorder. */
export interface OverflowHost {
  /** A number for a new gap, unique within the Recorder. */
  nextGap(): number;
  /** See Recorder's stamp: wall time that never goes backwards within the recording. */
  stamp(): number;
  appendMark(entry: MarkEntry): void;
  /** The taps of the streams recorded now. */
  taps(): StreamTap[];
}

export class OverflowGap {
  /** Changes the queue refused, in this session. */
  dropped = 0;
  /** The open gap's number; undefined while no change is being dropped or recovered from. */
  private gap: number | undefined;
  /** The streams whose resync after the last overflow is not done yet (see recover). */
  private unsettled: Set<StreamTap> | undefined;

  constructor(
    private readonly queue: CaptureQueue,
    private readonly host: OverflowHost,
  ) {}

  /** The queue refused a change: it is counted, and lies in the gap (opened now if not open yet). */
  refused(): void {
    this.dropped++;
    if (this.gap !== undefined) return;
    this.gap = this.host.nextGap();
    this.host.appendMark({
      mark: 'gap-open',
      gap: this.gap,
      reason: 'queue-overflow',
      stream: undefined,
      start: this.host.stamp(),
      detail: 'the recording process fell behind; changes were dropped until the caches were recorded again',
    });
  }

  /** A batch was written: once the queue has drained enough, the streams are recorded again. */
  written(): void {
    if (this.queue.canRecover()) this.recover();
  }

  /**
   * The process caught up after an overflow: each stream's cache is recorded again as a relist, in
   * slices; the gap closes once every stream's is queued. The caches' content is queued whatever the
   * bound: it is what ends the gap. Should the queue overflow again meanwhile, the gap stays open and
   * this runs again once the process catches up.
   */
  private recover(): void {
    this.queue.recovered();
    const unsettled = new Set(this.host.taps());
    this.unsettled = unsettled;
    const settled = (tap: StreamTap) => {
      unsettled.delete(tap);
      if (this.unsettled === unsettled && unsettled.size === 0) this.recovered();
    };
    for (const tap of [...unsettled]) tap.resynchronize(() => settled(tap));
    if (unsettled.size === 0 && this.unsettled === unsettled) this.recovered();
  }

  private recovered(): void {
    this.unsettled = undefined;
    if (this.gap === undefined || this.queue.isOverflowing) return;
    this.host.appendMark({ mark: 'gap-close', gap: this.gap, end: this.host.stamp() });
    this.gap = undefined;
  }
}
