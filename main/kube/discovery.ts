// Which kinds the server serves (client-go's discovery client), kept live: a CRD created while
// connected appears without reconnecting (freelens#1197 is what happens otherwise). Discovery runs
// once at start and again, debounced, after every change to customresourcedefinitions
// (CustomResourceDefinitionWatch). A group version that fails (an unavailable aggregated API, say)
// keeps what was last discovered for it rather than failing the whole registry, as client-go's
// ErrGroupDiscoveryFailed does. /api and /apis are asked for aggregated discovery first
// (apidiscovery.k8s.io v2, then v2beta1, as client-go asks): one document each with every group
// version's resources, where the legacy form takes a request per group version (a hundred and more on
// a cluster with many operators, again after every CRD change). A server that answers in the legacy
// form (before 1.26) is discovered the legacy way; a group version the aggregated document marks
// Stale (an aggregated API server that did not answer) fails as client-go's StaleGroupVersionError.
import { defaultReflectorBackoff, delayFunc } from '../cache/backoff';
import type { Clock, Timer } from '../cache/clock';
import { realClock } from '../cache/real-clock';
import type { KindPrinter } from '../../shared/kinds/columns';
import type { GroupVersionResource } from '../../shared/kube/object';
import { aggregatedDiscoveryAccept, fromAggregated } from './aggregated-discovery';
import type { AggregatedDiscovery } from './aggregated-discovery';
import { CustomResourceDefinitionWatch } from './custom-resource-definition-watch';
import type { RestClient } from './rest-client';
import { groupVersionKey } from './api-resource';
import type { ApiResource, DiscoveryRoot, GroupVersion } from './api-resource';

export type { ApiResource, GroupVersion } from './api-resource';

export interface DiscoveryChange {
  added: ApiResource[];
  removed: ApiResource[];
  /** Same group/version/resource, different kind, scope, verbs or names. */
  updated: ApiResource[];
}

export interface DiscoveryOptions {
  clock?: Clock;
  /** Follow CRDs and rediscover on change (default true). */
  watchCustomResourceDefinitions?: boolean;
  /** Bursts of CRD events within this window cause one rediscovery. */
  rediscoverDelayMs?: number;
  maxBackoffMs?: number;
}

export class Discovery {
  private readonly clock: Clock;
  private byGroupVersion = new Map<string, ApiResource[]>();
  private readonly listeners = new Set<(change: DiscoveryChange) => void>();
  private readonly abort = new AbortController();
  private rediscoverTimer: Timer | undefined;
  private refreshing: Promise<ApiResource[]> | undefined;
  private refreshAgain = false;
  /** Group versions whose last discovery failed, with the error. */
  readonly failedGroupVersions = new Map<string, Error>();
  private readonly definitions: CustomResourceDefinitionWatch | undefined;
  /** The CRD printers' revision the listeners were last told about. */
  private notifiedPrintersRevision = 0;
  private hasAnswered = false;

  constructor(
    private readonly client: RestClient,
    private readonly options: DiscoveryOptions = {},
  ) {
    this.clock = options.clock ?? realClock;
    this.definitions =
      options.watchCustomResourceDefinitions === false
        ? undefined
        : new CustomResourceDefinitionWatch(client, () => this.scheduleRediscovery(), {
            clock: this.clock,
            signal: this.abort.signal,
            maxBackoffMs: options.maxBackoffMs,
          });
  }

  /** Why following CRDs gave up (no permission, or CRDs not served); undefined while it runs. */
  get customResourceWatchError(): Error | undefined {
    return this.definitions?.error;
  }

  /**
   * A custom resource's kubectl printer, from its CRD's additionalPrinterColumns for `gvr.version`;
   * undefined for built-in kinds and when CRDs cannot be followed.
   */
  customResourcePrinter(gvr: GroupVersionResource): KindPrinter | undefined {
    return this.definitions?.printers.printerFor(gvr);
  }

  /** True once a discovery has answered: until then resources() is empty, not "nothing served". */
  get answered(): boolean {
    return this.hasAnswered;
  }

