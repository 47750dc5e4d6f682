// One subscription's rows in the renderer: a Map keyed by row key plus incrementally maintained
// indexes, changed only by DeltaBatches applied in sequence. Rows are replaced, never mutated, so a
// row's identity tells a memoized table cell whether it changed.
import type { Row } from '../../shared/protocol/row';
import type { DeltaBatch } from '../../shared/protocol/server-messages';
import { RowIndexes } from './row-indexes';

/**
 * - applied: the batch changed the mirror (revision bumped).
 * - duplicate: its seq was already applied (a redelivery); ignored.
 * - gap: batches were missed; the mirror refuses live batches until a snapshot starts, and the caller
 *   must ask main for one.
 * - awaitingSnapshot: ignored while a gap is open, because only a snapshot can repair it.
 */
export type ApplyOutcome = 'applied' | 'duplicate' | 'gap' | 'awaitingSnapshot';

export class SubscriptionMirror {
  readonly rows = new Map<string, Row>();
  /** Built from `rows` again when an index went unread through many changes (see DeferredValueIndex). */
  readonly indexes = new RowIndexes(this.rows);
  /** Bumped once per applied batch; views recompute their queries when it moves. */
  revision = 0;
  /**
   * Bumped whenever a key is added or removed (never by an update in place): orders that depend only
   * on which keys exist and on their names, such as the default sort, stay valid while it holds.
   */
  membership = 0;
  /** The seq of the last batch applied (0 before the first). */
  lastSeq: number;
  /** False until the first snapshot has ended: the table can show "listing" rather than an empty kind. */
  hasSnapshot = false;
  private awaitingSnapshot = false;
  /** Keys the snapshot under way has mentioned; undefined outside a snapshot. */
  private snapshotKeys: Set<string> | undefined;

  constructor(lastSeq = 0) {
    this.lastSeq = lastSeq;
  }

  /** True while a sequence gap is open and a resnapshot is due. */
  get isAwaitingSnapshot(): boolean {
    return this.awaitingSnapshot;
  }

  apply(batch: DeltaBatch): ApplyOutcome {
    if (batch.seq <= this.lastSeq) return 'duplicate';
    const startsSnapshot = batch.replace === true;
    if (this.awaitingSnapshot && !startsSnapshot) return 'awaitingSnapshot';
    if (batch.seq !== this.lastSeq + 1 && !startsSnapshot) {
      this.awaitingSnapshot = true;
      this.snapshotKeys = undefined;
      return 'gap';
    }
    this.awaitingSnapshot = false;
    this.lastSeq = batch.seq;
    if (startsSnapshot) this.snapshotKeys = new Set();
    for (const key of batch.deletes) this.remove(key);
    for (const row of batch.upserts) {
      this.upsert(row);
      this.snapshotKeys?.add(row.key);
    }
    if (batch.snapshotEnd && this.snapshotKeys) {
      const mentioned = this.snapshotKeys;
      for (const key of [...this.rows.keys()]) if (!mentioned.has(key)) this.remove(key);
      this.snapshotKeys = undefined;
      this.hasSnapshot = true;
    }
    this.revision += 1;
    return 'applied';
  }

  private upsert(row: Row): void {
    const old = this.rows.get(row.key);
    if (!old) this.membership += 1;
    this.rows.set(row.key, row);
    this.indexes.update(row.key, old, row);
  }

  private remove(key: string): void {
    const old = this.rows.get(key);
    if (!old) return;
    this.membership += 1;
    this.rows.delete(key);
    this.indexes.update(key, old, undefined);
  }
}
