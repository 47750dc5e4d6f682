// One subscription's rows in the renderer: a Map keyed by row key plus indexes kept from a log of its
// changes, changed only by DeltaBatches applied in sequence. Rows are replaced, never mutated, so a
// row's identity tells a memoized table cell whether it changed; batches are not mutated either once
// applied, because the change log keeps their `upserts` arrays.
//
// A mirror whose snapshots are only ever shown whole (a replay: the table says "rebuilding N of M"
// until every row of the moment is in, see replayHolds) holds a snapshot's chunks as they arrive and
// applies them together at its end. In the ui bench's travel at 50,000 pods the page spent most of
// its time on what nobody saw: a revision per chunk, the table's query merging each chunk's arrivals
// into the name order, and the renders that followed. Each held chunk is put in name order as it
// arrives (NameRuns), and the name order takes the snapshot's keys from there rather than sorting
// them all once the last chunk is in. Into a mirror that never showed a moment (a travel's first:
// nobody reads it before its snapshot ends) the chunks are written as they arrive, still applied
// whole as far as any reader can tell: the revision moves once, at the end.
//
// Such a mirror's snapshot sent against a base (a travel from live) starts from the base's rows: they
// are copied at the first batch (an array, a few ms at 150,000 rows) but written into the mirror a
// slice a frame (writeAhead) while the query worker still rebuilds the moment; writing 150,000 rows
// at once was a 234-262 ms task of the page. Its name order is carried from the base's rather than
// built from the moment's rows (see CarriedOrder).
import type { Row } from '../../shared/protocol/row';
import type { DeltaBatch } from '../../shared/protocol/server-messages';
import { RowChangeLog } from './row-change-log';
import { RowIndexes } from './row-indexes';
import { NameRuns } from './named-keys';
import type { NamedKeys } from './named-keys';
import { namedOrder } from './name-order';
import type { CarriedOrder } from './carried-order';
import { HeldBase } from './held-base';

/**
 * - applied: the batch changed the mirror (revision bumped).
 * - held: a chunk of a snapshot the mirror applies whole (see SubscriptionMirrorOptions): taken, to be
 *   acknowledged, but the rows are unchanged until the snapshot's end.
 * - duplicate: its seq was already applied (a redelivery); ignored.
 * - gap: batches were missed; the mirror refuses live batches until a snapshot starts, and the caller
 *   must ask main for one.
 * - awaitingSnapshot: ignored while a gap is open, because only a snapshot can repair it.
 */
export type ApplyOutcome = 'applied' | 'held' | 'duplicate' | 'gap' | 'awaitingSnapshot';

export interface SubscriptionMirrorOptions {
  /**
   * Apply each snapshot whole, at its end, rather than chunk by chunk: for a mirror nobody reads while
   * a snapshot is under way (a replay, shown only once it holds the whole moment).
   */
  readonly wholeSnapshots?: boolean;
}

export class SubscriptionMirror {
  readonly rows = new Map<string, Row>();
  /** Every change to `rows`, recorded once per batch, until the indexes that need it have read it. */
  readonly changes: RowChangeLog;
  /** Built from `rows` again when an index went unread through many changes (see RowChangeLog). */
  readonly indexes: RowIndexes;
  /** Bumped once per applied batch; views recompute their queries when it moves. */
  revision = 0;
  /** The revision at which the last live snapshot became whole here (0 before any). */
  snapshotEndRevision = 0;
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
  /** True while a snapshot's batches are being applied (from its first batch to its end). */
  private snapshotUnderWay = false;
  /** A live snapshot under way whose size main told (DeltaBatch.snapshotRows): rows applied of it. */
  private loadingRows: { received: number; total: number } | undefined;
  /** A live mirror opened anew, its first snapshot not begun: none of the feed's rows are here yet. */
  private awaitingFirstSnapshot: boolean;
  /**
   * Keys the snapshot under way has mentioned, when rows it may leave unmentioned (to be removed at
   * its end) were in the mirror at its start; undefined otherwise. A first listing into an empty
   * mirror keeps no such set: every row in the mirror at its end came from it (at 150,000 rows, a
   * Set of every key, and a pass over every row to sweep none).
   */
  private snapshotKeys: Set<string> | undefined;
  private readonly wholeSnapshots: boolean;
  /** With wholeSnapshots: the batches of the snapshot under way, in order, until its end. */
  private heldBatches: DeltaBatch[] | undefined;
  private heldRowCount = 0;
  /** With wholeSnapshots: the held chunks' upserts in name order, from the snapshot's start. */
  private heldOrder: NameRuns | undefined;
  /** With wholeSnapshots, for a snapshot against a base (DeltaBatch.base): see HeldBase. */
  private heldBase: HeldBase | undefined;
  /** The last whole snapshot's upserts in name order, until the name order takes them. */
  private snapshotOrder: NameRuns | undefined;
  /** The last whole snapshot's order carried from its base, until the name order takes it. */
  private carriedOrder: CarriedOrder | undefined;
  /**
   * With wholeSnapshots, for a snapshot into a mirror that never showed one (empty: a travel's first
   * moment): each chunk is written as it arrives (see writesHeld), not held to the end.
   */
  private writingEarly = false;

