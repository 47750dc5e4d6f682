// The renderer's mirror of main's caches: every server message lands here, is queued, and is applied
// on the next frame in arrival order, so a burst of batches costs one UI notification. Sequence gaps
// are reported (the client asks for a resnapshot) and applied batches acknowledged (main's backpressure
// counts on it).
import type { ServerMessage, DeltaBatch } from '../../shared/protocol/server-messages';
import type { SyncState } from '../../shared/protocol/sync-state';
import type { FrameScheduler } from './frame-scheduler';
import { createMirrorState } from './mirror-state';
import type { MirrorState, MirrorStateStore, ReplayStatus } from './mirror-state';
import { SubscriptionMirror } from './subscription-mirror';

export interface MirrorStoreOptions {
  scheduler: FrameScheduler;
  /** A subscription missed batches: ask main for a resnapshot. Called once per gap. */
  onGap?: (subscriptionId: string) => void;
  /** Batches up to `seq` are applied for the subscription: acknowledge them to main. */
  onApplied?: (subscriptionId: string, seq: number) => void;
  state?: MirrorStateStore;
}

type QueuedMessage = Exclude<ServerMessage, { type: 'reply' } | { type: 'rejected' }>;

export class MirrorStore {
  readonly state: MirrorStateStore;
  private readonly mirrors = new Map<string, SubscriptionMirror>();
  private queue: QueuedMessage[] = [];
  private frameRequested = false;

  constructor(private readonly options: MirrorStoreOptions) {
    this.state = options.state ?? createMirrorState();
  }

  /** Starts mirroring a subscription; `lastSeq` is where a resumed subscription left off. */
  open(subscriptionId: string, lastSeq = 0): SubscriptionMirror {
    let mirror = this.mirrors.get(subscriptionId);
    if (!mirror) {
      mirror = new SubscriptionMirror(lastSeq);
      this.mirrors.set(subscriptionId, mirror);
    }
    return mirror;
  }

  /** Forgets a subscription's rows; batches still in flight for it are ignored. */
  close(subscriptionId: string): void {
    if (!this.mirrors.delete(subscriptionId)) return;
    const { revisions, syncStates, replays } = this.state.getState();
    this.state.setState({
      revisions: without(revisions, subscriptionId),
      syncStates: without(syncStates, subscriptionId),
      replays: without(replays, subscriptionId),
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
    if (this.frameRequested) return;
    this.frameRequested = true;
    this.options.scheduler.requestFrame(() => this.applyQueued());
  }

  /** Applies everything queued, then notifies subscribers of the state store once. */
  applyQueued(): void {
    this.frameRequested = false;
    const queue = this.queue;
    this.queue = [];
    if (queue.length === 0) return;
    const touched = new Set<string>();
    const applied = new Map<string, number>();
    const syncStates: Record<string, SyncState> = {};
    const replays: Record<string, ReplayStatus> = {};
    const next: Partial<MirrorState> = {};
    for (const message of queue) {
      switch (message.type) {
        case 'batch':
          this.applyBatch(message, touched, applied);
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
          next.contexts = { current: message.current, contexts: message.contexts };
          break;
      }
    }
    const current = this.state.getState();
    if (touched.size > 0) {
      const revisions = { ...current.revisions };
      for (const subscriptionId of touched)
        revisions[subscriptionId] = this.mirrors.get(subscriptionId)!.revision;
      next.revisions = revisions;
    }
    if (Object.keys(syncStates).length > 0) next.syncStates = { ...current.syncStates, ...syncStates };
    if (Object.keys(replays).length > 0) next.replays = { ...current.replays, ...replays };
    if (Object.keys(next).length > 0) this.state.setState(next);
    for (const [subscriptionId, seq] of applied) this.options.onApplied?.(subscriptionId, seq);
  }

  private applyBatch(batch: DeltaBatch, touched: Set<string>, applied: Map<string, number>): void {
    const mirror = this.mirrors.get(batch.subscriptionId);
    if (!mirror) return;
    const outcome = mirror.apply(batch);
    if (outcome === 'applied') {
      touched.add(batch.subscriptionId);
      applied.set(batch.subscriptionId, mirror.lastSeq);
    } else if (outcome === 'gap') {
      this.options.onGap?.(batch.subscriptionId);
    }
  }
}

function without<T>(record: Readonly<Record<string, T>>, key: string): Record<string, T> {
  const { [key]: _removed, ...rest } = record;
  return rest;
}
