// Everything Kubetide holds for one kubeconfig context: the feeds (informers) shared by every
// connected renderer, discovery of served kinds, and each renderer's subscriptions. A context switch
// closes the session and opens another; nothing of one cluster leaks into the next.
import type { Clock, Timer } from '../cache/clock';
import type { ReflectorTuning } from '../cache/controller';
import type { ListerWatcherFactory } from '../cache/informer-factory';
import { realClock } from '../cache/real-clock';
import type { PodLogOpener } from '../kube/pod-log-stream';
import type { GroupVersionResource, KubeObject } from '../../shared/kube/object';
import { gvrKey } from '../../shared/kube/object';
import { StatusError, isForbidden, isResourceExpired, newStatus } from '../../shared/kube/status';
import type { InvolvedObject } from '../../shared/protocol/client-messages';
import type {
  NamespaceChoices,
  RevealedSecretValue,
  ServedKind,
} from '../../shared/protocol/server-messages';
import type { BatchStreamOptions } from './batch-stream';
import { crashLogFetcher } from '../history/crash-log-fetcher';
import { MetricSampleCapture } from '../history/metric-sample-capture';
import { Feed } from './feed';
import { FeedRegistry } from './feed-registry';
import type { FeedView } from './feed-view';
import { isForbiddenState } from './feed-view';
import type { NamespaceAccess } from './namespace-access';
import { AccessAwareFeed } from './access-aware-feed';
import { ForbiddenKinds } from './forbidden-kinds';
import { builtinKinds } from '../../shared/kinds/registry';
import { printerFor } from '../../shared/kinds/columns';
import { isSecretResource, sanitizeObject } from './object-sanitizer';
import { RowProjector, defaultPrinter } from './row-projection';
import type { PrinterLookup } from './row-projection';
import type { MetricsResource } from '../../shared/protocol/metrics-messages';
import type { MetricsFetch } from './metrics-poller';
import { MetricsPoller } from './metrics-poller';
import { RecordedKindsStart } from './recorded-kinds-start';
import { servedKinds } from './served-kinds';
import type { KindSource } from './served-kinds';
import { SessionConnection } from './session-connection';
import type { SessionRecording } from './history-recording';
import type { SessionPeer } from './session-connection';

export interface ClusterSessionOptions {
  /** The kubeconfig context this session serves (the embedded cluster has one too). */
  context: string;
  /** Builds list+watch access to a resource in a namespace ("" for all); main/kube's is HTTP. */
  newListerWatcher: ListerWatcherFactory;
  /** Live discovery (main/kube's Discovery fits); without it, the built-in kinds. */
  discovery?: KindSource;
  /**
   * The kubectl columns per kind. Default: shared/kinds' built-in printers, NAME and AGE for others;
   * pass a lookup that finds the CustomResourceDefinition to give custom resources their printer columns.
   */
  printerFor?: PrinterLookup;
  clock?: Clock;
  /** How long a feed outlives its last subscription. */
  quietPeriodMs?: number;
  /** How often changed kind counts are pushed to renderers. */
  kindCountIntervalMs?: number;
  batch?: Partial<
    Omit<BatchStreamOptions, 'subscriptionId' | 'clock' | 'send' | 'bufferedBytes' | 'lastSeq'>
  >;
  staleAfterMs?: number;
  reflector?: ReflectorTuning<KubeObject>;
  /** Where list/watch failures are logged (an expired resourceVersion is routine and not logged). */
  log?: (message: string) => void;
  /** Bounds one-off requests (getObject, listEvents) to the API server. */
  requestTimeoutMs?: number;
  /**
   * Records every feed's informer into the context's recording, and keeps the feeds of its kinds
   * running from the start so history exists before anyone opens them. The session never closes it:
   * whoever made it does, after the session.
   */
  recording?: SessionRecording;
  /**
   * Follow the user's RBAC (AccessAwareFeed): a namespaced kind whose cluster-scope LIST/WATCH is
   * forbidden is served by one informer per readable namespace; a kind the rules refuse everywhere
   * runs no informer. Without it, every feed is one informer and a 403 is the subscription's error.
   */
  access?: NamespaceAccess;
  /** Opens one pod's log requests (main/kube's podLogOpener); without it, log streams are refused. */
  openPodLog?: (namespace: string, pod: string) => PodLogOpener;
  /**
   * Reads metrics.k8s.io (main/kube's listMetrics over the session's client). With it, pod and node
   * metrics are polled while a renderer shows pods or nodes and discovery lists the API, and for the
   * whole session when it records (the samples are kept with the history).
   */
  metrics?: MetricsFetch;
}