  /** `pendingLimit`: see RowChangeLog (tests lower it to exercise rebuilds). */
  constructor(lastSeq = 0, pendingLimit?: number, options: SubscriptionMirrorOptions = {}) {
    this.lastSeq = lastSeq;
    this.changes = new RowChangeLog(this.rows, pendingLimit);
    this.indexes = new RowIndexes(this.changes);
    this.wholeSnapshots = options.wholeSnapshots ?? false;
    this.awaitingFirstSnapshot = lastSeq === 0 && !this.wholeSnapshots;
  }

  /**
   * The upserts of the last snapshot applied whole, in name order (a key in two chunks twice, side by
   * side), once: the name order places the snapshot's arrivals from them (see NameOrder).
   */
  takeSnapshotOrder(): NamedKeys | undefined {
    const order = this.snapshotOrder;
    this.snapshotOrder = undefined;
    return order?.merged();
  }

  /**
   * The name order of the last whole snapshot carried from its base's (see CarriedOrder), once: the
   * name order starts from it rather than from the rows.
   */
  takeCarriedOrder(): CarriedOrder | undefined {
    const carried = this.carriedOrder;
    this.carriedOrder = undefined;
    return carried;
  }

  /**
   * The live snapshot under way, when main told its size: rows applied of it so far. The feed may be
   * synced in main while its rows are still on their way to this page.
   */
  get loading(): { readonly received: number; readonly total?: number } | undefined {
    if (this.loadingRows) return { ...this.loadingRows };
    return this.awaitingFirstSnapshot ? { received: 0 } : undefined;
  }

  /** Rows (upserts plus deletes) in the held batches of a snapshot under way (see wholeSnapshots). */
  get heldRows(): number {
    return this.heldRowCount;
  }

  /** The base's rows a snapshot under way has still to write into this mirror (see writeAhead). */
  get rowsAhead(): number {
    return this.heldBase?.ahead ?? 0;
  }

  /**
   * Writes up to `maxRows` more of the base's rows a snapshot under way starts from (see rowsAhead),
   * skipping those whose key the snapshot changed; returns how many it looked at. Nobody reads the
   * mirror before the snapshot's end, which writes whatever is left: rows written here only save the
   * end their cost.
   */
  writeAhead(maxRows: number): number {
    const heldBase = this.heldBase;
    if (heldBase === undefined || heldBase.ahead === 0) return 0;
    const { rows, looked } = heldBase.slice(maxRows);
    this.upsertAll(rows);
    return looked;
  }

  /**
   * True while the snapshot under way is written chunk by chunk though applied whole: the mirror never
   * showed a moment, so nobody reads its rows until the snapshot's end bumps the revision (the table
   * says "rebuilding N of M" meanwhile). Its chunks then cost their rows as they come, and its end
   * costs only its own: at 150,000 rows the page wrote the whole moment after its last byte, 150-215
   * ms of the travel's tail (page-ingest.ts) in which nothing else could run.
   */
  get writesHeld(): boolean {
    return this.writingEarly;
  }

