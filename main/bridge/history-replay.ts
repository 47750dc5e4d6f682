// One replay subscription: the rows of (gvr, namespace) as they were at a moment, sent through the same
// BatchStream a live subscription uses (snapshot runs, coalescing, acks, backpressure), so the
// renderer's mirror, filters and indexes work on the past exactly as on the present. Playback walks
// the recorded changes forward on the injected clock at 1x..100x and sends them as live batches.
import type { Clock, Timer } from '../cache/clock';
import type { GroupVersionResource } from '../../shared/kube/object';
import { gvrKey } from '../../shared/kube/object';
import type { HistoryStateReply } from '../../shared/protocol/history-messages';
import type { ServerMessage } from '../../shared/protocol/server-messages';
import { objectKey } from '../../shared/protocol/row';
import type { Row } from '../../shared/protocol/row';
import type { PlaybackBatch } from '../history/replay';
import { playback, timeRange } from '../history/replay';
import type { HistoryQueries } from '../history/history-queries';
import type { RecordingReader } from '../history/recording-reader';
import type { RecordedChange } from '../history/recorded-change';
import { BatchStream } from './batch-stream';
import type { BatchStreamOptions } from './batch-stream';
import type { RowProjector } from './row-projection';
import type { HistorySource } from './history-source';

export interface ReplaySubscriptionOptions {
  readonly subscriptionId: string;
  readonly gvr: GroupVersionResource;
  readonly namespace: string;
  readonly projector: RowProjector;
  readonly clock: Clock;
  readonly send: (message: ServerMessage) => void;
  readonly bufferedBytes?: () => number;
  readonly batch?: Partial<Omit<BatchStreamOptions, 'subscriptionId' | 'clock' | 'send' | 'bufferedBytes'>>;
  /** Wall time between cursor pushes while playing, in ms (default 250). */
  readonly tickMs?: number;
}

export class ReplaySubscription {
  readonly subscriptionId: string;
  readonly gvr: GroupVersionResource;
  readonly namespace: string;
  private readonly stream: BatchStream;
  /** Keys the renderer holds, so a recorded change becomes an add, an update or a delete. */
  private readonly keys = new Set<string>();
  private moment = 0;
  private player: { reader: RecordingReader; batches: Iterator<PlaybackBatch>; timer?: Timer } | undefined;
  private closed = false;
  /** Bumped by each showState, so a slower earlier one does not overwrite a later one. */
  private generation = 0;

  constructor(private readonly options: ReplaySubscriptionOptions) {
    this.subscriptionId = options.subscriptionId;
    this.gvr = options.gvr;
    this.namespace = options.namespace;
    this.stream = new BatchStream({
      ...options.batch,
      subscriptionId: options.subscriptionId,
      clock: options.clock,
      send: (batch) => options.send(batch),
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
   * thread and projected a chunk at a time. A later showState supersedes one still rebuilding: only
   * the latest moment asked for is sent.
   */
  async showState(queries: HistoryQueries, file: string, time: number): Promise<HistoryStateReply> {
    this.stop(false);
    const generation = ++this.generation;
    const now = this.options.clock.now();
    const rows: Row[] = [];
    const state = await queries.stateAt(
      file,
      { gvr: gvrKey(this.gvr), time, ...(this.namespace ? { namespace: this.namespace } : {}) },
      (objects) => {
        if (generation !== this.generation) return;
        for (const object of objects) rows.push(this.options.projector.project(object, now));
      },
    );
    const gap = state.gap && {
      kind: state.gap.kind,
      reason: state.gap.reason,
      start: state.gap.start,
      detail: state.gap.detail,
      ...(state.gap.end !== undefined ? { end: state.gap.end } : {}),
      ...(state.gap.stream ? { gvr: state.gap.stream.gvr } : {}),
    };
    const reply = { time, count: rows.length, complete: state.complete, ...(gap ? { gap } : {}) };
    if (generation !== this.generation || this.closed) return reply;
    this.keys.clear();
    for (const row of rows) this.keys.add(row.key);
    this.moment = time;
    this.stream.snapshot(rows);
    return reply;
  }

  /**
   * Plays forward from the current moment to the end of the recording as it is now: each recorded
   * batch is sent once its recorded delay, divided by `speed`, has passed on the clock.
   */
  play(source: HistorySource, speed: number): void {
    this.stop(false);
    const reader = source.dedicatedReader();
    const end = timeRange(reader)?.end ?? this.moment;
    const batches = playback(reader, {
      from: this.moment,
      to: Math.max(end, this.moment),
      gvrs: [gvrKey(this.gvr)],
      ...(this.namespace ? { namespaces: [this.namespace] } : {}),
    })[Symbol.iterator]();
    this.player = { reader, batches };
    this.advance(batches.next(), speed, end);
  }

  /** Stops playback where it is (the rows stay at the moment reached). */
  stop(announce = true): void {
    if (!this.player) return;
    this.player.timer?.stop();
    this.player.reader.close();
    this.player = undefined;
    if (announce) this.announce();
  }

  acknowledge(seq: number): void {
    this.stream.acknowledge(seq);
  }

  close(): void {
    this.closed = true;
    this.stop(false);
    this.stream.close();
  }

  /** Waits for `next` (or the end), moving the cursor at most every tickMs of wall time meanwhile. */
  private advance(next: IteratorResult<PlaybackBatch>, speed: number, end: number): void {
    const player = this.player;
    if (!player || this.closed) return;
    const target = next.done ? end : next.value.end;
    const tickMs = this.options.tickMs ?? 250;
    const wait = Math.max(0, (target - this.moment) / speed);
    const step = Math.min(wait, tickMs);
    player.timer = this.options.clock.setTimeout(() => {
      if (this.player !== player) return;
      if (step < wait) {
        this.moment = Math.min(target, this.moment + step * speed);
        this.announce();
        this.advance(next, speed, end);
        return;
      }
      this.moment = target;
      if (next.done) {
        this.stop();
        return;
      }
      for (const change of next.value.changes) this.apply(change);
      this.announce();
      this.advance(player.batches.next(), speed, end);
    }, step);
  }

  private apply(change: RecordedChange): void {
    const key = objectKey(change.namespace, change.name);
    if (change.type === 'Deleted' || !change.object) {
      if (this.keys.delete(key)) this.stream.record({ type: 'deleted', key });
      return;
    }
    const row = this.options.projector.project(change.object, this.options.clock.now());
    const known = this.keys.has(key);
    this.keys.add(key);
    this.stream.record(known ? { type: 'updated', row } : { type: 'added', row });
  }

  private announce(): void {
    this.options.send({
      type: 'historyCursor',
      subscriptionId: this.subscriptionId,
      time: this.moment,
      playing: this.playing,
    });
  }
}
