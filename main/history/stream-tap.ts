// One recorded informer's side of the Recorder: a DeltaObserver that stamps each change with when it
// arrived (when the informer's DeltaFIFO queued it) and turns the Reflector's phases into gaps. Runs on the informer's hot
// path, so it only stamps, serializes the object once, and appends to the Recorder's queue. A whole
// cache (the first list, a recorder attached to a running informer, after a queue overflow) is
// recorded in slices, a CacheResync, never in one call.
import type { Deltas } from '../cache/delta';
import type { DeltaObserver } from '../cache/delta-observer';
import { DeletedFinalStateUnknown } from '../cache/keys';
import type { ReflectorState } from '../cache/reflector-options';
import type { KubeObject } from '../../shared/kube/object';
import { encodeDeltaType } from './recorded-change';
import type { GapReason, MarkEntry, RelistReason } from './recording-protocol';
import { messageOf } from './recording-error';
import { isResourceExpired } from '../../shared/kube/status';
import { CacheResync, keyOf } from './cache-resync';

/** What a tap needs from its Recorder. */
export interface TapHost {
  /**
   * Wall time that never goes backwards within the recording: `arrivedAt` (a delta's, see
   * Delta.arrivedAt) when given and the informer's clock is the recording's, else now.
   */
  stamp(arrivedAt?: number): number;
  /** The recording's newest stamp, not advanced (see startResync). */
  lastStamp(): number;
  /**
   * Queues the change `[time, stream, code, key, object]` (object undefined: a deletion with no known
   * state), its text (object-text.ts) or JSON written straight into the queue's batch; returns its
   * bytes, or 0 when the queue is full (a queue-overflow gap is open). Forced, it is queued whatever
   * the bound (a resynchronization, which is what ends such a gap).
   */
  appendChange(
    time: number,
    stream: number,
    code: number,
    key: string,
    object: KubeObject | undefined,
    force: boolean,
  ): number;
  /** Queues a mark; marks are never dropped. */
  appendMark(entry: MarkEntry): void;
  /** A number for a new gap, unique within the Recorder. */
  nextGap(): number;
  /**
   * Runs `work` (a resync's next slice) in a later turn, once the recording process has room for it:
   * a whole cache's record goes at that process's pace (see WholeCachePace).
   */
  nextTurn(work: () => void): void;
  /** About how much JSON a resync writes per turn. */
  readonly resyncSliceBytes: number;
  /**
   * True while whole caches wait to be recorded (see Recorder.holdWholeCaches): a stream whose cache
   * is due stays in its gap, its deltas unrecorded, until released (recordHeldCache).
   */
  wholeCachesHeld(): boolean;
}

/**
 * The stream's invariant: from the moment the tap is created, each instant is either inside the gap
 * it holds open (the cache was not known to follow the server: listing, relisting, watch down, or
 * its whole cache not recorded yet) or every change the cache took then is queued. A gap opens on
 * attach, and whenever the Reflector leaves "watching"; it closes when "watching" is observed, which
 * after a list means the whole list is in the cache, and, when the cache is being recorded whole,
 * once the last of it is queued.
 */
export class StreamTap implements DeltaObserver<KubeObject> {
  private openGap: number | undefined;
  private openReason: GapReason | undefined;
  /** A relist's deltas are being recorded as they come (list-start is queued, list-applied is not). */
  private listing = false;
  private watchedBefore = false;
  /** The Reflector's last phase observed was "watching": the cache follows the server. */
  private watching = false;
  /**
   * Set while deltas are not recorded one by one, inside the stream's gap: the next "watching"
   * records the whole cache instead, for this reason. The first list is recorded so, after it is in
   * the cache, not one serialization per pop while the informer is catching up.
   */
  private wholeCacheDue: RelistReason | undefined;
  /** The cache being recorded whole, and why. */
  private resync: { readonly work: CacheResync; readonly reason: RelistReason } | undefined;
  /** Told once this stream no longer needs the Recorder's queue-overflow gap (see resynchronize). */
  private overflowSettled: (() => void) | undefined;
  /** Told once no whole cache of the stream is due or being recorded (see whenCacheRecorded). */
  private cacheRecordedWaiters: (() => void)[] = [];

  constructor(
    readonly stream: number,
    /** "pods.v1 in payments", for mark details. */
    private readonly description: string,
    private readonly host: TapHost,
    /** The informer's cache now (its objects, never mutated, only replaced). */
    private readonly cache: () => readonly KubeObject[],
    /** When the stream was attached: its listing gap starts there, where the stream's record does. */
    attachedAt: number,
    /** "attached" when the informer was running already, else "initial-list". */
    firstList: 'initial-list' | 'attached',
  ) {
    this.open('listing', 'waiting for the first list', attachedAt);
    this.wholeCacheDue = firstList;
  }