  /**
   * True when the mirror holds exactly the rows of batch `seq`, whole: a snapshot sent against it
   * (see DeltaBatch.base) may start from a copy of them.
   */
  holdsWhole(seq: number): boolean {
    return (
      this.lastSeq === seq &&
      this.hasSnapshot &&
      !this.awaitingSnapshot &&
      !this.snapshotUnderWay &&
      this.heldBatches === undefined
    );
  }

  /**
   * Applies `batch`; `base` is the mirror a snapshot sent against one names (DeltaBatch.base),
   * undefined when the renderer has no such mirror.
   */
  apply(batch: DeltaBatch, base?: SubscriptionMirror): ApplyOutcome {
    if (batch.seq <= this.lastSeq) return 'duplicate';
    const startsSnapshot = batch.replace === true;
    if (this.awaitingSnapshot && !startsSnapshot) return 'awaitingSnapshot';
    const baseUnusable =
      batch.base !== undefined && (!this.wholeSnapshots || !base?.holdsWhole(batch.base.seq));
    if ((batch.seq !== this.lastSeq + 1 && !startsSnapshot) || baseUnusable) {
      // A base not exactly as main sent it would leave rows main never compared: only a whole
      // snapshot (which a resnapshot is) can repair that.
      this.awaitingSnapshot = true;
      this.snapshotUnderWay = false;
      this.loadingRows = undefined;
      this.snapshotKeys = undefined;
      // A snapshot cut by the gap is never applied: the resnapshot replaces it.
      this.heldBatches = undefined;
      this.heldOrder = undefined;
      this.heldBase = undefined;
      this.heldRowCount = 0;
      // Its chunks written so far stay: the mirror is no longer empty, so the resnapshot is held
      // whole and its end sweeps whatever it does not mention.
      this.writingEarly = false;
      return 'gap';
    }
    this.awaitingSnapshot = false;
    this.lastSeq = batch.seq;
    if (this.wholeSnapshots && (startsSnapshot || this.heldBatches !== undefined)) {
      const held = startsSnapshot ? [] : this.heldBatches!;
      const order = startsSnapshot ? new NameRuns() : this.heldOrder!;
      if (startsSnapshot) {
        // The base's rows as they are now, when the base is exactly at the batch main compared with
        // (the batches after it are still queued behind this one): its later batches change it,
        // not this copy. Its name order comes with them, so they need no sort.
        // (An array: a Map copy of 50,000 rows cost the page 60 ms, the array 3.)
        // An empty mirror that never showed a moment (a travel's first) is read by nobody until the
        // snapshot ends: the base's rows are written into it while the query worker still rebuilds
        // the moment, a slice a frame (writeAhead; all at once here was a 234-262 ms task at
        // 150,000 rows), rather than after its last byte (0.2-0.4 s of the page's tail then). The
        // snapshot's own chunks are written as they come too (see writesHeld), and a base row whose
        // key they changed is never written. Its name order is carried from the base's with their
        // ranks rather than merged with the snapshot's chunks (see CarriedOrder).
        // A snapshot against this mirror's own rows (a replay's moment sent as its difference from
        // the moment it holds) has them written already: only what differs is applied at the end.
        const own = base === this;
        const neverShown = this.rows.size === 0 && !this.hasSnapshot;
        this.writingEarly = neverShown;
        const written = base !== undefined && (neverShown || own);
        const carried = base !== undefined && neverShown && !own;
        this.carriedOrder = undefined;
        this.heldBase = base && new HeldBase(base, written, own, carried);
        if (base && !carried) order.addOrdered(namedOrder(base));
        this.heldRowCount = written ? 0 : (this.heldBase?.rows.length ?? 0);
      }
      const heldBase = this.heldBase;
      if (heldBase) {
        // A row of the base's keys is in its name order already: only new keys are sorted and merged
        // (most of a recent moment's rows that differ are updates). The base has moved on since the
        // copy, but the order only gains from this: a key taken for the base's that is not in its
        // order is sorted at the end, and one placed twice is taken once (see takeArrivals).
        order.add(heldBase.note(batch, this.rows));
      } else order.add(batch.upserts);
      // Written now in the order the end would apply it: over the base's rows (those written ahead).
      if (this.writingEarly) this.applyChanges(batch);
      else {
        held.push(batch);
        this.heldRowCount += batch.upserts.length + batch.deletes.length;
      }
      if (!batch.snapshotEnd) {
        this.heldOrder = order;
        this.heldBatches = held;
        return 'held';
      }
      // The base's rows not written ahead yet, before anyone can read the mirror.
      if (heldBase?.written) this.writeAhead(heldBase.ahead);
      this.heldBatches = undefined;
      this.heldOrder = undefined;
      this.heldBase = undefined;
      this.heldRowCount = 0;
      this.snapshotOrder = order;
      // An empty mirror (a travel's first moment) holds no row the snapshot could leave unmentioned:
      // no set of the keys it mentions, and no sweep (nor when the rows it holds are the base's).
      const sweep = this.rows.size > 0 && !heldBase?.written && !this.writingEarly;
      this.writingEarly = false;
      this.snapshotUnderWay = true;
      this.snapshotKeys = sweep ? new Set() : undefined;
      // A snapshot against a base: the base's rows it leaves as they are, then what differs (rows,
      // and deletes at the end), so each of the moment's rows is written once.
      if (heldBase && !heldBase.written) this.upsertAll(heldBase.unchanged());
      for (const chunk of held) this.applyChanges(chunk);
      this.carriedOrder = heldBase?.carriedOrder(this.changes.end);
    } else {
      if (startsSnapshot) {
        this.snapshotUnderWay = true;
        this.awaitingFirstSnapshot = false;
        this.snapshotKeys = this.rows.size > 0 ? new Set() : undefined;
        this.loadingRows =
          batch.snapshotRows === undefined ? undefined : { received: 0, total: batch.snapshotRows };
      }
      // Set only while its snapshot is under way (cleared at its end and at a gap).
      if (this.loadingRows) this.loadingRows.received += batch.upserts.length;
      this.applyChanges(batch);
    }
    if (batch.snapshotEnd && this.snapshotUnderWay) {
      const mentioned = this.snapshotKeys;
      if (mentioned) {
        const unmentioned: string[] = [];
        for (const key of this.rows.keys()) if (!mentioned.has(key)) unmentioned.push(key);
        this.removeAll(unmentioned);
      }
      this.snapshotKeys = undefined;
      this.snapshotUnderWay = false;
      this.loadingRows = undefined;
      this.hasSnapshot = true;
      this.snapshotEndRevision = this.revision + 1;
    }
    this.revision += 1;
    return 'applied';
  }

