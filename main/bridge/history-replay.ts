// One replay subscription: the rows of (gvr, namespace) as they were at a moment, sent through the same
// BatchStream a live subscription uses (snapshot runs, coalescing, acks, backpressure), so the
// renderer's mirror, filters and indexes work on the past exactly as on the present. Every batch is
// followed by a historyCursor saying how much of the moment has been sent and whether the recording
// saw it, so the renderer never takes a half-sent past for the whole one. Playback (player.ts) moves
// these rows forward: it applies recorded changes to them, and jumps by rebuilding them.
import type { Clock } from '../cache/clock';
import type { GroupVersionResource } from '../../shared/kube/object';
import { gvrKey } from '../../shared/kube/object';
import type { HistoryStateReply, ReplayGap } from '../../shared/protocol/history-messages';
import type { EncodedRows } from './encoded-rows';
import type { OutgoingBatch, OutgoingMessage } from './outgoing-message';
import { upsertCount, upsertCountOf } from './outgoing-message';
import { printerFor } from '../../shared/kinds/columns';
import { objectKey } from '../../shared/protocol/row';
import type { Row } from '../../shared/protocol/row';
import type { HistoryQueries, MomentSize, PlaybackChange } from '../history/history-queries';
import type { RecordedChange } from '../history/recorded-change';
import { BatchStream } from './batch-stream';
import type { BatchStreamOptions } from './batch-stream';
import type { RowProjector } from './row-projection';
import { MomentDifference } from './moment-difference';
import type { BaseRows } from './sent-rows';
import { HeldKeys } from './held-keys';
import { Player } from './player';
import { replayGapOf } from './replay-gaps';
import type { MomentReads, PlaybackView, PlayerReads, PlayerTiming } from './player';

export interface ReplaySubscriptionOptions extends PlayerTiming {
  readonly subscriptionId: string;
  readonly gvr: GroupVersionResource;
  readonly namespace: string;
  readonly projector: RowProjector;
  readonly clock: Clock;
  readonly send: (message: OutgoingMessage) => void;
  readonly bufferedBytes?: () => number;
  readonly batch?: Partial<Omit<BatchStreamOptions, 'subscriptionId' | 'clock' | 'send' | 'bufferedBytes'>>;
  /** Keeps the live recording's writes until a travel's rebuild settles (Recorder.holdWhile). */
  readonly holdRecording?: (work: Promise<unknown>) => void;
}

/**
 * Rows the renderer holds that a moment may be sent against (see DeltaBatch.base): a live subscription
 * of the same kind and namespace, its rows as of now when asked (undefined when it cannot serve).
 */
export interface ReplayBase {
  readonly subscriptionId: string;
  rows(): BaseRows | undefined;
}

/** A moment is sent against a base only when it has at least this share of the base's count of rows. */
const minimumBaseShare = 0.5;

/** A moment whose rows the renderer holds whole, as the query worker named it (MomentSize.moment). */
interface HeldMoment {
  readonly queries: MomentReads;
  readonly file: string;
  readonly id: number;
}

export class ReplaySubscription {
  readonly subscriptionId: string;
  readonly gvr: GroupVersionResource;
  readonly namespace: string;
  private readonly stream: BatchStream;
  /** Keys the renderer holds, so a recorded change becomes an add, an update or a delete. */
  private readonly keys = new HeldKeys();
  /**
   * The moment the renderer holds whole (its snapshot's last batch sent, no change applied since): a
   * later moment of the same worker and file is asked as its difference from it (see
   * MomentSize.against), sent against the renderer's own rows. Whatever sends otherwise unsets it.
   */
  private held: HeldMoment | undefined;
  /** The moment being sent, held once its snapshot's last batch is sent. */
  private sending: HeldMoment | undefined;
  private moment = 0;
  private gap: ReplayGap | undefined;
  /** Set while the moment is read (no total yet), then while its snapshot is sent: rows sent, of total. */
  private rebuilding: { rebuilt: number; total?: number } | undefined;
  private player: Player | undefined;
  /**
   * Set when rebuilding the moment failed after some of its rows were sent: the cursor keeps counting
   * them against the moment's total, so the renderer never takes what it holds for the whole moment.
   */
  private cutShort = false;
  /** The moment waits behind the player's view clock (see HistoryCursorMessage.catchingUp). */
  private catchingUp = false;
  private closed = false;
  /** Bumped by each showState, so a slower earlier one does not overwrite a later one. */
  private generation = 0;
  /** The moment being sent against a base (see ReplayBase), until its snapshot ends. */
  private difference: MomentDifference | undefined;
  /** How long the last showState's rebuild took, for a playback's first jump (see JumpEstimate). */
  private lastRebuildMs: number | undefined;
  /** Bumped by each play and stop, so a playback still opening when superseded never starts. */
  private playGeneration = 0;