const eventsResource: GroupVersionResource = { group: '', version: 'v1', resource: 'events' };
const secretsResource: GroupVersionResource = { group: '', version: 'v1', resource: 'secrets' };

export class ClusterSession {
  readonly context: string;
  readonly clock: Clock;
  readonly feeds: FeedRegistry<FeedView>;
  /** Polls CPU and memory for the connections showing pods or nodes; absent without options.metrics. */
  readonly metrics: MetricsPoller | undefined;
  private readonly connections = new Set<SessionConnection>();
  /** By gvrKey, with the resource they project (refreshPrinters looks its printer up again). */
  private readonly projectors = new Map<string, { gvr: GroupVersionResource; projector: RowProjector }>();
  private readonly stopDiscovery: () => void;
  private readonly stopAccess: () => void;
  /** Feeds whose 403 was already logged. */
  private readonly forbiddenLogged = new Set<string>();
  /** Kinds SelfSubjectRulesReview says the user cannot read, with the reason, by gvrKey. */
  private readonly forbiddenKinds: ForbiddenKinds | undefined;
  /** True when the recording keeps metric samples (see retainRecordedMetrics). */
  private recordsMetrics = false;
  private metricsRetained = false;
  private countTimer: Timer | undefined;
  /** Starts the recorded kinds after the first, once the feeds running have synced. */
  private recordedKindsStart: RecordedKindsStart | undefined;
  /** The recorded kinds after the first have not started yet (their feeds will list when they do). */
  private recordedKindsPending: boolean;
  private lastKinds = '';
  private closed = false;

  constructor(readonly options: ClusterSessionOptions) {
    this.context = options.context;
    this.clock = options.clock ?? realClock;
    this.recordedKindsPending = (options.recording?.kinds ?? []).length > 0;
    this.feeds = new FeedRegistry<FeedView>({
      clock: this.clock,
      quietPeriodMs: options.quietPeriodMs,
      createFeed: (gvr, namespace) =>
        options.access && namespace === ''
          ? new AccessAwareFeed({
              gvr,
              namespaced: this.isNamespaced(gvr),
              newClusterFeed: () => this.newFeed(gvr, ''),
              acquire: (member) => this.feeds.acquire(gvr, member, { capped: false }),
              release: (member) => this.feeds.release(gvr, member),
              access: options.access,
            })
          : this.newFeed(gvr, namespace),
    });
    this.stopDiscovery =
      options.discovery?.onChange(() => {
        this.retainRecordedMetrics();
        this.refreshPrinters();
        this.pushKinds();
        void this.forbiddenKinds?.refresh();
      }) ?? (() => {});
    this.stopAccess = options.access?.onChange(() => this.accessChanged()) ?? (() => {});
    this.forbiddenKinds =
      options.access &&
      new ForbiddenKinds(
        options.access,
        () => options.discovery?.preferredResources() ?? builtinKinds,
        () => this.pushKinds(),
      );
    void this.forbiddenKinds?.refresh();
    const recorder = options.recording?.recorder;
    const metricSamples =
      recorder &&
      options.metrics &&
      new MetricSampleCapture({
        record: (samples) => recorder.recordMetricSamples(samples),
        reportError: (context, error) =>
          (options.log ?? console.warn)(
            `${context} ${error instanceof Error ? error.message : String(error)}`,
          ),
        cachedObject: (resource, namespace, name) =>
          this.feeds
            .find({ group: resource === 'pods' ? '' : 'apps', version: 'v1', resource }, '')
            ?.cachedObject(namespace, name),
      });
    this.metrics =
      options.metrics &&
      new MetricsPoller({
        clock: this.clock,
        fetch: options.metrics,
        served: (resource) => this.metricsServed(resource),
        namespaces: () => options.access?.candidates() ?? [],
        // The session's start (the recorded kinds, the first view) lists before usage is polled.
        listing: () =>
          this.recordedKindsPending ||
          this.feeds.feeds().some((feed) => feed.syncState().phase === 'listing'),
        send: (message) => {
          for (const connection of this.connections) connection.send(message);
        },
        ...(metricSamples
          ? { onLists: (resource, lists, polledAt) => void metricSamples.capture(resource, lists, polledAt) }
          : {}),
      });
    this.recordsMetrics = metricSamples !== undefined;
    this.retainRecordedMetrics();
    void this.acquireRecordedKinds(options.recording?.kinds ?? []);
  }