  /**
   * Runs the first discovery until it answers, then follows CRDs: a failed attempt (a cluster that
   * cannot be reached at start, a VPN not yet up) is told to `onFailure` and tried again after the
   * Reflector's backoff (800 ms doubling to 30 s, jittered), as the session's lists are. A session
   * that gave up after one failure kept the built-in kinds for good: no CRD ever appeared once the
   * cluster answered. Resolves true once answered, false when stopped first.
   */
  async startUntilAnswered(onFailure?: (error: unknown, attempt: number) => void): Promise<boolean> {
    const delay = delayFunc(defaultReflectorBackoff);
    for (let attempt = 1; !this.abort.signal.aborted; attempt++) {
      try {
        await this.start();
        return true;
      } catch (error) {
        if (this.abort.signal.aborted) break;
        onFailure?.(error, attempt);
        try {
          await this.clock.sleep(delay(), this.abort.signal);
        } catch {
          break;
        }
      }
    }
    return false;
  }

  /** Runs the first discovery (its failure is thrown), then follows CRDs in the background. */
  async start(): Promise<void> {
    // The CRD list comes first: discovery then reflects at least its state, and the watch from its
    // resourceVersion sees every later change, so no CRD can slip in between the two.
    const follow = (await this.definitions?.list()) ?? false;
    await this.refresh();
    if (follow) void this.definitions?.run();
  }

  stop(): void {
    this.abort.abort(new Error('discovery stopped'));
    this.rediscoverTimer?.stop();
    this.listeners.clear();
  }

