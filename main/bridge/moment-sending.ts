// One moment's rows on their way to a replay's renderer, as the query worker rebuilds them, in one of
// four ways: whole (a snapshot of every row); against the live rows the renderer holds, compared by the
// worker (a travel from live, or a playback's jump from a moment far smaller than they are: main
// lists which version each live row is, see base-identities.ts, and the worker sends only the rows
// that differ and the keys the moment lacks); against them compared
// here (each chunk, see MomentDifference: a kind projected here); or against the moment the renderer
// holds (the worker sends only the rows whose version that moment did not have, and the keys it
// lacks: nothing the size of the moment crosses threads or reaches the renderer). Each way keeps
// the renderer's keys (HeldKeys) exactly those of the moment once it ends.
import type { MomentSize, RebuiltState } from '../history/history-queries';
import type { Row } from '../../shared/protocol/row';
import type { BatchStream } from './batch-stream';
import type { EncodedRows } from './encoded-rows';
import type { HeldKeys } from './held-keys';
import type { MomentReads } from './player';
import type { LiveJournal } from '../history/query-protocol';
import { listJournal, nextEpoch } from './identity-journal';
import { MomentDifference } from './moment-difference';
import { upsertCountOf } from './outgoing-message';
import type { BaseRows } from './sent-rows';

/**
 * Rows the renderer holds that a moment may be sent against (see DeltaBatch.base): a live subscription
 * of the same kind and namespace, its rows as of now when asked (undefined when it cannot serve).
 */
export interface ReplayBase {
  readonly subscriptionId: string;
  rows(): BaseRows | undefined;
}

/** A moment as the query worker named it (MomentSize.moment): a later one may be asked against it. */
export interface NamedMoment {
  readonly queries: MomentReads;
  readonly file: string;
  readonly id: number;
}

/** Live rows a travel from live was opened against (see openLive), until the worker answers. */
interface Listed {
  readonly rows: BaseRows;
  /** Every key of the rows, once listed. */
  keys: string[] | undefined;
  /** What the worker was asked against. */
  journal: LiveJournal | undefined;
}

/** A moment is sent against a base only when it has at least this share of the base's count of rows. */
const minimumBaseShare = 0.5;

/** Whether a moment of `total` rows may be sent against a base of `baseSize` rows (see minimumBaseShare). */
function momentFitsBase(total: number, baseSize: number): boolean {
  return total >= baseSize * minimumBaseShare;
}

export interface MomentSendingOptions {
  /** Where the moment is read: with the worker's name for it, the moment held once sent whole. */
  readonly queries: MomentReads;
  readonly file: string;
  readonly subscriptionId: string;
  readonly stream: BatchStream;
  readonly keys: HeldKeys;
  /** Says how far the moment has got (a chunk compared may send nothing). */
  readonly announce: () => void;
}

export class MomentSending {
  /** Rows that came (sent, or compared with a base); the moment's count once it ends. */
  received = 0;
  private snapshot: ReturnType<BatchStream['openSnapshot']> | undefined;
  /** Sent against the live rows (see ReplayBase) until its deletes are read. */
  private difference: MomentDifference | undefined;
  /** The worker sends the rows that differ from the moment held (see MomentSize.against). */
  private againstHeld = false;
  /** Opened against live rows listed for the worker (see openLive), until the worker answers. */
  private listed: Listed | undefined;
  /** The worker sends the rows that differ from the live rows listed (see MomentSize.againstLive). */
  private againstLive = false;
  private liveUnchanged = 0;

  constructor(private readonly options: MomentSendingOptions) {}

  /** The moment being sent, if the worker named it: the renderer holds it once its snapshot ends. */
  named: NamedMoment | undefined;

  /** Whether its snapshot has begun (a row of it may have reached the renderer). */
  get opened(): boolean {
    return this.snapshot !== undefined;
  }

  /** Rows of the moment the live base holds as they are (not sent), while compared with it. */
  get unchanged(): number | undefined {
    return this.againstLive ? this.liveUnchanged : this.difference?.unchanged;
  }

