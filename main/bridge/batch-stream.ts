// One subscription's outgoing stream of numbered DeltaBatches. Changes are coalesced per key between
// flushes; a flush happens at most every flushIntervalMs, or at once when maxBatchRows keys are waiting.
// A renderer that falls behind (too many batches unacknowledged, or too many bytes buffered in the
// transport) is sent nothing until it catches up, while changes keep coalescing: its next batches are
// coarser, and the backlog is bounded by the number of keys in the feed, never by the event rate.
import type { Timer } from '../cache/clock';
import type { DeltaBatch, SnapshotBase } from '../../shared/protocol/server-messages';
import type { Row } from '../../shared/protocol/row';
import type { EncodedRows } from './encoded-rows';
import { SnapshotRows } from './snapshot-rows';
import { SentRows } from './sent-rows';
import type { IdentityJournal } from './identity-journal';
import type { BaseRows } from './sent-rows';
import { PendingChanges } from './squash';
import type { RowChange } from './squash';
import { batchStreamDefaults } from './batch-stream-options';
import type { BatchStreamOptions } from './batch-stream-options';

export { batchStreamDefaults } from './batch-stream-options';
export type { BatchStreamOptions } from './batch-stream-options';

export class BatchStream {
  readonly subscriptionId: string;
  private readonly options: Required<
    Omit<BatchStreamOptions, 'bufferedBytes' | 'lastSeq' | 'keepSentRows' | 'oneBatchPerTurn'>
  > &
    Pick<BatchStreamOptions, 'bufferedBytes'>;
  /** What the renderer holds, when kept (see BatchStreamOptions.keepSentRows). */
  private readonly sentRows: SentRows | undefined;
  private readonly pending = new PendingChanges();
  private sentSeq: number;
  private acknowledgedSeq: number;
  /** Rows of a snapshot not yet sent; while set, live changes wait behind it. */
  private snapshotRows: SnapshotRows | undefined;
  /** Whether the snapshot under way has sent its first batch (the one that replaces). */
  private snapshotStarted = false;
  /** The open snapshot's handle (see openSnapshot) while its rows are still coming. */
  private openedSnapshot: object | undefined;
  /** Keys a snapshot against a base deletes, sent with its last batch (see openSnapshot's end). */
  private snapshotDeletes: readonly string[] = [];
  /** The rows of a snapshot given whole (see snapshot), told with its first batch. */
  private snapshotTotal: number | undefined;
  private timer: Timer | undefined;
  private interval: number;
  /** The feed is listing (see listing): 'first' until its first batch has gone, then 'sent'. */
  private listingState: 'no' | 'first' | 'sent' = 'no';
  /** A message to send once the rows recorded before it have gone out (see afterRows). */
  private afterRowsSend: (() => void) | undefined;
  /** The last batch sent before the last afterRows message went out (see awaitsDelivery). */
  private afterRowsSeq = 0;
  private closed = false;
  private readonly oneBatchPerTurn: boolean;

  constructor(options: BatchStreamOptions) {
    this.subscriptionId = options.subscriptionId;
    this.options = { ...batchStreamDefaults, ...options };
    this.sentSeq = options.lastSeq ?? 0;
    this.acknowledgedSeq = this.sentSeq;
    this.interval = this.options.flushIntervalMs;
    this.sentRows = options.keepSentRows === false ? undefined : new SentRows();
    this.oneBatchPerTurn = options.oneBatchPerTurn ?? false;
  }

  /**
   * The rows the renderer holds once it has applied the last batch sent, kept as they are now while
   * later batches go out (see SentRows); undefined while a snapshot is under way or when not kept.
   */
  baseRows(): BaseRows | undefined {
    if (this.closed || this.snapshotRows !== undefined) return undefined;
    return this.sentRows?.base(this.sentSeq);
  }

  /** The identity journal of the rows sent, when kept (see SentRows.journal). */
  get identityJournal(): IdentityJournal | undefined {
    return this.closed ? undefined : this.sentRows?.journal;
  }

  /** The seq of the last batch sent. */
  get lastSeq(): number {
    return this.sentSeq;
  }

  /** Keys waiting to be sent. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** The seq of the last batch the renderer has acknowledged as applied. */
  get lastAcknowledgedSeq(): number {
    return this.acknowledgedSeq;
  }

  /**
   * True while the renderer lacks rows that came before the last afterRows message (a listing's,
   * before its "synced"): that message waits, or a batch sent before it is unacknowledged, or a
   * snapshot is under way. Live changes since do not count, so churn never keeps it true.
   */
  awaitsDelivery(): boolean {
    if (this.closed) return false;
    return (
      this.afterRowsSend !== undefined ||
      this.snapshotRows !== undefined ||
      this.acknowledgedSeq < this.afterRowsSeq
    );
  }

  /** True while the renderer has not caught up with what was sent. */
  isBehind(): boolean {
    if (this.sentSeq - this.acknowledgedSeq >= this.options.maxUnacknowledgedBatches) return true;
    return (this.options.bufferedBytes?.() ?? 0) > this.options.maxBufferedBytes;
  }