  observeDeltas(deltas: Deltas<KubeObject>): void {
    // The stream is in its gap, and its next "watching" records the cache, these changes included.
    if (this.wholeCacheDue !== undefined) return;
    for (const delta of deltas) {
      const unknownFinalState = delta.object instanceof DeletedFinalStateUnknown;
      const object = unknownFinalState
        ? (delta.object as DeletedFinalStateUnknown<KubeObject>).obj
        : (delta.object as KubeObject);
      const key = unknownFinalState
        ? (delta.object as DeletedFinalStateUnknown<KubeObject>).key
        : keyOf(delta.object as KubeObject);
      // A key the resync has yet to record: its Replaced will carry this change.
      if (this.resync?.work.absorb(key, delta.type === 'Deleted' ? null : (object ?? null))) continue;
      // When it arrived, not when it was popped: the wait in DeltaFIFO (turns of the loop, on a loaded
      // machine each a wait for a core) is not part of when the change happened. Never before an
      // earlier entry, though: a key keeps its place in the queue, so arrivals pop out of order.
      const time = this.host.stamp(delta.arrivedAt);
      const code = encodeDeltaType(delta.type, unknownFinalState);
      // The object's text, or its JSON, goes straight into the queue's batch (no string of it is
      // made): the batch is parsed once, in the recording process, and its objects are never cloned
      // one by one.
      this.host.appendChange(time, this.stream, code, key, object, false);
    }
  }

  observePhase(state: ReflectorState): void {
    const time = this.host.stamp();
    this.watching = state.phase === 'watching';
    if (state.phase === 'watching') {
      if (this.wholeCacheDue !== undefined) {
        // The gap stays open until the cache is recorded (and, while held, until it is released).
        if (!this.host.wholeCachesHeld()) this.recordDueCache();
        return;
      }
      // Watching again while the cache is recorded: its gap closes when that is done.
      if (this.resync) return;
      if (this.listing) {
        this.listing = false;
        const reason: RelistReason = this.watchedBefore ? 'relist' : 'initial-list';
        this.listApplied(time, reason);
      }
      this.watchedBefore = true;
      this.close(time);
      return;
    }
    if (state.phase === 'listing') {
      // A list is about to replace the cache a resync under way records: it starts again, whole,
      // at the next "watching". (A watch merely down goes on: until it resumes from its last
      // resourceVersion the cache does not change, and then only by deltas, which the resync absorbs
      // or records; the gap opened below stays open until both are done.)
      if (this.resync) this.recordWholeCacheLater(this.resync.reason);
      this.open(
        this.watchedBefore ? 'relisting' : 'listing',
        this.watchedBefore ? 'relisting' : 'listing',
        time,
      );
      const due = this.wholeCacheDue;
      if (due === undefined && !this.listing) {
        this.listing = true;
        this.host.appendMark({ mark: 'list-start', stream: this.stream });
      } else if (due === 'resynchronized') {
        // What the next "watching" records is this list, no longer the cache as it was.
        this.wholeCacheDue = 'relist';
      }
      return;
    }
    if (isResourceExpired(state.error)) {
      this.open('relisting', `the watch's resourceVersion expired (410); relisting`, time);
      return;
    }
    const cause = state.error === undefined ? 'waiting to retry' : messageOf(state.error);
    this.open('watch-disconnected', `watch down: ${cause}`, time);
  }

  /**
   * Whole caches are no longer held: a cache due while the informer watches is recorded now (one
   * that is listing is recorded at its next "watching", as always).
   */
  recordHeldCache(): void {
    if (this.wholeCacheDue !== undefined && this.watching) this.recordDueCache();
  }

  /**
   * Calls `done` once the stream's whole cache is queued, to the last of it (its gap-close follows in
   * the same turn): at once when none is due or being recorded, else when the record under way, or
   * the one due at the next "watching", is done, or the tap stops (detached, the recorder closing).
   */
  whenCacheRecorded(done: () => void): void {
    if (this.wholeCacheDue === undefined && this.resync === undefined) done();
    else this.cacheRecordedWaiters.push(done);
  }

  /**
   * After a queue overflow dropped changes: records the cache whole again, as a list replacing what
   * the stream held. `settled` is called once the stream no longer needs the overflow gap: when the
   * last of the cache is queued, or at once when the stream is inside its own gap (listing, watch
   * down), whose next "watching" records the whole cache anyway.
   */
  resynchronize(settled: () => void): void {
    this.overflowSettled = settled;
    if (this.resync) {
      // Changes may have been dropped since it began: it starts again, from a new snapshot.
      const { reason } = this.resync;
      this.resync.work.cancel();
      this.resync = undefined;
      this.startResync(reason);
    } else if (this.wholeCacheDue !== undefined) this.settleOverflow();
    else if (this.openGap !== undefined) this.recordWholeCacheLater('resynchronized');
    else this.startResync('resynchronized');
  }

