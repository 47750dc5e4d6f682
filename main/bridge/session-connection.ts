// One renderer's subscriptions within a ClusterSession. Each subscription is a BatchStream attached to
// a shared feed: it starts with a snapshot of the feed's rows and continues with coalesced batches.
import type { GroupVersionResource } from '../../shared/kube/object';
import { gvrKey } from '../../shared/kube/object';
import type { BaseRows } from './sent-rows';
import type { JournalSource } from './journal-feed';
import type { MetricsResource } from '../../shared/protocol/metrics-messages';
import type { SyncState } from '../../shared/protocol/sync-state';
import { BatchStream } from './batch-stream';
import type { OutgoingMessage } from './outgoing-message';
import type { ClusterSession } from './cluster-session';
import type { FeedSubscriber } from './feed-options';
import type { FeedView } from './feed-view';

/** Where a connection's messages go: a Transport, as far as the session needs one. */
export interface SessionPeer {
  send(message: OutgoingMessage): void;
  bufferedAmount?(): number;
}

interface Subscription {
  gvr: GroupVersionResource;
  namespace: string;
  feed: FeedView;
  stream: BatchStream;
  subscriber: FeedSubscriber;
  /** Pods and nodes keep the session's metrics polled while subscribed. */
  metrics?: MetricsResource;
}

function metricsResourceOf(gvr: GroupVersionResource): MetricsResource | undefined {
  if (gvr.group !== '' || gvr.version !== 'v1') return undefined;
  return gvr.resource === 'pods' || gvr.resource === 'nodes' ? gvr.resource : undefined;
}

export class SessionConnection {
  private readonly subscriptions = new Map<string, Subscription>();
  private closed = false;

  constructor(
    private readonly session: ClusterSession,
    private readonly peer: SessionPeer,
    private readonly onClosed: () => void,
  ) {}

  send(message: OutgoingMessage): void {
    if (!this.closed) this.peer.send(message);
  }

  /** What the connection holds unsent (0 for a transport that cannot tell). */
  bufferedBytes(): number {
    return this.peer.bufferedAmount?.() ?? 0;
  }

  /**
   * Starts mirroring (gvr, namespace) under `subscriptionId`: the feed's sync state, then a snapshot
   * numbered from lastSeq + 1, then live batches. Throws if the id is in use on this connection.
   */
  subscribe(subscriptionId: string, gvr: GroupVersionResource, namespace = '', lastSeq = 0): void {
    if (this.closed) throw new Error('connection closed');
    if (this.subscriptions.has(subscriptionId)) {
      throw new Error(`subscription ${subscriptionId} already exists on this connection`);
    }
    const feed = this.session.feeds.acquire(gvr, namespace);
    const stream = new BatchStream({
      oneBatchPerTurn: true,
      ...this.session.options.batch,
      subscriptionId,
      clock: this.session.clock,
      lastSeq,
      send: (batch) => this.send(batch),
      bufferedBytes: this.peer.bufferedAmount ? () => this.peer.bufferedAmount!() : undefined,
    });
    const subscriber: FeedSubscriber = {
      record: (change) => stream.record(change),
      syncStateChanged: (state) => {
        stream.listing(state.phase === 'listing');
        // "synced" goes after the listing's rows that still wait for the renderer (it may be behind
        // by thousands of rows when the LIST ends): the badge never says synced over a table short
        // of them. Any other state goes at once, and drops a "synced" still waiting.
        const send = () => this.sendSyncState(subscriptionId, state);
        if (state.phase === 'synced') stream.afterRows(send);
        else {
          stream.afterRows(undefined);
          send();
        }
      },
      resynced: () => stream.snapshot(feed.rows({ preview: true })),
      // A renderer shows a first LIST as it arrives; it reads no cached object for a row it is sent.
      preview: true,
    };
    const metrics = metricsResourceOf(gvr);
    this.subscriptions.set(subscriptionId, { gvr, namespace, feed, stream, subscriber, metrics });
    feed.attach(subscriber);
    stream.listing(feed.syncState().phase === 'listing');
    this.sendSyncState(subscriptionId, feed.syncState());
    stream.snapshot(feed.rows({ preview: true }));
    if (metrics && this.session.metrics) {
      for (const message of this.session.metrics.latest(metrics)) this.send(message);
      this.session.metrics.retain(metrics);
    }
  }

