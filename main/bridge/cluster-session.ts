// Everything Kubetide holds for one kubeconfig context: the feeds (informers) shared by every
// connected renderer, discovery of served kinds, and each renderer's subscriptions. A context switch
// closes the session and opens another; nothing of one cluster leaks into the next.
import { partRoomBytes } from './part-pacing';
import type { Clock } from '../cache/clock';
import { realClock } from '../cache/real-clock';
import type { GroupVersionResource, KubeObject } from '../../shared/kube/object';
import { gvrKey } from '../../shared/kube/object';
import type { InvolvedObject } from '../../shared/protocol/client-messages';
import type {
  NamespaceChoices,
  RevealedSecretValue,
  ServedKind,
} from '../../shared/protocol/server-messages';
import { ClusterReads } from './cluster-reads';
import type { ClusterSessionOptions } from './cluster-session-options';
import { FeedRegistry } from './feed-registry';
import type { FeedView } from './feed-view';
import { isForbiddenState, knownCount } from './feed-view';
import { AccessAwareFeed } from './access-aware-feed';
import { ForbiddenKinds } from './forbidden-kinds';
import { KindsPush } from './kinds-push';
import { printerFor } from '../../shared/kinds/columns';
import type { RowProjector } from './row-projection';
import { RowProjectors } from './row-projectors';
import type { MetricsPoller } from './metrics-poller';
import { RecordedKindsStart } from './recorded-kinds-start';
import { offeredResources, servedKinds } from './served-kinds';
import { SessionConnection } from './session-connection';
import { SessionFeeds } from './session-feeds';
import { SessionMetrics } from './session-metrics';
import type { SessionRecording } from './history-recording';
import type { SessionPeer } from './session-connection';

export type { ClusterSessionOptions } from './cluster-session-options';

export class ClusterSession {
  readonly context: string;
  readonly clock: Clock;
  readonly feeds: FeedRegistry<FeedView>;
  /** Polls CPU and memory for the connections showing pods or nodes; absent without options.metrics. */
  readonly metrics: MetricsPoller | undefined;
  private readonly connections = new Set<SessionConnection>();
  private readonly retryListeners = new Set<() => void>();
  private readonly projectors: RowProjectors;
  private readonly reads: ClusterReads;
  private readonly kindsPush: KindsPush;
  private readonly sessionMetrics: SessionMetrics | undefined;
  private readonly stopDiscovery: () => void;
  private readonly stopAccess: () => void;
  /** Kinds SelfSubjectRulesReview says the user cannot read, with the reason, by gvrKey. */
  private readonly forbiddenKinds: ForbiddenKinds | undefined;
  /** Starts the recorded kinds after the first, once the feeds running have synced. */
  private recordedKindsStart: RecordedKindsStart | undefined;
  /** The recorded kinds after the first have not started yet (their feeds will list when they do). */
  private recordedKindsPending: boolean;
  /** The recorded kind listed first (the pods), before the others (see RecordedKindsStart). */
  private firstRecordedKind: GroupVersionResource | undefined;
  private closed = false;
  /** Holds this session took on its recording and has not released yet (see holdRecording). */
  private readonly recordingHolds = new Set<() => Promise<void>>();

  constructor(readonly options: ClusterSessionOptions) {
    this.context = options.context;
    this.clock = options.clock ?? realClock;
    this.recordedKindsPending = (options.recording?.kinds ?? []).length > 0;
    this.projectors = new RowProjectors(options.printerFor ?? printerFor);
    const sessionFeeds = new SessionFeeds(options, this.clock, this.projectors);
    this.feeds = new FeedRegistry<FeedView>({
      clock: this.clock,
      quietPeriodMs: options.quietPeriodMs,
      createFeed: (gvr, namespace) =>
        options.access && namespace === ''
          ? new AccessAwareFeed({
              gvr,
              namespaced: this.isNamespaced(gvr),
              newClusterFeed: () => sessionFeeds.newFeed(gvr, ''),
              acquire: (member) => this.feeds.acquire(gvr, member, { capped: false }),
              release: (member) => this.feeds.release(gvr, member),
              access: options.access,
            })
          : sessionFeeds.newFeed(gvr, namespace),
    });
    this.reads = new ClusterReads(this.feeds, options.newListerWatcher, options.requestTimeoutMs ?? 30_000);
    this.kindsPush = new KindsPush({
      clock: this.clock,
      intervalMs: options.kindCountIntervalMs ?? 1_000,
      kinds: () => this.kinds(),
      namespaceChoices: () => this.namespaceChoices(),
      connected: () => this.connections.size,
      send: (message) => {
        for (const connection of this.connections) connection.send(message);
      },
    });
    this.stopDiscovery =
      options.discovery?.onChange(() => {
        this.sessionMetrics?.retainRecorded();
        this.refreshPrinters();
        this.pushKinds();
        void this.forbiddenKinds?.refresh();
      }) ?? (() => {});
    this.stopAccess = options.access?.onChange(() => this.accessChanged()) ?? (() => {});
    this.forbiddenKinds =
      options.access &&
      new ForbiddenKinds(
        options.access,
        () => offeredResources(options.discovery),
        () => this.pushKinds(),
      );
    void this.forbiddenKinds?.refresh();
    this.sessionMetrics =
      options.metrics &&
      new SessionMetrics({
        clock: this.clock,
        fetch: options.metrics,
        discovery: options.discovery,
        namespaces: () => options.access?.candidates() ?? [],
        feeds: this.feeds,
        recorder: options.recording?.recorder,
        // The session's start (the recorded kinds, the first view) lists before usage is polled.
        listing: () => this.starting,
        send: (message) => {
          for (const connection of this.connections) connection.send(message);
        },
        roomForPart: () =>
          [...this.connections].every((connection) => connection.bufferedBytes() <= partRoomBytes),
        log: options.log ?? console.warn,
      });
    this.metrics = this.sessionMetrics?.poller;
    void this.acquireRecordedKinds(options.recording?.kinds ?? []);
  }