  /**
   * The recorder stops recording this informer: from now the stream is in a "not-recording" gap,
   * whose number is returned (a later attach of the same stream closes it).
   */
  detached(): number {
    this.resync?.work.cancel();
    this.resync = undefined;
    this.settleOverflow();
    this.open('not-recording', 'no longer recorded', this.host.stamp());
    this.cacheRecorded();
    const gap = this.openGap!;
    this.openGap = undefined;
    this.openReason = undefined;
    return gap;
  }

  /** Stops a resync under way (the recorder is closing). */
  stop(): void {
    this.resync?.work.cancel();
    this.resync = undefined;
    this.cacheRecorded();
  }

  /** The informer watches and its cache is due: it is recorded whole, in slices, from now. */
  private recordDueCache(): void {
    const due = this.wholeCacheDue!;
    this.wholeCacheDue = undefined;
    this.listing = false;
    this.watchedBefore = true;
    this.startResync(due);
  }

  private startResync(reason: RelistReason): void {
    this.host.appendMark({ mark: 'list-start', stream: this.stream });
    const replaced = encodeDeltaType('Replaced', false);
    const work = new CacheResync(this.cache(), this.host.resyncSliceBytes, {
      replaced: (key, object) => {
        // At the newest stamp, not the clock's: the stream is in its gap until the last slice, so any
        // time inside it is true of these records, and a stamp of now would move the recording's
        // clock past the arrivals of the changes still waiting in DeltaFIFO, stamping each later
        // than it came (by the pops' lag, each slice, in slices spread over many turns).
        // Queued whatever the bound: a keyframe is what ends a gap.
        return this.host.appendChange(this.host.lastStamp(), this.stream, replaced, key, object, true);
      },
      nextTurn: (next) => this.host.nextTurn(next),
      finished: () => {
        if (this.resync?.work !== work) return;
        this.resync = undefined;
        const time = this.host.stamp();
        this.listApplied(time, reason);
        // The record equals the cache; the cache follows the server only while watching (a watch
        // down since the resync began keeps its gap open until the next "watching").
        if (this.watching) this.close(time);
        this.settleOverflow();
        this.cacheRecorded();
      },
    });
    this.resync = { work, reason };
    work.start();
  }

  /** Stops recording deltas one by one (inside the stream's gap) until the next "watching". */
  private recordWholeCacheLater(reason: RelistReason): void {
    this.resync?.work.cancel();
    this.resync = undefined;
    this.listing = false;
    this.wholeCacheDue = reason;
    this.settleOverflow();
  }

  /** Tells whenCacheRecorded's callers (the cache is recorded, or will not be by this tap). */
  private cacheRecorded(): void {
    const waiters = this.cacheRecordedWaiters;
    this.cacheRecordedWaiters = [];
    for (const done of waiters) done();
  }

  private settleOverflow(): void {
    const settled = this.overflowSettled;
    this.overflowSettled = undefined;
    settled?.();
  }

  private listApplied(time: number, reason: RelistReason): void {
    this.host.appendMark({
      mark: 'list-applied',
      stream: this.stream,
      time,
      reason,
      detail: `${this.description}: ${describe(reason)}`,
    });
  }

  /**
   * Opens a gap for `reason`. A gap for another reason open already ends at the same instant: gaps
   * follow one another, each with its own cause (a 410, then a failing list, then the relist).
   */
  private open(reason: GapReason, detail: string, time: number): void {
    if (this.openReason === reason) return;
    this.close(time);
    this.openGap = this.host.nextGap();
    this.openReason = reason;
    this.host.appendMark({
      mark: 'gap-open',
      gap: this.openGap,
      reason,
      stream: this.stream,
      start: time,
      detail: `${this.description}: ${detail}`,
    });
  }

  private close(end: number): void {
    if (this.openGap === undefined) return;
    this.host.appendMark({ mark: 'gap-close', gap: this.openGap, end });
    this.openGap = undefined;
    this.openReason = undefined;
  }
}

function describe(reason: RelistReason): string {
  if (reason === 'initial-list') return 'initial list';
  if (reason === 'attached') return 'recording started on a running informer';
  if (reason === 'resynchronized') return 'the cache recorded again after the recording queue overflowed';
  return 'relisted; changes between the last watch event and this list are unknown';
}