  constructor(private readonly options: ReplaySubscriptionOptions) {
    this.subscriptionId = options.subscriptionId;
    this.gvr = options.gvr;
    this.namespace = options.namespace;
    this.stream = new BatchStream({
      ...options.batch,
      subscriptionId: options.subscriptionId,
      clock: options.clock,
      send: (batch) => this.sent(batch),
      keepSentRows: false,
      ...(options.bufferedBytes ? { bufferedBytes: options.bufferedBytes } : {}),
    });
  }

  /** The moment the rows show. */
  get time(): number {
    return this.moment;
  }

  get playing(): boolean {
    return this.player !== undefined;
  }

  /**
   * Stops any playback and sends the state at `time` as a snapshot, rebuilt by `queries` off the main
   * thread, each chunk passed on to the renderer as it is rebuilt, its progress in cursors. A later
   * showState supersedes one still rebuilding: only the latest moment asked for is sent. With a
   * `base`, only the rows that differ from its rows are sent (see DeltaBatch.base).
   */
  async showState(
    queries: HistoryQueries,
    file: string,
    time: number,
    base?: ReplayBase,
  ): Promise<HistoryStateReply> {
    this.stop(false);
    const began = this.options.clock.now();
    const rebuilding = this.rebuild(queries, file, time, base);
    this.options.holdRecording?.(rebuilding);
    const generation = this.generation;
    const reply = await rebuilding;
    // A rebuild superseded by a later one answers early, having sent nothing: its time says nothing.
    if (generation === this.generation) this.lastRebuildMs = this.options.clock.now() - began;
    return reply;
  }