  /**
   * Runs the recorded kinds' feeds for the whole session, leaving out those the user's rules refuse
   * everywhere: their history would be one long gap, and their informers a 403 every backoff.
   */
  private async acquireRecordedKinds(kinds: readonly GroupVersionResource[]): Promise<void> {
    if (kinds.length === 0) return;
    // Held before any feed runs, a renderer's included (see RecordedKindsStart).
    const releaseRecording = this.holdRecording();
    const access = this.options.access;
    let allowed = kinds;
    if (access) {
      const verdicts = await Promise.all(kinds.map((gvr) => access.kindAccess(gvr, this.isNamespaced(gvr))));
      if (this.closed) return;
      allowed = kinds.filter((_, index) => verdicts[index] !== 'denied');
    }
    // The first at once, the others once the feeds running then have synced (see RecordedKindsStart).
    const [first, ...later] = allowed;
    this.firstRecordedKind = first;
    if (first) this.feeds.acquire(first, '');
    this.recordedKindsStart = new RecordedKindsStart({
      clock: this.clock,
      runningStates: () => this.feeds.feeds().map((feed) => feed.syncState()),
      delivery: () => {
        let behind = false;
        let acknowledged = 0;
        for (const connection of this.connections) {
          const delivery = connection.delivery();
          behind ||= delivery.behind;
          acknowledged += delivery.acknowledged;
        }
        return { behind, acknowledged };
      },
      startLaterKinds: () => {
        this.recordedKindsPending = false;
        for (const gvr of later) this.feeds.acquire(gvr, '');
      },
      ...(releaseRecording ? { releaseRecording } : {}),
      recordingWritten: () => this.options.recording?.recorder?.stats().changesWritten ?? 0,
      holdLaterRecording: () => {
        const release = this.holdRecording();
        return () => void release?.();
      },
    });
  }

  /** Namespaced per discovery (or the built-in registry); an unknown kind is taken as namespaced. */
  private isNamespaced(gvr: GroupVersionResource): boolean {
    const resources = offeredResources(this.options.discovery);
    const found = resources.find(
      (resource) => resource.group === gvr.group && resource.resource === gvr.resource,
    );
    return found?.namespaced ?? true;
  }

  /**
   * The user's namespace list for this context (SetNamespacesMessage): persisted by NamespaceAccess,
   * and followed by every AccessAwareFeed, which starts or stops its per-namespace informers.
   */
  setAddedNamespaces(namespaces: readonly string[]): void {
    if (!this.options.access) throw new Error(`context ${this.context} does not follow namespace access`);
    this.options.access.setAddedNamespaces(namespaces);
  }

  private accessChanged(): void {
    void this.forbiddenKinds?.refresh();
    this.pushKinds(true);
  }

  /**
   * True while the session's start lists: the recorded kinds after the first wait, or a running feed
   * is listing. Work that can wait (metrics polls, the travel path's worker) waits for it.
   */
  get starting(): boolean {
    return (
      this.recordedKindsPending || this.feeds.feeds().some((feed) => feed.syncState().phase === 'listing')
    );
  }

  /**
   * True while the session's first listing runs: the first recorded kind's (the pods', which a first
   * travel is asked of), or with none recorded any running feed's (as `starting`). Unlike `starting`,
   * false while the later recorded kinds list: what needs only the first one listed (the travel
   * path's worker loading its modules) need not wait through theirs.
   */
  get firstListing(): boolean {
    if ((this.options.recording?.kinds ?? []).length === 0) return this.starting;
    if (!this.recordedKindsPending) return false;
    const first = this.firstRecordedKind;
    const phase = first && this.feeds.find(first, '')?.syncState().phase;
    return phase === undefined || phase === 'listing';
  }

