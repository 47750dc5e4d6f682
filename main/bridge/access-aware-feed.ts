// One kind in all namespaces, as the user's RBAC lets them see it. It runs the one cluster-scope
// informer every viewer runs, unless SelfSubjectRulesReview already says the cluster scope is refused.
// For a namespaced kind refused there (by the rules, or by the API server's 403), it falls back to one
// informer per namespace the user can read (NamespaceAccess) and serves their union as if it were one
// feed: rows keyed namespace/name never collide between members, so the union is their plain sum.
// Members are the registry's per-namespace feeds, so a subscription to one namespace shares its
// informer (and its recording) with the union. The set of members follows NamespaceAccess: a
// namespace the user adds gets an informer, one removed is released. A cluster-scoped kind the rules
// refuse runs no informer at all: it is "no access" until a resync asks again. The cluster feed's
// preview of its first LIST (list-preview.ts) reaches only the union's subscribers that ask for it.
import type { GroupVersionResource, KubeObject } from '../../shared/kube/object';
import { gvrKey } from '../../shared/kube/object';
import type { Row } from '../../shared/protocol/row';
import type { SyncError, SyncState } from '../../shared/protocol/sync-state';
import type { FeedSubscriber } from './feed-options';
import type { RowProjector } from './row-projection';
import type { FeedView } from './feed-view';
import { isForbiddenState } from './feed-view';
import { mergeSyncStates } from './merged-sync-state';
import type { NamespaceAccess } from './namespace-access';
import type { RowChange } from './squash';

function qualifiedResource(gvr: GroupVersionResource): string {
  return gvr.group ? `${gvr.resource}.${gvr.group}` : gvr.resource;
}

export interface AccessAwareFeedOptions {
  gvr: GroupVersionResource;
  /** A new, unstarted cluster-scope feed of the kind. */
  newClusterFeed: () => FeedView;
  /** The kind's feed in one namespace, started, from the session's registry; pair with release. */
  acquire: (namespace: string) => FeedView;
  release: (namespace: string) => void;
  access: NamespaceAccess;
  /** False for Nodes, Namespaces, PersistentVolumes...: there is no namespace to fall back to. */
  namespaced: boolean;
}

interface Attached {
  feed: FeedView;
  subscriber: FeedSubscriber;
}

/** The cluster feed, also attached for its LIST preview on behalf of the preview subscribers. */
interface AttachedCluster extends Attached {
  previewSubscriber: FeedSubscriber;
}

/** Which of the union's subscribers a change is for: all, or only those that do (not) take previews. */
type Audience = 'all' | 'preview' | 'confirmed';

export class AccessAwareFeed implements FeedView {
  readonly gvr: GroupVersionResource;
  readonly namespace = '';
  private readonly subscribers = new Set<FeedSubscriber>();
  private cluster: AttachedCluster | undefined;
  private readonly members = new Map<string, Attached>();
  /** The cluster scope's refusal; set once the union serves per namespace. */
  private denied: SyncError | undefined;
  private state: SyncState = { phase: 'listing', listed: 0 };
  private started = false;
  /** Bumped by every plan and by stop(), so a plan that resolves late applies nothing. */
  private generation = 0;
  private stopFollowingAccess: (() => void) | undefined;

  constructor(private readonly options: AccessAwareFeedOptions) {
    this.gvr = options.gvr;
  }

  get description(): string {
    return gvrKey(this.gvr);
  }

  /** The namespaces served by their own informers; empty while the cluster scope serves. */
  get memberNamespaces(): string[] {
    return [...this.members.keys()].sort();
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    const generation = ++this.generation;
    // Known rules spare the API server a LIST bound to fail, and the recording a gap that was none.
    void this.options.access.clusterAccess(this.gvr).then((verdict) => {
      if (generation !== this.generation || !this.started) return;
      if (verdict !== 'denied') return this.startCluster();
      const denied = {
        code: 403,
        reason: 'Forbidden',
        message: `your user may not list and watch ${qualifiedResource(this.gvr)} at the cluster scope (SelfSubjectRulesReview)`,
      };
      if (this.options.namespaced) this.fallBack(denied);
      else this.setState({ phase: 'error', error: denied });
    });
  }

  private startCluster(): void {
    const feed = this.options.newClusterFeed();
    this.cluster = {
      feed,
      subscriber: {
        record: (change) => this.publish(change, 'confirmed'),
        syncStateChanged: (state) => this.clusterStateChanged(state),
        resynced: () => this.resynced(),
        wantsRows: () => this.subscribers.size > 0,
      },
      previewSubscriber: {
        record: (change) => this.publish(change, 'preview'),
        syncStateChanged: () => {},
        preview: true,
        wantsRows: () => this.subscribers.size > 0,
      },
    };
    feed.attach(this.cluster.subscriber);
    feed.attach(this.cluster.previewSubscriber);
    feed.start();
    this.setState(feed.syncState());
  }

  /**
   * The cluster-scope informer is this union's own; the per-namespace ones are the registry's, which
   * reprojects them itself (ClusterSession.refreshPrinters walks every registered feed of the kind).
   */
  reproject(projector: RowProjector): void {
    this.cluster?.feed.reproject(projector);
  }

  async stop(): Promise<void> {
    this.started = false;
    this.generation += 1;
    this.stopFollowingAccess?.();
    this.stopFollowingAccess = undefined;
    const cluster = this.cluster;
    this.cluster = undefined;
    for (const namespace of [...this.members.keys()]) this.removeMember(namespace, false);
    this.denied = undefined;
    this.state = { phase: 'listing', listed: 0 };
    if (cluster) {
      cluster.feed.detach(cluster.subscriber);
      cluster.feed.detach(cluster.previewSubscriber);
      await cluster.feed.stop();
    }
  }

