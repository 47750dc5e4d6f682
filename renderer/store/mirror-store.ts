// The renderer's mirror of main's caches: every server message lands here, is queued, and is applied
// on the next frame in arrival order, so a burst of batches costs one UI notification. A frame applies
// at most maxRowsPerFrame rows of batches (always at least one message) and leaves the rest, in order,
// to the next frame: a 150,000-row snapshot streams in as frames of bounded work rather than one long
// task, and since only applied batches are acknowledged, main's backpressure paces itself on what
// the page has really taken. Sequence gaps are reported (the client asks for a resnapshot).
import type { ServerMessage, DeltaBatch } from '../../shared/protocol/server-messages';
import type { SyncState } from '../../shared/protocol/sync-state';
import type { FrameScheduler } from './frame-scheduler';
import { createMirrorState } from './mirror-state';
import type { MirrorState, MirrorStateStore, ReplayStatus, SnapshotLoading } from './mirror-state';
import { SubscriptionMirror } from './subscription-mirror';
import type { SubscriptionMirrorOptions } from './subscription-mirror';

export interface MirrorStoreOptions {
  scheduler: FrameScheduler;
  /** A subscription missed batches: ask main for a resnapshot. Called once per gap. */
  onGap?: (subscriptionId: string) => void;
  /** Batches up to `seq` are applied for the subscription: acknowledge them to main. */
  onApplied?: (subscriptionId: string, seq: number) => void;
  state?: MirrorStateStore;
  /** Rows (upserts plus deletes) of batches applied in one frame; default defaultMaxRowsPerFrame. */
  maxRowsPerFrame?: number;
}

/**
 * Four of main's full batches (BatchStream's maxBatchRows is 2,000): 5-8 ms of map and change-log
 * work at 150,000 rows (the renderer bench's 5,000-row apply takes 2-5 ms), which leaves the rest
 * of the frame to React and the paint; at 60 frames a second a 150,000-row snapshot (a travel, a
 * resnapshot) is in within 19 frames, and a listing is never held back by it.
 */
export const defaultMaxRowsPerFrame = 8_000;

type QueuedMessage = Exclude<ServerMessage, { type: 'reply' } | { type: 'rejected' }>;

export class MirrorStore {
  readonly state: MirrorStateStore;
  private readonly mirrors = new Map<string, SubscriptionMirror>();
  private queue: QueuedMessage[] = [];
  private frameRequested = false;
  private readonly maxRowsPerFrame: number;

  constructor(private readonly options: MirrorStoreOptions) {
    this.state = options.state ?? createMirrorState();
    this.maxRowsPerFrame = options.maxRowsPerFrame ?? defaultMaxRowsPerFrame;
  }

  /**
   * Starts mirroring a subscription; `lastSeq` is where a resumed subscription left off, `options` how
   * its snapshots apply (see SubscriptionMirrorOptions).
   */
  open(subscriptionId: string, lastSeq = 0, options: SubscriptionMirrorOptions = {}): SubscriptionMirror {
    let mirror = this.mirrors.get(subscriptionId);
    if (!mirror) {
      mirror = new SubscriptionMirror(lastSeq, undefined, options);
      this.mirrors.set(subscriptionId, mirror);
      const current = this.state.getState().loading;
      const loading = loadingOf(current, new Set([subscriptionId]), this.mirrors);
      if (loading !== current) this.state.setState({ loading });
    }
    return mirror;
  }

  /** Forgets a subscription's rows; batches still in flight for it are ignored. */
  close(subscriptionId: string): void {
    if (!this.mirrors.delete(subscriptionId)) return;
    const { revisions, syncStates, replays, loading, loadedRevisions } = this.state.getState();
    this.state.setState({
      revisions: without(revisions, subscriptionId),
      syncStates: without(syncStates, subscriptionId),
      replays: without(replays, subscriptionId),
      loading: without(loading, subscriptionId),
      loadedRevisions: without(loadedRevisions, subscriptionId),
    });
  }

  mirror(subscriptionId: string): SubscriptionMirror | undefined {
    return this.mirrors.get(subscriptionId);
  }

  subscriptionIds(): string[] {
    return [...this.mirrors.keys()];
  }

  /** Queues a pushed message (batch, syncState, historyCursor, kinds, contexts) for the next frame. */
  receive(message: QueuedMessage): void {
    this.queue.push(message);
    this.requestFrame();
  }

  /** Applies everything queued now (a context switch must not leave the old cluster's batches behind). */
  applyQueued(): void {
    this.apply(Number.POSITIVE_INFINITY);
  }

  private requestFrame(): void {
    if (this.frameRequested) return;
    this.frameRequested = true;
    this.options.scheduler.requestFrame(() => {
      this.frameRequested = false;
      this.apply(this.maxRowsPerFrame);
      if (this.queue.length > 0 || this.rowsAhead()) this.requestFrame();
    });
  }