  private applyChanges(batch: DeltaBatch): void {
    if (batch.deletes.length > 0) this.removeAll(batch.deletes);
    this.upsertAll(batch.upserts);
  }

  /** Writes `upserts` and records them, with the rows they replaced, as one run of the change log. */
  private upsertAll(upserts: Row[]): void {
    const oldRows: (Row | undefined)[] = [];
    const snapshotKeys = this.snapshotKeys;
    for (const row of upserts) {
      oldRows.push(this.upsert(row));
      snapshotKeys?.add(row.key);
    }
    this.changes.recordUpserts(upserts, oldRows);
  }

  /** The row `row` replaced (undefined: it was added). */
  private upsert(row: Row): Row | undefined {
    const old = this.rows.get(row.key);
    if (old === undefined) this.membership += 1;
    this.rows.set(row.key, row);
    return old;
  }

  /** Removes the rows under `keys` (absent keys are skipped) and records them as one run of the change log. */
  private removeAll(keys: readonly string[]): void {
    const removedKeys: string[] = [];
    const removedRows: Row[] = [];
    for (const key of keys) {
      const old = this.rows.get(key);
      if (old === undefined) continue;
      this.membership += 1;
      this.rows.delete(key);
      removedKeys.push(key);
      removedRows.push(old);
    }
    this.changes.recordDeletes(removedKeys, removedRows);
  }
}
