// Whole caches recorded at the recording process's pace. A record's slices (see CacheResync) serialize
// on this thread ~5 times faster than the process writes them (~15 us of CPU a pod here, 70-100
// there): left to run, a 150,000-pod record ran ~100 batches ahead of the process, 350-480 MB of fresh
// batch buffers that V8 counts as external memory, and its collector marked the heap over and over
// for it (30-34 us of main's CPU a pod instead of 14-15, 65-70 of the process's with its helper
// threads, test/bench/README.md, session 23). So a record's next slice runs only while the forced
// bytes (whole caches' records) queued or sent and not yet written are under a bound of a few
// batches; past it, the slice waits for the process's reply that a batch is written, which gives its
// buffer back to be filled again (at 150,000 pods: 24 us of main's CPU a pod and 41 of its helpers'
// against 35 and 63, 41-62 MB of external memory at the peak against 410-482, README, session 24).
// One bound for every stream: it is the process's backlog, whoever queued it. Live changes never wait
// here: they are queued as they come, under the queue's own bound.
//
// The record's end does not come later in practice: its stream's gap ends, as a reader sees it, when
// the process writes its gap-close, behind the record's last batch, and the process writes the record
// at its own pace either way; the bound keeps a batch sent behind the one it writes (and one being
// filled), so it never waits for this thread (at 150,000 pods the record was written no later, within
// the load's noise). What moves is the gap-close's stamp, from when this thread had queued the last
// object (8-24 s before the process wrote it) to when the process is a bound's worth from the end
// (1-4 s): the recording no longer claims the record whole long before it holds it.
//
// Every record waiting is released on each reply with room (a slice each, in the order they came: none
// starves, and a record waiting when the process has caught up always goes on), so the bound is passed
// by at most a slice per record. A process that dies sends no reply: records go on unpaced (their
// appends are no-ops, see Recorder) so that they finish and tell their waiters.
import type { CaptureQueue } from './capture-queue';

/** What the pace needs from its Recorder. */
export interface WholeCachePaceHost {
  /** Sends what is queued as a batch now. */
  send(): void;
  /** Runs `work` in a later turn of the event loop. */
  nextTurn(work: () => void): void;
}

export class WholeCachePace {
  /** Slices waiting for the process to write, oldest first. */
  private waiting: (() => void)[] = [];
  /** The process is gone or the recorder closed: slices go at once. */
  private unpaced = false;

  constructor(
    private readonly queue: CaptureQueue,
    /** Forced bytes queued or sent and unwritten past which a record's next slice waits. */
    private readonly boundBytes: number,
    private readonly host: WholeCachePaceHost,
  ) {}

  /** Runs `work` (a record's next slice) in a later turn, once the process has room for it. */
  nextTurn(work: () => void): void {
    if (this.unpaced || this.queue.unwrittenForcedBytes < this.boundBytes) {
      this.host.nextTurn(work);
      return;
    }
    this.waiting.push(work);
    // The reply that makes room needs a batch to answer: when what is sent is under the bound by
    // itself, what is queued goes now (else a batch sent already will be written first: no small one).
    if (this.queue.sentForcedBytes < this.boundBytes) this.host.send();
  }

  /**
   * True when what is queued is only the tail of records waiting here, and the batches sent already
   * keep the process busy until they go on: the flush timer leaves it to fill its batch. Sent, it
   * would be a batch of a slice's tail, a commit of the process's for a few KB, once per wait. (Under
   * load the timer still splits a record's batches while it runs: main fills 4 MiB in more than a
   * flush interval; see test/bench/README.md, session 24.) Anything else queued (a live change, a
   * mark) goes at the timer, as always.
   */
  tailWaits(): boolean {
    const { pendingBytes, pendingForcedBytes, sentForcedBytes } = this.queue;
    return (
      this.waiting.length > 0 && pendingBytes === pendingForcedBytes && sentForcedBytes >= this.boundBytes
    );
  }

  /** A batch is written: records waiting go on if the backlog is under the bound now. */
  written(): void {
    if (this.waiting.length > 0 && this.queue.unwrittenForcedBytes < this.boundBytes) this.release();
  }

  /**
   * The process died: nothing it was sent will be written, so no reply will make room. Records waiting
   * go on, and later slices go at once (their appends queue nothing): each finishes and tells its waiters.
   */
  unpace(): void {
    this.unpaced = true;
    this.release();
  }

  /** The recorder closes: its taps' records are cancelled, so what waits is dropped, not run. */
  stop(): void {
    this.unpaced = true;
    this.waiting = [];
  }

  /** Records waiting for the process (a test's view). */
  get waitingRecords(): number {
    return this.waiting.length;
  }

  private release(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const work of waiting) this.host.nextTurn(work);
  }
}