  record(change: RowChange): void {
    if (this.closed) return;
    this.pending.record(change);
    if (
      this.pending.size >= this.options.maxBatchRows &&
      this.snapshotRows === undefined &&
      !this.isBehind()
    ) {
      this.flush();
    } else {
      this.schedule();
    }
  }

  /**
   * Starts a full snapshot of `rows` (the feed's current rows): pending changes are dropped, since the
   * snapshot already holds their outcome, and the rows go out as consecutive replace batches.
   */
  snapshot(rows: Row[]): void {
    if (this.closed) return;
    this.startSnapshot(new SnapshotRows(rows), undefined);
    this.snapshotTotal = rows.length;
    this.flush();
  }

  /**
   * Starts a snapshot whose rows come over time (a past moment rebuilt chunk by chunk): each chunk
   * given to `add` goes out as the renderer's lag allows, and the last batch, snapshotEnd, only after
   * `end`. A snapshot started meanwhile replaces it: its later calls are then ignored.
   */
  openSnapshot(base?: SnapshotBase): {
    add(rows: readonly Row[] | EncodedRows): void;
    end(deletes?: readonly string[]): void;
  } {
    const rows = new SnapshotRows();
    const handle = {};
    this.startSnapshot(rows, handle);
    // A snapshot against a base says so at once, in a batch of its own: the renderer copies the
    // base's rows as they are when it applies it, which is as of base.seq only if no batch of the
    // base's stream goes out in between. Otherwise nothing is sent until the first rows come.
    if (base !== undefined) {
      this.snapshotStarted = true;
      this.emit({ upserts: [], deletes: [], replace: true, base });
    }
    return {
      add: (chunk) => {
        if (this.openedSnapshot !== handle) return;
        rows.add(chunk);
        this.flush();
      },
      end: (deletes) => {
        if (this.openedSnapshot !== handle) return;
        this.openedSnapshot = undefined;
        if (deletes !== undefined && deletes.length > 0) this.snapshotDeletes = deletes;
        this.flush();
      },
    };
  }

  /**
   * Whether the feed lists now (its sync phase): while it does, batches after the first go at most
   * every listingFlushIntervalMs; when it stops, what is pending goes at once, so the rows are there
   * with the "synced" that follows.
   */
  listing(listing: boolean): void {
    if (listing === (this.listingState !== 'no')) return;
    this.listingState = listing ? 'first' : 'no';
    this.interval = this.baseInterval();
    if (!listing && this.pending.size > 0) this.flush();
  }

  /**
   * Sends `send` once every row recorded or snapshotted so far has gone out in a batch (at once when
   * none waits), so what it says is in order with them; it replaces a send still waiting. A listing's
   * last rows can wait for a renderer that is behind (at 20,000 pods and load 20, 8,000 rows waited
   * 5 s for acknowledgements), and a "synced" sent past them read as synced over a table short of
   * those rows. Undefined drops a send still waiting.
   */
  afterRows(send: (() => void) | undefined): void {
    this.afterRowsSend = send;
    this.sendAfterRows();
  }

  /** The renderer applied every batch up to `seq`. */
  acknowledge(seq: number): void {
    if (seq > this.acknowledgedSeq && seq <= this.sentSeq) this.acknowledgedSeq = seq;
    // A full batch waiting goes as soon as the renderer has room, as record() sends one: the flush
    // interval coalesces small batches, and must not cap a fast listing at eight batches a second.
    if (
      this.snapshotRows === undefined &&
      this.pending.size >= this.options.maxBatchRows &&
      !this.isBehind()
    ) {
      this.flush();
      return;
    }
    if (!this.isBehind() && (this.snapshotRows !== undefined || this.pending.size > 0)) {
      if (this.interval !== this.baseInterval()) {
        this.interval = this.baseInterval();
        this.timer?.stop();
        this.timer = undefined;
      }
      this.schedule();
    }
  }

  /**
   * Sends what it can now, respecting the size cap and the renderer's lag; with oneBatchPerTurn, one
   * batch now and the rest one per turn of the event loop: each batch is a JSON text of up to
   * maxBatchRows rows, its bookkeeping and the socket's copies, and eight of them sent back to back
   * (a snapshot for a page opened mid-LIST, a backlog once the renderer acknowledges) held the main
   * thread 2-5 s at 150,000 pods, with the LIST's socket data, the acknowledgements and every timer
   * waiting behind them.
   */
  flush(): void {
    this.timer?.stop();
    this.timer = undefined;
    if (this.closed) return;
    if (!this.isBehind()) this.sendOne();
    while (!this.oneBatchPerTurn && this.hasBatch() && !this.isBehind()) this.sendOne();
    // An open snapshot with nothing left to send waits for its next rows (add and end flush).
    if (this.hasBatch()) {
      if (this.isBehind()) {
        this.interval = Math.min(this.interval * 2, this.options.maxFlushIntervalMs);
        this.schedule();
      } else {
        // Not behind: the backoff is over (an acknowledgement must not put this turn off to a flush
        // interval, see acknowledge).
        this.interval = this.baseInterval();
        this.scheduleNextTurn();
      }
    } else {
      this.interval = this.baseInterval();
    }
    this.sendAfterRows();
  }