  private metricsServed(resource: MetricsResource): boolean {
    return (this.options.discovery?.preferredResources() ?? []).some(
      (served) => served.group === 'metrics.k8s.io' && served.resource === resource,
    );
  }

  /**
   * A recording keeps pod and node usage for the whole session, shown or not (issue 14), from when
   * discovery lists metrics.k8s.io: polling before would only find it absent and wait a window.
   */
  private retainRecordedMetrics(): void {
    if (!this.metrics || !this.recordsMetrics || this.metricsRetained) return;
    if (!this.metricsServed('pods') && !this.metricsServed('nodes')) return;
    this.metricsRetained = true;
    this.metrics.retain('pods');
    this.metrics.retain('nodes');
  }

  /**
   * Runs the recorded kinds' feeds for the whole session, leaving out those the user's rules refuse
   * everywhere: their history would be one long gap, and their informers a 403 every backoff.
   */
  private async acquireRecordedKinds(kinds: readonly GroupVersionResource[]): Promise<void> {
    if (kinds.length === 0) return;
    // Held before any feed runs, a renderer's included (see RecordedKindsStart).
    const releaseRecording = this.options.recording?.recorder?.holdWholeCaches();
    const access = this.options.access;
    let allowed = kinds;
    if (access) {
      const verdicts = await Promise.all(kinds.map((gvr) => access.kindAccess(gvr, this.isNamespaced(gvr))));
      if (this.closed) return;
      allowed = kinds.filter((_, index) => verdicts[index] !== 'denied');
    }
    // The first at once, the others once the feeds running then have synced (see RecordedKindsStart).
    const [first, ...later] = allowed;
    if (first) this.feeds.acquire(first, '');
    this.recordedKindsStart = new RecordedKindsStart({
      clock: this.clock,
      runningStates: () => this.feeds.feeds().map((feed) => feed.syncState()),
      startLaterKinds: () => {
        this.recordedKindsPending = false;
        for (const gvr of later) this.feeds.acquire(gvr, '');
      },
      ...(releaseRecording ? { releaseRecording } : {}),
    });
  }

  /** One informer of `gvr` in `namespace` ("" for all), recorded when the session records. */
  private newFeed(gvr: GroupVersionResource, namespace: string): Feed {
    const options = this.options;
    return new Feed({
      gvr,
      namespace,
      newListerWatcher: () => options.newListerWatcher(gvr, namespace, undefined),
      projector: this.projectorFor(gvr),
      clock: this.clock,
      staleAfterMs: options.staleAfterMs,
      reflector: options.reflector,
      // Secrets are never recorded: their data would sit on disk unmasked for as long as retention keeps it.
      ...(options.recording?.recorder && !isSecretResource(gvr)
        ? {
            onInformer: (informer) => {
              const fetchCrashLogs =
                options.openPodLog && options.recording!.crashLogs !== false
                  ? crashLogFetcher(options.openPodLog)
                  : undefined;
              const attachment = options.recording!.recorder!.attach(
                informer,
                gvr,
                namespace,
                fetchCrashLogs ? { fetchCrashLogs } : {},
              );
              return () => attachment.detach();
            },
          }
        : {}),
      onWatchError: (feed, error) => {
        if (isResourceExpired(error)) return;
        // A refusal repeats on every retry of a feed nobody can fix from here: said once per feed.
        if (causedByForbidden(error)) {
          if (this.forbiddenLogged.has(feed)) return;
          this.forbiddenLogged.add(feed);
        }
        (options.log ?? console.warn)(`${feed}: ${error instanceof Error ? error.message : String(error)}`);
      },
    });
  }