  /** The recording this session writes, if any (history queries read it). */
  get recording(): SessionRecording | undefined {
    return this.options.recording;
  }

  /** Serves one renderer until the returned connection is closed. */
  attach(peer: SessionPeer): SessionConnection {
    if (this.closed) throw new Error(`the session for context ${this.context} is closed`);
    const connection = new SessionConnection(this, peer, () => this.connections.delete(connection));
    this.connections.add(connection);
    this.kindsPush.schedule();
    return connection;
  }

  /** Served kinds, with counts for those some feed is mirroring, and why the forbidden ones are. */
  kinds(): ServedKind[] {
    return servedKinds(
      this.options.discovery,
      (gvr) => {
        const feed = this.feeds.find(gvr, '');
        return feed && knownCount(feed);
      },
      (gvr) => this.projectorFor(gvr).printer.columns,
      (gvr) => {
        const state = this.feeds.find(gvr, '')?.syncState();
        if (state && isForbiddenState(state)) return state.error?.message;
        return state?.phase === 'synced' ? undefined : this.forbiddenKinds?.reason(gvr);
      },
    );
  }

  /** The namespaces tried where the cluster scope is refused; undefined when access is not followed. */
  namespaceChoices(): NamespaceChoices | undefined {
    const access = this.options.access;
    return access
      ? { contextNamespace: access.contextNamespace, added: access.addedNamespaces() }
      : undefined;
  }

  /** See ClusterReads.getObject: from a feed's cache when it can, Secret values masked. */
  getObject(gvr: GroupVersionResource, namespace: string, name: string): Promise<KubeObject> {
    return this.reads.getObject(gvr, namespace, name);
  }

  /** See ClusterReads.revealSecretValue: one value, never logged nor recorded. */
  revealSecretValue(namespace: string, name: string, key: string): Promise<RevealedSecretValue> {
    return this.reads.revealSecretValue(namespace, name, key);
  }

  /** core/v1 Events whose involvedObject is the given object, oldest first. */
  listEvents(involved: InvolvedObject): Promise<KubeObject[]> {
    return this.reads.listEvents(involved);
  }

  /** Re-establishes every feed's watch at once, after sleep or a network change (see Feed.reconnect). */
  reconnectAll(reason: string, staleSince: number): void {
    for (const feed of this.feeds.feeds()) feed.reconnect(reason, staleSince);
  }

  /** Every failing feed tries again at once (the connection took new credentials). */
  retryFailing(): void {
    for (const feed of this.feeds.feeds()) feed.retryNow();
    for (const listener of [...this.retryListeners]) listener();
  }

  /** Calls `listener` at each retryFailing (the log views' streams retry with it); returns how to stop. */
  onRetryFailing(listener: () => void): () => void {
    this.retryListeners.add(listener);
    return () => this.retryListeners.delete(listener);
  }

  /** Drops every connection's subscriptions and stops every feed and timer. */
  async close(): Promise<void> {
    this.closed = true;
    this.stopDiscovery();
    this.stopAccess();
    this.forbiddenKinds?.stop();
    this.kindsPush.stop();
    this.recordedKindsStart?.stop();
    this.metrics?.close();
    for (const connection of [...this.connections]) connection.close();
    await this.feeds.stopAll();
    // A recording handed over to the session that replaces this one outlives it: a hold left taken
    // would keep its whole-cache records back for good, every stream of the next session in its
    // listing gap (a session closed before its first views synced: its cluster stopped, then
    // recreated). Released after the feeds stopped, it lets no cache of this session go.
    for (const release of [...this.recordingHolds]) void release();
  }

  /** The recorder's hold on whole-cache records (Recorder.holdWholeCaches), released at close at the latest. */
  private holdRecording(): (() => Promise<void>) | undefined {
    const release = this.options.recording?.recorder?.holdWholeCaches();
    if (!release) return undefined;
    this.recordingHolds.add(release);
    return () => {
      this.recordingHolds.delete(release);
      return release();
    };
  }

  /** Sends the kinds list to every connection if it changed since the last push. */
  pushKinds(force = false): void {
    this.kindsPush.push(force);
  }

  /** The row projection of `gvr`, shared by live feeds and history replay so both give the same rows. */
  projectorFor(gvr: GroupVersionResource): RowProjector {
    return this.projectors.projectorFor(gvr);
  }

  /** After discovery reported a change: kinds whose printer changed re-project their feeds' rows. */
  private refreshPrinters(): void {
    this.projectors.refresh((kind, projector) => {
      for (const feed of this.feeds.feeds()) if (gvrKey(feed.gvr) === kind) feed.reproject(projector);
    });
  }
}