  /** showState's rebuild, leaving any playback as it is (a player's jump rebuilds while it plays). */
  private async rebuild(
    queries: MomentReads,
    file: string,
    time: number,
    base?: ReplayBase,
  ): Promise<HistoryStateReply> {
    const generation = ++this.generation;
    // A rebuild superseded while sent against a base lets it go now (its rows are no longer counted).
    this.endDifference();
    // Without live rows to send against, the moment is asked as its difference from the one held.
    const held = this.held;
    const since = base === undefined && held?.queries === queries && held.file === file ? held.id : undefined;
    const shown = { moment: this.moment, gap: this.gap, rebuilding: this.rebuilding };
    // Said first: the renderer knows its moment is being read, not merely asked for.
    this.moment = time;
    this.rebuilding = { rebuilt: 0 };
    this.announce();
    const now = this.options.clock.now();
    const current = () => generation === this.generation && !this.closed;
    let snapshot: ReturnType<BatchStream['openSnapshot']> | undefined;
    let received = 0;
    /** The worker sends the rows that differ from the moment held (see MomentSize.against). */
    let againstHeld = false;
    // The moment's size comes before its rows: the renderer is told "rebuilding 0 of N", and keeps
    // the rows it has until the snapshot's end drops those the moment lacks.
    const begin = (moment: MomentSize) => {
      if (!current()) return;
      this.gap = replayGapOf(moment.gap);
      this.cutShort = false;
      this.rebuilding = { rebuilt: 0, total: moment.total };
      this.difference?.release();
      // From its first batch on, the renderer no longer holds a moment whole until this one's end.
      this.held = undefined;
      this.sending = moment.moment !== undefined ? { queries, file, id: moment.moment } : undefined;
      if (since !== undefined && moment.against === since) {
        // The renderer's own rows are the base: those of the moment held, as of the last batch sent
        // (nothing is sent between: the snapshot's first batch says so at once).
        againstHeld = true;
        snapshot = this.stream.openSnapshot({
          subscriptionId: this.subscriptionId,
          seq: this.stream.lastSeq,
        });
        this.announce();
        return;
      }
      this.keys.clear();
      let baseRows = base?.rows();
      // A moment much smaller than the live rows (before a scale-up, or a recording's first seconds)
      // would be sent as more deletes than rows, and the renderer would copy rows only to drop them.
      if (baseRows && moment.total < baseRows.size * minimumBaseShare) {
        baseRows.release();
        baseRows = undefined;
      }
      this.difference = baseRows && new MomentDifference(baseRows, this.keys.hashed);
      snapshot = this.stream.openSnapshot(
        this.difference && base
          ? { subscriptionId: base.subscriptionId, seq: this.difference.seq }
          : undefined,
      );
      this.announce();
    };
    // Rows projected in the worker come encoded, and are passed on as they are: only their keys are
    // read here.
    const add = (rows: Row[] | EncodedRows) => {
      if (!current()) return;
      const keys = 'json' in rows ? rows.keys : rows.map((row) => row.key);
      if (!snapshot) begin({ total: keys.length, gap: undefined });
      received += keys.length;
      if (againstHeld) {
        this.keys.add(keys);
        snapshot!.add(rows);
        return;
      }
      const difference = this.difference;
      if (difference) {
        // Its keys are hashed as they are compared: the deletes at the end need them all.
        const changed = difference.changed(rows);
        snapshot!.add(changed);
        // Rows the renderer holds already count as rebuilt, though no batch carries them.
        if (upsertCountOf(changed) === 0) this.announce();
        return;
      }
      this.keys.add(keys);
      snapshot!.add(rows);
    };
    let state: Awaited<ReturnType<HistoryQueries['stateAt']>>;
    try {
      const query = { gvr: gvrKey(this.gvr), time, ...(this.namespace ? { namespace: this.namespace } : {}) };
      const projector = this.options.projector;
      // The worker projects with shared/'s printers; a kind printed otherwise (a CRD's columns) is
      // projected here, from its objects.
      state = await (projector.printer === printerFor(this.gvr)
        ? queries.stateRows(file, query, now, add, begin, since)
        : queries.stateAt(
            file,
            query,
            (objects) => add(objects.map((object) => projector.project(object, now))),
            begin,
          ));
    } catch (error) {
      if (current() && snapshot === undefined) {
        // No row of this moment was sent: the rows are still those of the moment shown before.
        ({ moment: this.moment, gap: this.gap, rebuilding: this.rebuilding } = shown);
        this.announce();
      } else if (current()) {
        // Rows of this moment replaced some of those shown before: the snapshot ends with them, and
        // the cursor goes on counting them short of the moment's total, never saying it is whole.
        this.cutShort = true;
        snapshot!.end();
      }
      if (current()) this.endDifference();
      throw error;
    }
    const gap = replayGapOf(state.gap);
    const reply = { time, count: received, complete: state.complete, ...(gap ? { gap } : {}) };
    if (!current()) return reply;
    if (!snapshot) begin({ total: 0, gap: state.gap });
    this.gap = gap;
    let deletes: string[] | undefined;
    const difference = this.difference;
    if (againstHeld) {
      deletes = state.deletes ?? [];
      this.keys.remove(deletes);
      received = state.rows ?? received;
      this.keys.sized(received);
    } else if (difference) {
      deletes = await difference.deletes(() => this.options.clock.sleep(0));
      // Superseded meanwhile: the later rebuild sends its own moment (and released this base).
      if (!current()) return reply;
      this.difference = undefined;
    }
    // Versions that could not be read were left out: the moment is whole with the rows that came.
    this.rebuilding = { rebuilt: this.rebuilding?.rebuilt ?? 0, total: received };
    snapshot!.end(deletes);
    return reply;
  }

  /**
   * Plays forward from the current moment to the end of the recording `file` as it is now, the moment
   * advancing at `speed` times the wall clock whatever each frame costs. Resolves once playing, with
   * the first page of changes read; the view clock starts then.
   */
  async play(reads: PlayerReads, file: string, speed: number): Promise<void> {
    this.stop(false);
    const generation = this.playGeneration;
    const start = {
      reads,
      file,
      query: {
        gvr: gvrKey(this.gvr),
        ...(this.namespace ? { namespace: this.namespace } : {}),
        // The worker projects with shared/'s printers; a kind printed otherwise is projected here.
        rows: this.options.projector.printer === printerFor(this.gvr),
      },
      from: this.moment,
      speed,
      ...(this.lastRebuildMs !== undefined ? { previousRebuildMs: this.lastRebuildMs } : {}),
    };
    this.keys.hashAhead(this.options.clock, () => this.closed);
    const player = await Player.open(this.playbackView(), start, this.options.clock, this.options);
    if (generation !== this.playGeneration || this.closed) {
      player.close();
      return;
    }
    this.player = player;
    player.play();
    this.announce();
  }