  /** Namespaced per discovery (or the built-in registry); an unknown kind is taken as namespaced. */
  private isNamespaced(gvr: GroupVersionResource): boolean {
    const resources = this.options.discovery?.preferredResources() ?? builtinKinds;
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

  /** The recording this session writes, if any (history queries read it). */
  get recording(): SessionRecording | undefined {
    return this.options.recording;
  }

  /** Serves one renderer until the returned connection is closed. */
  attach(peer: SessionPeer): SessionConnection {
    if (this.closed) throw new Error(`the session for context ${this.context} is closed`);
    const connection = new SessionConnection(this, peer, () => this.connections.delete(connection));
    this.connections.add(connection);
    this.scheduleCountPush();
    return connection;
  }

  /** Served kinds, with counts for those some feed is mirroring, and why the forbidden ones are. */
  kinds(): ServedKind[] {
    return servedKinds(
      this.options.discovery,
      (gvr) => this.feeds.find(gvr, '')?.count,
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

  /**
   * The object for the detail pane, from a running feed's cache when there is one (no API call),
   * otherwise by a LIST narrowed to its name; Secret values masked. Throws a NotFound StatusError when
   * it does not exist.
   */
  async getObject(gvr: GroupVersionResource, namespace: string, name: string): Promise<KubeObject> {
    return sanitizeObject(await this.fetchObject(gvr, namespace, name), gvr);
  }

  /**
   * One value of a Secret, for the Reveal control: data[key] as stored (base64), or stringData[key]
   * encoded. Only this value leaves main; it is neither logged nor recorded (Secrets never are).
   */
  async revealSecretValue(namespace: string, name: string, key: string): Promise<RevealedSecretValue> {
    const secret = await this.fetchObject(secretsResource, namespace, name);
    const data = secret.data as Record<string, unknown> | undefined;
    const stringData = secret.stringData as Record<string, unknown> | undefined;
    const value = data?.[key] ?? stringData?.[key];
    if (typeof value !== 'string') {
      throw new StatusError(
        newStatus(404, 'NotFound', `secret "${name}" in namespace ${namespace} has no key ${key}`),
      );
    }
    return { base64: data?.[key] === value ? value : Buffer.from(value).toString('base64') };
  }

  /** The object as the cache or the API server has it: never hand this to a renderer unsanitized. */
  private async fetchObject(gvr: GroupVersionResource, namespace: string, name: string): Promise<KubeObject> {
    const cached =
      this.feeds.find(gvr, namespace)?.cachedObject(namespace, name) ??
      this.feeds.find(gvr, '')?.cachedObject(namespace, name);
    if (cached) return cached;
    const listerWatcher = this.options.newListerWatcher(gvr, namespace, (options) => {
      options.fieldSelector = `metadata.name=${name}`;
    });
    const list = await listerWatcher.list({}, AbortSignal.timeout(this.options.requestTimeoutMs ?? 30_000));
    const found = list.items.find((item) => item.metadata.name === name);
    if (!found) {
      const where = namespace ? ` in namespace ${namespace}` : '';
      throw new StatusError(newStatus(404, 'NotFound', `${gvrKey(gvr)} "${name}" not found${where}`));
    }
    return found;
  }

  /** core/v1 Events whose involvedObject is the given object, oldest first. */
  async listEvents(involved: InvolvedObject): Promise<KubeObject[]> {
    const selector = [`involvedObject.kind=${involved.kind}`, `involvedObject.name=${involved.name}`];
    if (involved.namespace) selector.push(`involvedObject.namespace=${involved.namespace}`);
    if (involved.uid) selector.push(`involvedObject.uid=${involved.uid}`);
    const listerWatcher = this.options.newListerWatcher(
      eventsResource,
      involved.namespace ?? '',
      (options) => {
        options.fieldSelector = selector.join(',');
      },
    );
    const list = await listerWatcher.list({}, AbortSignal.timeout(this.options.requestTimeoutMs ?? 30_000));
    return list.items
      .map((item) => sanitizeObject(item, eventsResource))
      .sort((left, right) => eventTime(left) - eventTime(right));
  }

  /** Re-establishes every feed's watch at once, after sleep or a network change (see Feed.reconnect). */
  reconnectAll(reason: string, staleSince: number): void {
    for (const feed of this.feeds.feeds()) feed.reconnect(reason, staleSince);
  }

  /** Drops every connection's subscriptions and stops every feed and timer. */
  async close(): Promise<void> {
    this.closed = true;
    this.stopDiscovery();
    this.stopAccess();
    this.forbiddenKinds?.stop();
    this.countTimer?.stop();
    this.recordedKindsStart?.stop();
    this.metrics?.close();
    for (const connection of [...this.connections]) connection.close();
    await this.feeds.stopAll();
  }

  /** Sends the kinds list to every connection if it changed since the last push. */
  pushKinds(force = false): void {
    const kinds = this.kinds();
    const namespaces = this.namespaceChoices();
    const serialized = JSON.stringify([kinds, namespaces]);
    if (!force && serialized === this.lastKinds) return;
    this.lastKinds = serialized;
    for (const connection of this.connections)
      connection.send({ type: 'kinds', kinds, ...(namespaces ? { namespaces } : {}) });
  }

  /** The row projection of `gvr`, shared by live feeds and history replay so both give the same rows. */
  projectorFor(gvr: GroupVersionResource): RowProjector {
    const key = gvrKey(gvr);
    let entry = this.projectors.get(key);
    if (!entry) {
      entry = { gvr, projector: new RowProjector((this.options.printerFor ?? printerFor)(gvr)) };
      this.projectors.set(key, entry);
    }
    return entry.projector;
  }

  /**
   * After discovery reported a change: a kind whose printer is no longer the one its projector has (a
   * CRD's printer columns edited while connected) gets a new projector, and its feeds re-project their
   * rows; the kinds push that follows carries the new columns.
   */
  private refreshPrinters(): void {
    const lookup = this.options.printerFor ?? printerFor;
    for (const [key, entry] of this.projectors) {
      const printer = lookup(entry.gvr) ?? defaultPrinter;
      if (printer === entry.projector.printer) continue;
      const projector = new RowProjector(printer);
      this.projectors.set(key, { gvr: entry.gvr, projector });
      for (const feed of this.feeds.feeds()) if (gvrKey(feed.gvr) === key) feed.reproject(projector);
    }
  }

  private scheduleCountPush(): void {
    if (this.countTimer || this.closed) return;
    this.countTimer = this.clock.setTimeout(() => {
      this.countTimer = undefined;
      if (this.connections.size === 0) return;
      this.pushKinds();
      this.scheduleCountPush();
    }, this.options.kindCountIntervalMs ?? 1_000);
  }
}

/** A 403 anywhere in the error's cause chain (the Reflector wraps the server's error). */
function causedByForbidden(error: unknown): boolean {
  for (let current = error; current; current = (current as { cause?: unknown }).cause)
    if (isForbidden(current)) return true;
  return false;
}

function eventTime(event: KubeObject): number {
  const candidates = [
    event.lastTimestamp,
    event.eventTime,
    event.firstTimestamp,
    event.metadata.creationTimestamp,
  ];
  for (const candidate of candidates) {
    if (typeof candidate === 'string') {
      const parsed = Date.parse(candidate);
      if (!Number.isNaN(parsed)) return parsed;
    }
  }
  return 0;
}