  /**
   * Calls `listener` after every discovery that changed the set of resources or a custom kind's printer
   * columns (an empty change then). Returns the unsubscriber.
   */
  onChange(listener: (change: DiscoveryChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Every resource at every served version. */
  resources(): ApiResource[] {
    return [...this.byGroupVersion.values()].flat();
  }

  /** One entry per group and resource: the preferred version's. */
  preferredResources(): ApiResource[] {
    return this.resources().filter((resource) => resource.preferred);
  }

  /**
   * kubectl's lookup among preferred resources: plural, singular, short name or kind (any case),
   * optionally qualified by group ("deployments.apps", "certificates.cert-manager.io").
   */
  find(name: string): ApiResource | undefined {
    const wanted = name.toLowerCase();
    const candidates = this.preferredResources();
    const matches = (resource: ApiResource, term: string) =>
      resource.resource === term ||
      resource.singularName === term ||
      resource.kind.toLowerCase() === term ||
      resource.shortNames.includes(term);
    const unqualified = candidates.filter((resource) => matches(resource, wanted));
    if (unqualified.length > 0)
      return unqualified.find((resource) => resource.group === '') ?? unqualified[0];
    const dot = wanted.indexOf('.');
    if (dot === -1) return undefined;
    const term = wanted.slice(0, dot);
    const group = wanted.slice(dot + 1);
    return candidates.find((resource) => resource.group === group && matches(resource, term));
  }

  /** Runs discovery now (concurrent calls share a run; a call during a run schedules one more). */
  refresh(): Promise<ApiResource[]> {
    if (this.refreshing) {
      this.refreshAgain = true;
      return this.refreshing;
    }
    this.refreshing = this.discover().finally(() => {
      this.refreshing = undefined;
      if (this.refreshAgain && !this.abort.signal.aborted) {
        this.refreshAgain = false;
        void this.refresh().catch(() => undefined);
      }
    });
    return this.refreshing;
  }

  private async discover(): Promise<ApiResource[]> {
    const signal = this.abort.signal;
    const roots = await Promise.all([this.root('/api', signal), this.root('/apis', signal)]);
    const next = new Map<string, ApiResource[]>();
    const failed = (key: string, error: Error) => {
      this.failedGroupVersions.set(key, error);
      const previous = this.byGroupVersion.get(key);
      if (previous) next.set(key, previous);
    };
    for (const root of roots) {
      for (const [key, resources] of root.discovered) {
        next.set(key, resources);
        this.failedGroupVersions.delete(key);
      }
      for (const key of root.stale)
        failed(key, new Error(`discovery of ${key} is stale: its aggregated API server did not answer`));
    }
    await Promise.all(
      roots
        .flatMap((root) => root.toFetch)
        .map(async (groupVersion) => {
          const key = groupVersionKey(groupVersion);
          try {
            next.set(key, await this.resourcesOf(groupVersion, signal));
            this.failedGroupVersions.delete(key);
          } catch (error) {
            if (signal.aborted) throw error;
            failed(key, error as Error);
          }
        }),
    );
    const change = diff(this.byGroupVersion, next);
    this.byGroupVersion = next;
    this.hasAnswered = true;
    const printersRevision = this.definitions?.printers.revision ?? 0;
    const printersChanged = printersRevision !== this.notifiedPrintersRevision;
    this.notifiedPrintersRevision = printersRevision;
    if (change.added.length + change.removed.length + change.updated.length > 0 || printersChanged) {
      for (const listener of [...this.listeners]) listener(change);
    }
    return this.resources();
  }

  /**
   * /api or /apis: in aggregated form, every group version's resources (and the stale ones); in the
   * legacy form, the group versions whose APIResourceList is still to be fetched.
   */
  private async root(path: '/api' | '/apis', signal: AbortSignal): Promise<DiscoveryRoot> {
    const answer = await this.client.json<LegacyRoot | AggregatedDiscovery>({
      path,
      accept: aggregatedDiscoveryAccept,
      description: discoveryRequest(path),
      signal,
    });
    if (answer.kind === 'APIGroupDiscoveryList') return fromAggregated(answer as AggregatedDiscovery);
    return { discovered: new Map(), stale: [], toFetch: fromLegacy(path, answer as LegacyRoot) };
  }

  private async resourcesOf(groupVersion: GroupVersion, signal: AbortSignal): Promise<ApiResource[]> {
    const path =
      groupVersion.group === ''
        ? `/api/${groupVersion.version}`
        : `/apis/${groupVersion.group}/${groupVersion.version}`;
    const list = await this.client.json<{ resources?: RawResource[] }>({
      path,
      description: discoveryRequest(path),
      signal,
    });
    return (list.resources ?? [])
      .filter((resource) => !resource.name.includes('/'))
      .map((resource) => ({
        group: groupVersion.group,
        version: groupVersion.version,
        resource: resource.name,
        kind: resource.kind,
        singularName: resource.singularName || resource.kind.toLowerCase(),
        namespaced: resource.namespaced,
        verbs: resource.verbs ?? [],
        shortNames: resource.shortNames ?? [],
        categories: resource.categories ?? [],
        preferred: groupVersion.preferred,
      }));
  }

  private scheduleRediscovery(): void {
    if (this.rediscoverTimer || this.abort.signal.aborted) return;
    this.rediscoverTimer = this.clock.setTimeout(() => {
      this.rediscoverTimer = undefined;
      void this.refresh().catch(() => undefined);
    }, this.options.rediscoverDelayMs ?? 500);
  }
}

/** APIVersions (/api) or APIGroupList (/apis). */
interface LegacyRoot {
  kind?: string;
  versions?: string[];
  groups?: { name: string; versions: { version: string }[]; preferredVersion?: { version: string } }[];
}

function fromLegacy(path: '/api' | '/apis', root: LegacyRoot): GroupVersion[] {
  if (path === '/api')
    return (root.versions ?? []).map((version, index) => ({ group: '', version, preferred: index === 0 }));
  const result: GroupVersion[] = [];
  for (const group of root.groups ?? []) {
    const preferred = group.preferredVersion?.version ?? group.versions[0]?.version;
    for (const { version } of group.versions)
      result.push({ group: group.name, version, preferred: version === preferred });
  }
  return result;
}

interface RawResource {
  name: string;
  singularName?: string;
  namespaced: boolean;
  kind: string;
  verbs?: string[];
  shortNames?: string[];
  categories?: string[];
}

function discoveryRequest(path: string) {
  return { verb: 'get', resource: `discovery ${path}` };
}

function resourceKey(resource: ApiResource): string {
  return `${resource.group}/${resource.version}/${resource.resource}`;
}

function diff(before: Map<string, ApiResource[]>, after: Map<string, ApiResource[]>): DiscoveryChange {
  const index = (map: Map<string, ApiResource[]>) =>
    new Map([...map.values()].flat().map((resource) => [resourceKey(resource), resource] as const));
  const old = index(before);
  const fresh = index(after);
  const change: DiscoveryChange = { added: [], removed: [], updated: [] };
  for (const [key, resource] of fresh) {
    const previous = old.get(key);
    if (!previous) change.added.push(resource);
    else if (JSON.stringify(previous) !== JSON.stringify(resource)) change.updated.push(resource);
  }
  for (const [key, resource] of old) if (!fresh.has(key)) change.removed.push(resource);
  return change;
}