  /** Stops a subscription; its feed stops after the quiet period unless someone else holds it. */
  unsubscribe(subscriptionId: string): boolean {
    const subscription = this.subscriptions.get(subscriptionId);
    if (!subscription) return false;
    this.subscriptions.delete(subscriptionId);
    subscription.feed.detach(subscription.subscriber);
    subscription.stream.close();
    this.session.feeds.release(subscription.gvr, subscription.namespace);
    if (subscription.metrics) this.session.metrics?.release(subscription.metrics);
    return true;
  }

  /** Sends the feed's current rows again (the renderer saw a gap). */
  resnapshot(subscriptionId: string): boolean {
    const subscription = this.subscriptions.get(subscriptionId);
    if (!subscription) return false;
    subscription.stream.snapshot(subscription.feed.rows({ preview: true }));
    return true;
  }

  /**
   * The rows the renderer holds for `subscriptionId` if it mirrors (gvr, namespace) and is not
   * mid-snapshot: what a travel's moment is sent against (see BatchStream.baseRows).
   */
  baseRows(subscriptionId: string, gvr: GroupVersionResource, namespace: string): BaseRows | undefined {
    const subscription = this.subscriptions.get(subscriptionId);
    if (!subscription || subscription.namespace !== namespace) return undefined;
    if (gvrKey(subscription.gvr) !== gvrKey(gvr)) return undefined;
    return subscription.stream.baseRows();
  }

  /**
   * The identity journal of `subscriptionId`'s rows and what they mirror, for the query worker to read
   * ahead of a travel from them (see LiveJournalFeed).
   */
  liveJournal(subscriptionId: string): JournalSource | undefined {
    const subscription = this.subscriptions.get(subscriptionId);
    const journal = subscription?.stream.identityJournal;
    if (!subscription || !journal) return undefined;
    return { gvr: subscription.gvr, namespace: subscription.namespace, journal };
  }

  /**
   * Whether some subscription's renderer still lacks its listing's rows (see
   * BatchStream.awaitsDelivery), and how many batches its renderers have acknowledged in all (which
   * grows while they catch up).
   */
  delivery(): { behind: boolean; acknowledged: number } {
    let behind = false;
    let acknowledged = 0;
    for (const { stream } of this.subscriptions.values()) {
      behind ||= stream.awaitsDelivery();
      acknowledged += stream.lastAcknowledgedSeq;
    }
    return { behind, acknowledged };
  }

  acknowledge(subscriptionId: string, seq: number): void {
    this.subscriptions.get(subscriptionId)?.stream.acknowledge(seq);
  }

  /**
   * Relists the subscription's feed from the API server (shared by every subscriber of the feed); each
   * subscriber gets a fresh snapshot once the relist has synced.
   */
  async resync(subscriptionId: string): Promise<boolean> {
    const subscription = this.subscriptions.get(subscriptionId);
    if (!subscription) return false;
    await subscription.feed.resync();
    return true;
  }

  subscriptionIds(): string[] {
    return [...this.subscriptions.keys()];
  }

  /** Ends every subscription; the connection sends nothing afterwards. */
  close(): void {
    if (this.closed) return;
    for (const subscriptionId of [...this.subscriptions.keys()]) this.unsubscribe(subscriptionId);
    this.closed = true;
    this.onClosed();
  }

  private sendSyncState(subscriptionId: string, state: SyncState): void {
    this.send({ type: 'syncState', subscriptionId, ...state });
  }
}
