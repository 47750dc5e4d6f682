// One replay subscription: the rows of (gvr, namespace) as they were at a moment, sent through the same
// BatchStream a live subscription uses (snapshot runs, coalescing, acks, backpressure), so the
// renderer's mirror, filters and indexes work on the past exactly as on the present. Every batch is
// followed by a historyCursor saying how much of the moment has been sent and whether the recording
// saw it (ReplayCursor). A moment goes whole, or as its difference from rows the renderer holds
// (MomentSending). Playback (player.ts) moves these rows forward (replay-playback-view.ts).
import type { Clock } from '../cache/clock';
import type { GroupVersionResource } from '../../shared/kube/object';
import { gvrKey } from '../../shared/kube/object';
import type { HistoryStateReply } from '../../shared/protocol/history-messages';
import type { EncodedRows } from './encoded-rows';
import type { OutgoingBatch, OutgoingMessage } from './outgoing-message';
import { ReplayCursor } from './replay-cursor';
import { printerFor } from '../../shared/kinds/columns';
import type { Row } from '../../shared/protocol/row';
import type { HistoryQueries, MomentSize } from '../history/history-queries';
import type { LiveJournal } from '../history/query-protocol';
import { BatchStream } from './batch-stream';
import type { BatchStreamOptions } from './batch-stream';
import type { RowProjector } from './row-projection';
import { MomentSending, fitsBase, heldFitsBase } from './moment-sending';
import type { NamedMoment, ReplayBase } from './moment-sending';
export type { ReplayBase };
import { HeldKeys } from './held-keys';
import { Player } from './player';
import { replayGapOf } from './replay-gaps';
import { replayPlaybackView } from './replay-playback-view';
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
  private held: NamedMoment | undefined;
  private readonly cursor: ReplayCursor;
  private player: Player | undefined;
  private closed = false;
  /** Bumped by each showState, so a slower earlier one does not overwrite a later one. */
  private generation = 0;
  /** The moment being sent (see MomentSending), until the next. */
  private sendingRows: MomentSending | undefined;

  /**
   * The live rows the last travel could be sent against (see ReplayBase), as of whenever asked: a
   * playback's jumps may be sent against them too (see rebuild).
   */
  private liveBase: ReplayBase | undefined;
  /** How long the last showState's rebuild took, for a playback's first jump (see JumpEstimate). */
  private lastRebuildMs: number | undefined;
  /** Bumped by each play and stop, so a playback still opening when superseded never starts. */
  private playGeneration = 0;

  constructor(private readonly options: ReplaySubscriptionOptions) {
    this.subscriptionId = options.subscriptionId;
    this.gvr = options.gvr;
    this.namespace = options.namespace;
    this.cursor = new ReplayCursor({
      subscriptionId: options.subscriptionId,
      send: options.send,
      held: () => this.keys.size,
      unchanged: () => this.sendingRows?.unchanged,
      viewClock: () => this.player?.viewClock(),
    });
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
    return this.cursor.moment;
  }

  get playing(): boolean {
    return this.player !== undefined;
  }

  /**
   * Stops any playback and sends the state at `time` as a snapshot, rebuilt by `queries` off the main
   * thread, each chunk passed on to the renderer as it is rebuilt, its progress in cursors. A later
   * showState supersedes one still rebuilding: only the latest moment asked for is sent, as its
   * difference from the moment the renderer holds whole if any, else from `base`'s live rows.
   */
  async showState(
    queries: HistoryQueries,
    file: string,
    time: number,
    base?: ReplayBase,
  ): Promise<HistoryStateReply> {
    this.stop(false);
    this.liveBase = base;
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
    this.endSending();
    // A moment held whole is the base of choice: the worker sends only what differs from it, and
    // the renderer applies that over its own rows (no copy of the live rows, no deletes read).
    const held = this.held;
    let since = held?.queries === queries && held.file === file ? held.id : undefined;
    const shown = { moment: this.cursor.moment, gap: this.cursor.gap, rebuilding: this.cursor.rebuilding };
    // Said first: the renderer knows its moment is being read, not merely asked for.
    this.cursor.moment = time;
    this.cursor.rebuilding = { rebuilt: 0 };
    this.cursor.announce();
    const now = this.options.clock.now();
    const current = () => generation === this.generation && !this.closed;
    const sending = new MomentSending({
      queries,
      file,
      subscriptionId: this.subscriptionId,
      stream: this.stream,
      keys: this.keys,
      announce: () => this.cursor.announce(),
    });
    // The moment's size comes before its rows: the renderer is told "rebuilding 0 of N", and keeps
    // the rows it has until the snapshot's end drops those the moment lacks.
    const begin = (moment: MomentSize) => {
      if (!current()) return;
      this.cursor.gap = replayGapOf(moment.gap);
      this.cursor.cutShort = false;
      this.cursor.rebuilding = { rebuilt: 0, total: moment.total };
      // (A travel from live opened its snapshot already: see below.)
      if (this.sendingRows !== sending) this.sendingRows?.release();
      this.sendingRows = sending;
      // From its first batch on, the renderer no longer holds a moment whole until this one's end.
      this.held = undefined;
      sending.open(moment, since, base);
      this.cursor.announce();
    };
    const add = (rows: Row[] | EncodedRows) => {
      if (!current()) return;
      if (!sending.opened) begin({ total: 'json' in rows ? rows.keys.length : rows.length, gap: undefined });
      sending.add(rows);
    };
    const projector = this.options.projector;
    // The worker projects with shared/'s printers; a kind printed otherwise (a CRD's columns) is
    // projected here, from its objects.
    const projectedThere = projector.printer === printerFor(this.gvr);
    // A travel from live (no moment held), or a moment held far smaller than the live rows (see
    // heldFitsBase: a playback from a recording's start jumping to its list's end): the live rows'
    // versions are listed for the worker, which sends only the rows of the moment that differ (see
    // MomentSending.openLive). Its snapshot opens now: from its first batch on, the renderer holds no
    // moment whole. Only for a moment about as large as the live rows (see fitsBase): a much smaller
    // one is sent whole, or against the moment held.
    const query = { gvr: gvrKey(this.gvr), time, ...(this.namespace ? { namespace: this.namespace } : {}) };
    const fromLive =
      base &&
      projectedThere &&
      (since === undefined || !heldFitsBase(this.keys.size, base)) &&
      (await fitsBase(queries, file, query, base));
    // Superseded while sized: the later travel sends its own moment.
    if (!current()) return { time, count: 0, complete: false };
    // Not asked against the moment held: the renderer's keys become the live rows' (see openLive).
    if (fromLive) since = undefined;
    let live: LiveJournal | undefined;
    if (fromLive) {
      if (this.sendingRows !== sending) this.sendingRows?.release();
      this.sendingRows = sending;
      this.held = undefined;
      live = await sending.openLive(base, () => this.options.clock.sleep(0), current);
      // Superseded meanwhile: the later travel sends its own moment (and released these rows).
      if (!current()) return { time, count: 0, complete: false };
    }
    let state: Awaited<ReturnType<HistoryQueries['stateAt']>>;
    try {
      state = await (projectedThere
        ? queries.stateRows(file, query, now, add, begin, since, live)
        : queries.stateAt(
            file,
            query,
            (objects) => add(objects.map((object) => projector.project(object, now))),
            begin,
          ));
    } catch (error) {
      if (current() && !sending.opened) {
        // No row of this moment was sent: the rows are still those of the moment shown before.
        ({ moment: this.cursor.moment, gap: this.cursor.gap, rebuilding: this.cursor.rebuilding } = shown);
        this.cursor.announce();
      } else if (current()) {
        // Rows of this moment replaced some of those shown before: the snapshot ends with them, and
        // the cursor goes on counting them short of the moment's total, never saying it is whole.
        this.cursor.cutShort = true;
        sending.endShort();
      }
      if (current()) this.endSending();
      throw error;
    }
    const gap = replayGapOf(state.gap);
    if (current() && !sending.opened) begin({ total: 0, gap: state.gap });
    const ending = current() && (await sending.deletes(state, () => this.options.clock.sleep(0), current));
    if (ending) {
      this.cursor.gap = gap;
      // Versions that could not be read were left out: the moment is whole with the rows that came.
      this.cursor.rebuilding = { rebuilt: this.cursor.rebuilding?.rebuilt ?? 0, total: sending.received };
      sending.end(ending.deletes);
    }
    return { time, count: sending.received, complete: state.complete, ...(gap ? { gap } : {}) };
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
      from: this.cursor.moment,
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
    this.cursor.announce();
  }

  /** Stops playback where it is (the rows stay at the moment reached). */
  stop(announce = true): void {
    this.playGeneration++;
    const player = this.player;
    if (!player) return;
    player.close();
    this.player = undefined;
    this.cursor.catchingUp = false;
    if (announce) this.cursor.announce();
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
    return this.showState(queries, file, this.cursor.moment);
  }

  close(): void {
    this.closed = true;
    this.held = undefined;
    this.stop(false);
    this.endSending();
    this.stream.close();
  }

  /** The rows as a player moves them. */
  private playbackView(): PlaybackView {
    return replayPlaybackView({
      cursor: this.cursor,
      stream: this.stream,
      keys: this.keys,
      projector: this.options.projector,
      clock: this.options.clock,
      closed: () => this.closed,
      movedOn: () => (this.held = undefined),
      rebuild: (reads, file, time) => this.rebuild(reads, file, time, this.liveBase),
      stop: () => this.stop(),
    });
  }

  /** Lets go of the base of the moment sent against one (see ReplayBase). */
  private endSending(): void {
    this.sendingRows?.release();
    this.sendingRows = undefined;
  }

  /** Passes a batch on; a snapshot's last, of a whole moment, leaves the renderer holding it. */
  private sent(batch: OutgoingBatch): void {
    this.options.send(batch);
    if (this.cursor.counted(batch)) this.held = this.sendingRows?.named;
  }
}