  /**
   * Applies queued messages in order until `maxRows` rows of batches have been applied (the message
   * that crosses it included), then notifies subscribers of the state store once. A snapshot chunk a
   * mirror only holds (see SubscriptionMirrorOptions.wholeSnapshots) costs no rows; the chunk that
   * ends it costs every row of the snapshot.
   */
  private apply(maxRows: number): void {
    const queue = this.queue;
    if (queue.length === 0) {
      this.writeAhead(maxRows);
      return;
    }
    const touched = new Set<string>();
    const applied = new Map<string, number>();
    const syncStates: Record<string, SyncState> = {};
    const replays: Record<string, ReplayStatus> = {};
    const next: Partial<MirrorState> = {};
    let end = 0;
    let rows = 0;
    for (; end < queue.length && rows < maxRows; end++) {
      const message = queue[end];
      switch (message.type) {
        case 'batch':
          rows += this.applyBatch(message, touched, applied);
          break;
        case 'syncState': {
          if (!this.mirrors.has(message.subscriptionId)) break;
          const { type: _type, subscriptionId, ...state } = message;
          syncStates[subscriptionId] = state;
          break;
        }
        case 'historyCursor': {
          if (!this.mirrors.has(message.subscriptionId)) break;
          const { type: _type, subscriptionId, ...status } = message;
          replays[subscriptionId] = status;
          break;
        }
        case 'kinds':
          next.kinds = message.kinds;
          next.namespaceChoices = message.namespaces;
          break;
        case 'contexts':
          next.contexts = { current: message.current, session: message.session, contexts: message.contexts };
          break;
      }
    }
    // What is left is at most what main sends ahead of its acknowledgements: a short copy.
    this.queue = end === queue.length ? [] : queue.slice(end);
    if (rows < maxRows) this.writeAhead(maxRows - rows);
    const current = this.state.getState();
    if (touched.size > 0) {
      const revisions = { ...current.revisions };
      for (const subscriptionId of touched)
        revisions[subscriptionId] = this.mirrors.get(subscriptionId)!.revision;
      next.revisions = revisions;
      const loading = loadingOf(current.loading, touched, this.mirrors);
      if (loading !== current.loading) next.loading = loading;
      for (const subscriptionId of touched) {
        const ended = this.mirrors.get(subscriptionId)!.snapshotEndRevision;
        if (ended === 0 || ended === current.loadedRevisions[subscriptionId]) continue;
        next.loadedRevisions = {
          ...(next.loadedRevisions ?? current.loadedRevisions),
          [subscriptionId]: ended,
        };
      }
    }
    if (Object.keys(syncStates).length > 0) next.syncStates = { ...current.syncStates, ...syncStates };
    if (Object.keys(replays).length > 0) next.replays = { ...current.replays, ...replays };
    // Acknowledged before the state's subscribers hear of it: main sends the next batches while the
    // views follow this frame's (their renders, queries and the paint come after, in this frame).
    for (const [subscriptionId, seq] of applied) this.options.onApplied?.(subscriptionId, seq);
    if (Object.keys(next).length > 0) this.state.setState(next);
  }

  /**
   * Spends up to `maxRows` on the base rows a travel's first moment starts from (see
   * SubscriptionMirror.writeAhead): written a slice a frame while the moment's chunks are still on
   * their way, so its end does not write them all in one task. Nothing shows until that end.
   */
  private writeAhead(maxRows: number): void {
    let left = maxRows;
    for (const mirror of this.mirrors.values()) {
      if (left <= 0) return;
      left -= mirror.writeAhead(left);
    }
  }

  /** True while some mirror has base rows still to write ahead. */
  private rowsAhead(): boolean {
    for (const mirror of this.mirrors.values()) if (mirror.rowsAhead > 0) return true;
    return false;
  }

  /** Applies `batch` to its mirror; returns the rows that cost (see apply). */
  private applyBatch(batch: DeltaBatch, touched: Set<string>, applied: Map<string, number>): number {
    const mirror = this.mirrors.get(batch.subscriptionId);
    if (!mirror) return batch.upserts.length + batch.deletes.length;
    // The base rows not written ahead yet are written by the snapshot's end: they cost then.
    const held = mirror.heldRows + mirror.rowsAhead;
    const base = batch.base && this.mirrors.get(batch.base.subscriptionId);
    const outcome = mirror.apply(batch, base);
    if (outcome === 'held') {
      // Taken: acknowledged, so main sends the rest of the snapshot, though no row shows yet. A chunk
      // only held costs a push; one written as it comes (see writesHeld) costs its rows.
      applied.set(batch.subscriptionId, mirror.lastSeq);
      return mirror.writesHeld ? batch.upserts.length + batch.deletes.length : 0;
    }
    if (outcome === 'applied') {
      touched.add(batch.subscriptionId);
      applied.set(batch.subscriptionId, mirror.lastSeq);
    } else if (outcome === 'gap') {
      this.options.onGap?.(batch.subscriptionId);
    }
    return held + batch.upserts.length + batch.deletes.length;
  }
}

function without<T>(record: Readonly<Record<string, T>>, key: string): Record<string, T> {
  const { [key]: _removed, ...rest } = record;
  return rest;
}

/** `loading` with the touched mirrors' snapshots under way as they stand now; itself when unchanged. */
function loadingOf(
  loading: Readonly<Record<string, SnapshotLoading>>,
  touched: ReadonlySet<string>,
  mirrors: ReadonlyMap<string, SubscriptionMirror>,
): Readonly<Record<string, SnapshotLoading>> {
  let next: Record<string, SnapshotLoading> | undefined;
  for (const subscriptionId of touched) {
    const now = mirrors.get(subscriptionId)?.loading;
    const before = loading[subscriptionId];
    if (now?.received === before?.received && now?.total === before?.total) continue;
    next ??= { ...loading };
    if (now) next[subscriptionId] = now;
    else delete next[subscriptionId];
  }
  return next ?? loading;
}