  /** Stops playback where it is (the rows stay at the moment reached). */
  stop(announce = true): void {
    this.playGeneration++;
    const player = this.player;
    if (!player) return;
    player.close();
    this.player = undefined;
    this.catchingUp = false;
    if (announce) this.announce();
  }

  acknowledge(seq: number): void {
    this.stream.acknowledge(seq);
  }

  /**
   * Sends the moment again whole (the renderer saw a sequence gap: it holds no moment whole, and a
   * difference from one would be a gap again).
   */
  resnapshot(queries: HistoryQueries, file: string): Promise<HistoryStateReply> {
    this.held = undefined;
    return this.showState(queries, file, this.moment);
  }

  close(): void {
    this.closed = true;
    this.held = undefined;
    this.stop(false);
    this.endDifference();
    this.stream.close();
  }

  /** Lets go of the base of the moment sent against one (see ReplayBase). */
  private endDifference(): void {
    this.difference?.release();
    this.difference = undefined;
  }

  /** The rows as a player moves them. */
  private playbackView(): PlaybackView {
    return {
      moment: () => this.moment,
      rendererBehind: () => this.stream.pendingCount > 0 && this.stream.isBehind(),
      apply: (change) => this.apply(change),
      // The rows of the moment go out before its cursor, not up to a flush interval after it.
      flush: () => this.stream.flush(),
      rebuild: (reads, file, time) => {
        // A jump's moment is rebuilt whole, not caught up to.
        this.catchingUp = false;
        const rebuilt = this.rebuild(reads, file, time);
        void rebuilt.then(
          () => this.keys.hashAhead(this.options.clock, () => this.closed),
          () => {},
        );
        return rebuilt;
      },
      hold: (moment, gap, catchingUp) => {
        this.moment = moment;
        this.gap = gap;
        this.catchingUp = catchingUp;
      },
      announce: () => this.announce(),
      ended: () => this.stop(),
    };
  }

  private apply(change: PlaybackChange): void {
    this.moment = change.time;
    // The rows move on from the moment held: no later moment is sent as its difference from it.
    this.held = undefined;
    const { key, row } = 'json' in change ? this.project(JSON.parse(change.json) as RecordedChange) : change;
    const keys = this.keys.all();
    if (!row) {
      if (keys.delete(key)) this.stream.record({ type: 'deleted', key });
      return;
    }
    const known = keys.has(key);
    keys.add(key);
    this.stream.record(known ? { type: 'updated', row } : { type: 'added', row });
  }

  /** A change read as JSON (a kind the worker does not project): its key, and its row unless deleted. */
  private project(change: RecordedChange): { key: string; row?: Row } {
    const key = objectKey(change.namespace, change.name);
    if (change.type === 'Deleted' || !change.object) return { key };
    return { key, row: this.options.projector.project(change.object, this.options.clock.now()) };
  }

  /** Passes a batch on; during a snapshot, counts its rows and says how far the rebuild has got. */
  private sent(batch: OutgoingBatch): void {
    this.options.send(batch);
    const rebuilding = this.rebuilding;
    if (!rebuilding) return;
    rebuilding.rebuilt = (batch.replace ? 0 : rebuilding.rebuilt) + upsertCount(batch);
    if (batch.snapshotEnd && !this.cutShort) {
      this.rebuilding = undefined;
      this.held = this.sending;
    }
    this.announce();
  }

  private announce(): void {
    const rebuilding = this.rebuilding;
    const held = this.keys.size;
    const total = rebuilding ? rebuilding.total : held;
    let rebuilt = rebuilding ? rebuilding.rebuilt : held;
    if (rebuilding && this.difference) {
      // Rows the renderer holds already are rebuilt too, but the total is reached only by the batch
      // that ends the snapshot (the renderer applies it whole then).
      rebuilt += this.difference.unchanged;
      if (total !== undefined && rebuilt >= total) rebuilt = Math.max(0, total - 1);
    }
    // While a playback's jump rebuilds its moment (ahead of the view clock), no row of it is shown
    // yet: the cursor follows the view clock there rather than leaping ahead, and names the moment
    // once its rows are whole.
    const time = rebuilding && this.player ? Math.min(this.moment, this.player.viewClock()) : this.moment;
    this.options.send({
      type: 'historyCursor',
      subscriptionId: this.subscriptionId,
      time,
      playing: this.playing,
      rebuilt,
      ...(total !== undefined ? { total } : {}),
      ...(this.gap ? { gap: this.gap } : {}),
      ...(this.catchingUp ? { catchingUp: true as const } : {}),
    });
  }
}