  /** Whether a batch waits: a snapshot's chunk, or pending changes once no snapshot is under way. */
  private hasBatch(): boolean {
    return this.hasSnapshotChunk() || (this.snapshotRows === undefined && this.pending.size > 0);
  }

  /** The next batch: a snapshot's chunk while one is under way, else pending changes. */
  private sendOne(): void {
    if (this.hasSnapshotChunk()) {
      this.sendSnapshotChunk();
    } else if (this.snapshotRows === undefined && this.pending.size > 0) {
      const { upserts, deletes } = this.pending.take(this.options.maxBatchRows);
      this.emit({ upserts, deletes });
      if (this.listingState === 'first') this.listingState = 'sent';
    }
  }

  /** Flushes again in the loop's next turn (a timer: I/O and other timers run first). */
  private scheduleNextTurn(): void {
    this.timer?.stop();
    this.timer = this.options.clock.setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, 0);
  }

  /** Sends what waits for the rows (see afterRows) once none is left to send. */
  private sendAfterRows(): void {
    const send = this.afterRowsSend;
    if (send === undefined || this.closed || this.snapshotRows !== undefined || this.pending.size > 0) return;
    this.afterRowsSend = undefined;
    this.afterRowsSeq = this.sentSeq;
    send();
  }

  /** The interval between flushes while the renderer keeps up. */
  private baseInterval(): number {
    return this.listingState === 'sent' ? this.options.listingFlushIntervalMs : this.options.flushIntervalMs;
  }

  close(): void {
    this.closed = true;
    this.timer?.stop();
    this.timer = undefined;
    this.pending.clear();
    this.snapshotRows = undefined;
    this.openedSnapshot = undefined;
    this.afterRowsSend = undefined;
    this.sentRows?.clear();
  }

  /**
   * Drops pending changes, since the snapshot holds their outcome, and sends `rows` from the start;
   * `handle` is set while the snapshot is open (see openSnapshot).
   */
  private startSnapshot(rows: SnapshotRows, handle: object | undefined): void {
    this.pending.clear();
    // A renderer that asks for a snapshot has discarded what it was sent; waiting for its acks would
    // stall the very snapshot it needs.
    this.acknowledgedSeq = this.sentSeq;
    this.snapshotRows = rows;
    this.snapshotStarted = false;
    this.openedSnapshot = handle;
    this.snapshotDeletes = [];
    this.snapshotTotal = undefined;
  }

  /**
   * Whether a snapshot has a batch to send: rows not sent yet, or the end of a snapshot no longer open.
   * While it is open only full batches go, and never its last rows: those wait for the end and go with
   * it, so a renderer counting the rows sent against the moment's total (a replay's cursor) never
   * reaches the total before the batch that ends the snapshot, which a mirror applying snapshots whole
   * only then applies.
   */
  private hasSnapshotChunk(): boolean {
    const rows = this.snapshotRows;
    if (rows === undefined) return false;
    if (this.openedSnapshot === undefined) return true;
    return rows.nextSize(this.options.maxBatchRows) < rows.size;
  }

  private sendSnapshotChunk(): void {
    const rows = this.snapshotRows!;
    const upserts = rows.take(this.options.maxBatchRows);
    const first = !this.snapshotStarted;
    this.snapshotStarted = true;
    const last = rows.size === 0 && this.openedSnapshot === undefined;
    // Deletes go with the last batch, never with an upsert of their key (they are keys the moment lacks).
    const deletes = last ? [...this.snapshotDeletes] : [];
    if (last) {
      this.snapshotRows = undefined;
      this.snapshotDeletes = [];
    }
    this.emit({
      upserts,
      deletes,
      ...(first ? { replace: true } : {}),
      ...(first && this.snapshotTotal !== undefined ? { snapshotRows: this.snapshotTotal } : {}),
      ...(last ? { snapshotEnd: true } : {}),
    });
  }

  private emit(
    changes: Pick<DeltaBatch, 'deletes' | 'replace' | 'snapshotEnd' | 'base' | 'snapshotRows'> & {
      upserts: Row[] | EncodedRows;
    },
  ): void {
    this.sentSeq += 1;
    const envelope = { type: 'batch' as const, subscriptionId: this.subscriptionId, seq: this.sentSeq };
    // Rows or one encoded run: two shapes of batch (the ternary lets the type checker tell them apart).
    const { upserts, ...rest } = changes;
    if (Array.isArray(upserts)) this.sentRows?.sent({ ...rest, upserts });
    this.options.send(
      Array.isArray(upserts) ? { ...envelope, ...rest, upserts } : { ...envelope, ...rest, upserts },
    );
  }

  private schedule(): void {
    if (this.timer !== undefined || this.closed) return;
    this.timer = this.options.clock.setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, this.interval);
  }
}
