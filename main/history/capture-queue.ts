// The Recorder's bounded queue of captured entries, between the informers' thread and the recording
// process. Bytes queued plus bytes sent but not yet written are bounded: when a change would pass the
// bound, it and every later change are dropped (the Recorder marks a queue-overflow gap) until the
// process has caught up to half the bound. Marks are never dropped: they are what says a gap exists.
export class CaptureQueue {
  private entries: string[] = [];
  private queuedBytes = 0;
  private queuedChanges = 0;
  /** sequence -> [bytes, changes] of each batch sent and not yet written. */
  private readonly inFlight = new Map<number, readonly [number, number]>();
  private inFlightBytes = 0;
  private inFlightChanges = 0;
  private overflowing = false;

  constructor(private readonly limitBytes: number) {}

  /** Queues a change; false (and nothing queued) while the queue overflows. */
  appendChange(text: string, force = false): boolean {
    if (
      !force &&
      (this.overflowing || this.queuedBytes + this.inFlightBytes + text.length > this.limitBytes)
    ) {
      this.overflowing = true;
      return false;
    }
    this.entries.push(text);
    this.queuedBytes += text.length;
    this.queuedChanges++;
    return true;
  }

  appendMark(text: string): void {
    this.entries.push(text);
    this.queuedBytes += text.length;
  }

  /** Bytes queued and not yet taken. */
  get pendingBytes(): number {
    return this.queuedBytes;
  }

  /** Changes captured and not yet written (queued or in flight). */
  get bufferedChanges(): number {
    return this.queuedChanges + this.inFlightChanges;
  }

  get isOverflowing(): boolean {
    return this.overflowing;
  }

  /** True once an overflowing queue has drained to half its bound: the Recorder may resynchronize. */
  canRecover(): boolean {
    return this.overflowing && this.queuedBytes + this.inFlightBytes <= this.limitBytes / 2;
  }

  recovered(): void {
    this.overflowing = false;
  }

  /** Everything queued, as one JSON array text sent as batch `sequence`; undefined when empty. */
  take(sequence: number): string | undefined {
    if (this.entries.length === 0) return undefined;
    const text = `[${this.entries.join(',')}]`;
    this.inFlight.set(sequence, [this.queuedBytes, this.queuedChanges]);
    this.inFlightBytes += this.queuedBytes;
    this.inFlightChanges += this.queuedChanges;
    this.entries = [];
    this.queuedBytes = 0;
    this.queuedChanges = 0;
    return text;
  }

  /** Batch `sequence` is written: its bytes leave the bound. */
  written(sequence: number): void {
    const batch = this.inFlight.get(sequence);
    if (!batch) return;
    this.inFlight.delete(sequence);
    this.inFlightBytes -= batch[0];
    this.inFlightChanges -= batch[1];
  }
}