  /**
   * Opens the snapshot against `base`'s live rows as of their last batch at once, in the task that
   * takes them (the renderer copies the base as of that batch only if no batch of the live stream
   * goes out in between), and says what to ask the worker against: the batches of their identity
   * journal it has not read (see IdentityJournal), or when none is kept, a listing of them made a
   * slice per `nextTask` (see listJournal) that starts the journal again; undefined when they
   * cannot serve or `current` says the travel was superseded (then `open` sends as without).
   */
  async openLive(
    base: ReplayBase,
    nextTask: () => Promise<void>,
    current: () => boolean,
  ): Promise<LiveJournal | undefined> {
    const rows = base.rows();
    if (!rows) return undefined;
    this.options.keys.clear();
    const listed: Listed = { rows, keys: undefined, journal: undefined };
    this.listed = listed;
    this.snapshot = this.options.stream.openSnapshot({ subscriptionId: base.subscriptionId, seq: rows.seq });
    let journal = rows.journal;
    if (journal !== undefined) {
      // The base's keys as of its batch: this task took it, so none changed since.
      listed.keys = rows.keyList?.() ?? [...rows.keys()];
    } else {
      const epoch = rows.restartJournal?.() ?? nextEpoch();
      const listing = await listJournal(rows, nextTask, current);
      if (listing !== undefined) {
        listed.keys = listing.keys;
        journal = { epoch, from: 0, batches: [listing.batch] };
      } else {
        // Superseded: the worker never gets this epoch's start, so the next travel lists anew.
        rows.dropJournal?.(epoch);
      }
    }
    // The worker reads the journal from now on: the rows themselves are no longer read.
    rows.release();
    if (journal === undefined || this.listed !== listed) {
      this.listed = undefined;
      return undefined;
    }
    listed.journal = journal;
    return journal;
  }

  /**
   * Opens the snapshot of `moment`: against the moment held when the worker answered against it
   * (`since`), else against `base`'s live rows when they are a fair base, else whole.
   */
  open(moment: MomentSize, since: number | undefined, base: ReplayBase | undefined): void {
    const { stream, keys, queries, file } = this.options;
    this.named = moment.moment !== undefined ? { queries, file, id: moment.moment } : undefined;
    const listed = this.listed;
    this.listed = undefined;
    const journal = listed?.journal;
    if (journal !== undefined) {
      // What the worker read of the journal need not be sent again; if it could not read it, the
      // next travel lists the rows whole.
      if (moment.liveAt !== undefined) listed!.rows.acknowledgeJournal?.(journal.epoch, moment.liveAt);
      else listed!.rows.dropJournal?.(journal.epoch);
    }
    if (listed?.keys && moment.againstLive) {
      // The renderer starts from the live rows: they are its keys, until the moment's deletes.
      this.againstLive = true;
      this.liveUnchanged = moment.unchanged ?? 0;
      keys.add(listed.keys);
      return;
    }
    // Answered otherwise (a moment too small for the live rows to be its base): the snapshot opened
    // against them is replaced by the one opened below.
    listed?.rows.release();
    if (since !== undefined && moment.against === since) {
      // The renderer's own rows are the base: those of the moment held, as of the last batch sent
      // (nothing is sent between: the snapshot's first batch says so at once).
      this.againstHeld = true;
      this.snapshot = stream.openSnapshot({
        subscriptionId: this.options.subscriptionId,
        seq: stream.lastSeq,
      });
      return;
    }
    keys.clear();
    let baseRows = base?.rows();
    // A moment much smaller than the live rows (before a scale-up, or a recording's first seconds)
    // would be sent as more deletes than rows, and the renderer would copy rows only to drop them.
    if (baseRows && !momentFitsBase(moment.total, baseRows.size)) {
      baseRows.release();
      baseRows = undefined;
    }
    this.difference = baseRows && new MomentDifference(baseRows, keys.hashed);
    this.snapshot = stream.openSnapshot(
      this.difference && base ? { subscriptionId: base.subscriptionId, seq: this.difference.seq } : undefined,
    );
  }