  /**
   * Relists every informer behind the union. With none (refused everywhere), asks again from the
   * start: the rules afresh, then the cluster scope, then the namespaces, since access may have been
   * granted meanwhile.
   */
  async resync(): Promise<void> {
    if (this.cluster) return this.cluster.feed.resync();
    if (this.members.size > 0) {
      await Promise.all([...this.members.values()].map((member) => member.feed.resync()));
      return;
    }
    await this.stop();
    this.options.access.forgetRules();
    this.start();
  }

  /** Members are registry feeds, which the session reconnects itself; only the cluster feed is ours. */
  reconnect(reason: string, staleSince: number): void {
    this.cluster?.feed.reconnect(reason, staleSince);
  }

  /** As reconnect: members are registry feeds, which the session asks itself. */
  retryNow(): void {
    this.cluster?.feed.retryNow();
  }

  cachedObject(namespace: string, name: string): KubeObject | undefined {
    return (this.cluster?.feed ?? this.members.get(namespace)?.feed)?.cachedObject(namespace, name);
  }

  rows(options: { preview?: boolean } = {}): Row[] {
    if (this.cluster) return this.cluster.feed.rows(options);
    return [...this.members.values()].flatMap((member) => member.feed.rows());
  }

  get count(): number {
    if (this.cluster) return this.cluster.feed.count;
    let count = 0;
    for (const member of this.members.values()) count += member.feed.count;
    return count;
  }

  syncState(): SyncState {
    return this.state;
  }

  attach(subscriber: FeedSubscriber): void {
    this.subscribers.add(subscriber);
  }

  detach(subscriber: FeedSubscriber): void {
    this.subscribers.delete(subscriber);
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  private clusterStateChanged(state: SyncState): void {
    if (this.options.namespaced && isForbiddenState(state)) this.fallBack(state.error!);
    else this.setState(state);
  }

  /** The cluster scope is forbidden: drop its informer, if any, and serve the readable namespaces. */
  private fallBack(denied: SyncError): void {
    const cluster = this.cluster;
    this.cluster = undefined;
    if (cluster) {
      cluster.feed.detach(cluster.subscriber);
      cluster.feed.detach(cluster.previewSubscriber);
      // A refusal on the first LIST cached nothing; access revoked later leaves rows the members relist.
      for (const row of cluster.feed.rows()) this.publish({ type: 'deleted', key: row.key }, 'confirmed');
      for (const row of cluster.feed.rows({ preview: true }))
        this.publish({ type: 'deleted', key: row.key }, 'preview');
      void cluster.feed.stop();
    }
    this.denied = denied;
    this.stopFollowingAccess = this.options.access.onChange(() => void this.plan());
    void this.plan();
  }

  /** Makes the members the namespaces NamespaceAccess finds readable now. */
  private async plan(): Promise<void> {
    const generation = ++this.generation;
    const wanted = await this.options.access.readableNamespaces(this.gvr);
    if (generation !== this.generation || !this.started) return;
    for (const namespace of [...this.members.keys()])
      if (!wanted.includes(namespace)) this.removeMember(namespace, true);
    for (const namespace of wanted) if (!this.members.has(namespace)) this.addMember(namespace);
    this.mergeStates();
  }

  private addMember(namespace: string): void {
    const feed = this.options.acquire(namespace);
    const subscriber: FeedSubscriber = {
      record: (change) => this.publish(change),
      syncStateChanged: () => this.mergeStates(),
      resynced: () => this.resynced(),
      wantsRows: () => this.subscribers.size > 0,
    };
    this.members.set(namespace, { feed, subscriber });
    feed.attach(subscriber);
    // A member another subscription already runs has rows the union's subscribers have not seen.
    for (const row of feed.rows()) this.publish({ type: 'added', row });
  }

  private removeMember(namespace: string, publish: boolean): void {
    const member = this.members.get(namespace);
    if (!member) return;
    this.members.delete(namespace);
    member.feed.detach(member.subscriber);
    if (publish) for (const row of member.feed.rows()) this.publish({ type: 'deleted', key: row.key });
    this.options.release(namespace);
  }

  private mergeStates(): void {
    if (!this.denied) return;
    const merged = mergeSyncStates(
      [...this.members.values()].map((member) => member.feed.syncState()),
      this.denied,
      this.options.access.candidates(),
    );
    if (merged.phase === 'error') return this.setState(merged);
    // Refused members (a typed name the user cannot read after all) serve nothing: not named.
    const served = this.memberNamespaces.filter(
      (namespace) => this.members.get(namespace)!.feed.syncState().phase !== 'error',
    );
    this.setState({ ...merged, namespaces: served });
  }

  private publish(change: RowChange, audience: Audience = 'all'): void {
    for (const subscriber of this.subscribers)
      if (audience === 'all' || (audience === 'preview') === (subscriber.preview === true))
        subscriber.record(change);
  }

  private resynced(): void {
    for (const subscriber of this.subscribers) subscriber.resynced?.();
  }

  private setState(next: SyncState): void {
    if (JSON.stringify(next) === JSON.stringify(this.state)) return;
    this.state = next;
    for (const subscriber of this.subscribers) subscriber.syncStateChanged(next);
  }
}
