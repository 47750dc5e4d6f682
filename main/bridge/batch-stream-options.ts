// A BatchStream's options and their defaults (batch-stream.ts).
import type { Clock } from '../cache/clock';
import type { OutgoingBatch } from './outgoing-message';

export interface BatchStreamOptions {
  subscriptionId: string;
  clock: Clock;
  /** A snapshot's rows given encoded (see openSnapshot) go out still encoded. */
  send: (batch: OutgoingBatch) => void;
  /** Bytes the transport holds unsent, when it can tell (a WebSocket can, a MessagePort cannot). */
  bufferedBytes?: () => number;
  /** The seq of the batch before the first one this stream sends (a resumed renderer's lastSeq). */
  lastSeq?: number;
  flushIntervalMs?: number;
  /**
   * The flush interval while the feed lists (see listing), after the listing's first batch: a first
   * LIST's previews on a loaded machine came a few dozen rows every 50 ms, and the page rendered its
   * table, badge and probe for each batch (20 a second, most of its CPU to "synced", on the cores
   * that listing needed). Fewer, larger batches carry the same rows; the first shows at once. 1 s
   * instead of 250 ms was tried (50,000 pods, load 30-41, back to back): 41 instead of 72 batches,
   * but the page's CPU to "synced" 4.79 s against 4.62 s, so no gain to pay a slower table for.
   */
  listingFlushIntervalMs?: number;
  /** The longest wait between flush attempts while the renderer is behind. */
  maxFlushIntervalMs?: number;
  /**
   * Rows (upserts plus deletes) per batch, snapshot chunks included; a snapshot's encoded chunks are
   * never cut (nor parsed) to fit, so a batch holds at least one whole chunk.
   */
  maxBatchRows?: number;
  maxUnacknowledgedBatches?: number;
  maxBufferedBytes?: number;
  /**
   * Keep the rows the renderer holds (see SentRows), so a replay can send a moment as its difference
   * from them (see baseRows). Default true; a replay's own stream has no use for it.
   */
  keepSentRows?: boolean;
  /**
   * Send one batch per turn of the event loop (see flush). Live subscriptions do; a replay's stream
   * is paced by its player, which counts on a moment's chunks going out as they are added.
   */
  oneBatchPerTurn?: boolean;
}

export const batchStreamDefaults = {
  flushIntervalMs: 50,
  listingFlushIntervalMs: 250,
  maxFlushIntervalMs: 1_000,
  maxBatchRows: 2_000,
  maxUnacknowledgedBatches: 8,
  maxBufferedBytes: 8 * 1024 * 1024,
} as const;