  /**
   * The moment's next chunk. Rows projected in the worker come encoded, and are passed on as they
   * are: only their keys are read here (and, against live rows, their uid and version).
   */
  add(rows: Row[] | EncodedRows): void {
    const keys = 'json' in rows ? rows.keys : rows.map((row) => row.key);
    this.received += keys.length;
    const difference = this.difference;
    if (difference) {
      // Its keys are hashed as they are compared: the deletes at the end need them all.
      const changed = difference.changed(rows);
      this.snapshot!.add(changed);
      // Rows the renderer holds already count as rebuilt, though no batch carries them.
      if (upsertCountOf(changed) === 0) this.options.announce();
      return;
    }
    this.options.keys.add(keys);
    this.snapshot!.add(rows);
  }

  /**
   * The keys the moment deletes once every chunk came (the worker's, against the moment held; the
   * live base's it lacks, read a slice per `nextTask`), or undefined when `current` says it was
   * superseded meanwhile.
   */
  async deletes(
    state: RebuiltState,
    nextTask: () => Promise<void>,
    current: () => boolean,
  ): Promise<{ deletes?: string[] } | undefined> {
    if (this.againstHeld || this.againstLive) {
      const deletes = state.deletes ?? [];
      this.options.keys.remove(deletes);
      this.received = state.rows ?? this.received;
      this.options.keys.sized(this.received);
      return { deletes };
    }
    const difference = this.difference;
    if (!difference) return {};
    const deletes = await difference.deletes(nextTask);
    // Superseded meanwhile: the later rebuild sends its own moment (and released this base).
    if (!current()) return undefined;
    this.difference = undefined;
    return { deletes };
  }

  /** Ends the snapshot, with the keys it deletes (see deletes). */
  end(deletes: string[] | undefined): void {
    this.snapshot!.end(deletes);
  }

  /** Ends the snapshot with the rows sent so far (a rebuild that failed after some were sent). */
  endShort(): void {
    this.snapshot?.end();
  }

  /** Lets go of the live base, if any (its rows are no longer counted). */
  release(): void {
    this.difference?.release();
    this.difference = undefined;
    this.listed?.rows.release();
    this.listed = undefined;
  }
}

/**
 * Whether a moment held of `heldSize` rows is a fair base beside `base`'s live rows: not when it holds
 * much fewer rows than they do (a recording's start, its first list still to come). Against such a
 * moment, a later one as large as the live rows (the list's end, which a playback from the start
 * jumps to first) would have every row cross from the worker, be sent and be parsed by the page,
 * where against the live rows only those changed since do. Yes when the live rows cannot serve.
 */
export function heldFitsBase(heldSize: number, base: ReplayBase): boolean {
  const rows = base.rows();
  if (rows === undefined) return true;
  rows.release();
  return momentFitsBase(heldSize, rows.size);
}

/**
 * Whether `query`'s moment may be sent against `base`'s live rows: unless it holds much fewer rows
 * than they do (the recorder's first list still being written, a recording's start, before a
 * scale-up), asked of the worker before the live rows are listed for it. Opened against them, such a
 * moment had the renderer copy every live row into the replay's table, then drop all but the
 * moment's, and the worker read the live rows' comparison for nothing: sent whole, the renderer's
 * table is replaced by the moment's few rows. Yes when it cannot be told (the worker answers the
 * rebuild's question as before).
 */
export async function fitsBase(
  queries: MomentReads,
  file: string,
  query: { readonly gvr: string; readonly time: number; readonly namespace?: string },
  base: ReplayBase,
): Promise<boolean> {
  if (!queries.momentSize) return true;
  const total = await queries.momentSize(file, query).catch(() => undefined);
  if (total === undefined) return true;
  const rows = base.rows();
  if (rows === undefined) return true;
  rows.release();
  return momentFitsBase(total, rows.size);
}
