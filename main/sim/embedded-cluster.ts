// The library entry of the simulator: startEmbeddedCluster builds the store, the API server, the
// seeded workload and the controllers, and returns handles for tests, benchmarks and the app.
import { createServer } from 'node:http';
import { createSecureServer } from 'node:http2';
import type { AddressInfo, Server, Socket } from 'node:net';
import type { ApiServerContext } from './api-server';
import { createRequestListener } from './api-server';
import { defaultBookmarkFrequencyMs } from './bookmark-schedule';
import { servingCertificates } from './certificates';
import type { SimClock } from './clock';
import { systemClock } from './clock';
import { ClusterStorage } from './cluster-storage';
import { FaultInjector } from './faults';
import { FaultProxy } from './fault-proxy';
import { GarbageCollector } from './garbage-collector';
import { embeddedKubeconfig } from './kubeconfig';
import { ObjectStore } from './object-store';
import { RequestLog } from './request-log';
import { OwnerIndex } from './owner-index';
import { PodLogServer } from './pod-log-server';
import { MetricsApi } from './metrics-api';
import { MetricsScraper, defaultMetricResolutionMs } from './metrics-usage';
import { SeededRandom } from './random';
import type { SimUser } from './sim-users';
import { SimUsers } from './sim-users';
import { ResourceCatalog } from './resource-catalog';
import type { ResourceType } from './resource-type';
import type { SeedProgress } from './seed';
import { seedCluster } from './seed';
import { builtinNamespaces } from './builtin-namespaces';
import { seedSystemObjects } from './seed-system-objects';
import { seedCustomResources } from './seed-custom-resources';
import type { SimulationOptions } from './simulation';
import { Simulation } from './simulation';
import { createTableConverter } from './table';
import type { WatchSettings } from './watch-handler';
import { WatchServer } from './watch-handler';
import { ResponseCompression } from './response-compression';
import { WatchHub } from './watch-session';

export interface EmbeddedClusterOptions {
  /** 0 (default): an ephemeral port. The server listens on 127.0.0.1 only. */
  port?: number;
  /**
   * Serve HTTPS as a real API server does: HTTP/2 and HTTP/1.1 by ALPN, with a certificate for
   * 127.0.0.1, ::1 and localhost signed by a CA that the kubeconfig carries (default false: plain
   * HTTP/1.1, which most tests use).
   */
  tls?: boolean;
  /**
   * SETTINGS_MAX_CONCURRENT_STREAMS over HTTP/2. Default 100, kube-apiserver's when
   * --http2-max-streams-per-connection is unset (secure_serving.go, matching Go clients' initial 100).
   */
  http2MaxConcurrentStreams?: number;
  /**
   * Put a TCP proxy in front of the server (the URL and port are then the proxy's), so that
   * faults.blackholeConnections() can hang connections for ever (default false).
   */
  faultProxy?: boolean;
  /** Makes seeding, names, uids and churn reproducible. */
  seed?: number;
  /** Time for the controllers, bookmarks, watch timeouts and timestamps (default: the system clock). */
  clock?: SimClock;
  /** Events a watch or continue token can reach back over before 410 (default 50,000). */
  eventWindow?: number;
  /**
   * Interval of the periodic BOOKMARKs on watches that allow them (default 60 s, kube-apiserver's
   * watch cache cadence); each watch also gets one 2 s before its timeout (see bookmark-schedule.ts).
   */
  bookmarkIntervalMs?: number;
  /** Server-side watch timeout when the client sends none (default 1,800 s). */
  watchTimeoutSeconds?: number;
  /** Bytes a watcher may fall behind before it is dropped (default 64 MiB). */
  watchBufferBytes?: number;
  /** Pods to seed (default 0: an empty cluster with the four system namespaces). */
  pods?: number;
  /** Nodes and namespaces to seed (defaults scale with pods; see SeedOptions). */
  nodes?: number;
  namespaces?: number;
  /** Seed a CRD (certificates.certs.kubetide.dev) and some of its objects with the pods (default true). */
  customResources?: boolean;
  /** Called every 5,000 seeded pods. */
  onSeedProgress?: (progress: SeedProgress) => void;
  /** Run the controllers, scheduler and kubelets (default true). */
  simulate?: boolean;
  /** Options of the controller loop, churn rate included. */
  simulation?: SimulationOptions;
  /**
   * Users besides the administrator, authenticated by bearer token and limited by their rules
   * (namespaceViewer in sim-users.ts makes the usual namespace-limited one).
   */
  users?: readonly SimUser[];
  /**
   * Accepts bearer tokens no user holds, as kube-apiserver's OIDC or webhook token authenticators do:
   * the user a token is, or undefined to refuse it (401). For tests of OIDC clients.
   */
  authenticateToken?: (token: string) => SimUser | undefined;
  /**
   * The administrator's bearer token, a secret of the caller's: every request must then carry a
   * token (without one it is 401, as on a cluster with anonymous requests off). Default: the
   * well-known kubetide-embedded-token, and requests without credentials served as the administrator,
   * for tests and curl. The app's own embedded cluster gives one, so that other local processes can
   * neither read it nor write to it.
   */
  administratorToken?: string;
  /** Lines a container's log file holds before the kubelet rotates it (default 100,000, ~10 MiB). */
  logLinesPerFile?: number;
  /**
   * Serve metrics.k8s.io as metrics-server would (default true), sampled every `metricResolutionMs`
   * (default 15 s, metrics-server's). false leaves it out, as on a cluster without metrics-server.
   */
  metrics?: boolean;
  metricResolutionMs?: number;
  /**
   * Gzip LIST replies over 128 KiB for clients that accept gzip, at level 1, as kube-apiserver does
   * (response-compression.ts). Default false: on one machine it costs both ends CPU and saves nothing.
   */
  compressResponses?: boolean;
  /**
   * Answer /api and /apis in legacy form only, as a server before 1.26 does, even to a client asking
   * for aggregated discovery (default false: aggregated when asked, as kube-apiserver since 1.26).
   */
  legacyDiscoveryOnly?: boolean;
}

/** Runtime control of background change. */
export interface ChurnControls {
  /** Random actions per second. */
  readonly rate: number;
  set(changesPerSecond: number): void;
  /** Performs `count` actions now, whatever the rate. */
  step(count: number): void;
}

/** TCP connections the API server (not the fault proxy) accepted. */
export interface ServerConnections {
  readonly accepted: number;
  readonly open: number;
}

export interface EmbeddedCluster {
  /** https:// with tls, else http://. */
  readonly url: string;
  readonly port: number;
  /** The PEM of the CA that signed the serving certificate (with tls). */
  readonly certificateAuthority?: string;
  readonly connections: ServerConnections;
  /** Requests served, by verb and resource (full LISTs apart from continuation pages). */
  readonly requests: RequestLog;
  readonly store: ObjectStore;
  readonly storage: ClusterStorage;
  readonly faults: FaultInjector;
  readonly watches: WatchHub;
  readonly clock: SimClock;
  readonly churn: ChurnControls;
  /** The controller loop, absent when started with simulate: false. */
  readonly simulation?: Simulation;
  /** A served type by plural resource and group ("" for core), e.g. resource('deployments', 'apps'). */
  resource(resource: string, group?: string): ResourceType;
  /** The administrator's bearer token (see EmbeddedClusterOptions.administratorToken). */
  readonly administratorToken: string;
  /** A kubeconfig for the administrator, or for one of the `users` by name (its context namespace set). */
  kubeconfigYaml(userName?: string): string;
  close(): Promise<void>;
}

export async function startEmbeddedCluster(options: EmbeddedClusterOptions = {}): Promise<EmbeddedCluster> {
  const clock = options.clock ?? systemClock;
  const seed = options.seed ?? Date.now();
  const random = new SeededRandom(seed);
  const catalog = new ResourceCatalog();
  const store = new ObjectStore({
    eventWindow: options.eventWindow,
    unstructured: (resource) => catalog.isCustomResource(resource),
  });
  const storage = new ClusterStorage(store, catalog, clock, random);
  const hub = new WatchHub();
  const users = new SimUsers(options.users ?? [], options.authenticateToken, options.administratorToken);
  let proxy: FaultProxy | undefined;
  // The proxy starts with the server, before any request can ask for a blackhole.
  const faults = new FaultInjector(
    store,
    hub,
    options.faultProxy
      ? { blackholeConnections: (delayMs) => proxy?.blackholeConnections(delayMs) ?? 0 }
      : undefined,
  );
  const settings: WatchSettings = {
    bookmarkIntervalMs: options.bookmarkIntervalMs ?? defaultBookmarkFrequencyMs,
    defaultTimeoutSeconds: options.watchTimeoutSeconds ?? 1800,
    maximumBufferedBytes: options.watchBufferBytes ?? 64 * 1024 * 1024,
  };
  const watches = new WatchServer(store, clock, hub, () => settings);
  const resource = (name: string, group = ''): ResourceType => {
    const type = catalog.findAnyVersion(group, name);
    if (!type) throw new Error(`the embedded cluster serves no resource ${name} in group "${group}"`);
    return type;
  };
  for (const name of builtinNamespaces)
    storage.create(resource('namespaces'), undefined, { metadata: { name } });
  if (options.pods || options.nodes || options.namespaces)
    seedCluster(
      store,
      random,
      clock.now(),
      { pods: options.pods ?? 0, nodes: options.nodes, namespaces: options.namespaces },
      options.onSeedProgress,
    );
  if (options.pods && options.customResources !== false) {
    const seeded = [...store.values('namespaces')]
      .map((namespace) => namespace.object.metadata.name ?? '')
      .filter((name) => !builtinNamespaces.has(name));
    seedCustomResources(storage, resource, seeded, random);
  }
  seedSystemObjects(storage, resource, clock.now());
  const owners = new OwnerIndex(store);
  const collector = new GarbageCollector(store, owners, clock);
  storage.onOrphan = (owner) => collector.orphan(owner);
  const simulation =
    options.simulate === false
      ? undefined
      : new Simulation(storage, owners, clock, random, options.simulation);
  simulation?.start();
  let closed = false;
  if (options.pods) void encodeInBackground(store, () => closed);
  const churn: ChurnControls = {
    get rate() {
      return simulation?.churnRate ?? 0;
    },
    set: (rate) => simulation?.setChurn(rate),
    step: (count) => simulation?.churn.step(count),
  };

  const requests = new RequestLog();
  const compression = options.compressResponses ? new ResponseCompression() : undefined;
  const context: ApiServerContext = {
    storage,
    faults,
    watches,
    table: createTableConverter(store),
    now: () => clock.now(),
    ...(compression ? { compression } : {}),
    ...(options.legacyDiscoveryOnly ? { legacyDiscoveryOnly: true } : {}),
    hub,
    users,
    requests,
    logs: new PodLogServer(storage, clock, options.logLinesPerFile),
    ...(options.metrics === false
      ? {}
      : {
          metrics: new MetricsApi(
            new MetricsScraper(store, seed, options.metricResolutionMs ?? defaultMetricResolutionMs),
            () => clock.now(),
          ),
        }),
    admin: {
      setChurn: (rate) => churn.set(rate),
      stats: () => ({
        resourceVersion: store.resourceVersion,
        openWatches: hub.size,
        churnPerSecond: churn.rate,
        ...(simulation ? { churnTiming: simulation.churnTiming } : {}),
        objects: Object.fromEntries(store.resources().map((name) => [name, store.count(name)])),
        connections: { ...connections },
        compressedResponses: compression?.compressed ?? 0,
        requests: requests.snapshot(),
      }),
    },
  };
  const listener = createRequestListener(context);
  const certificates = options.tls ? await servingCertificates() : undefined;
  const server: Server = certificates
    ? // node:http2's compatibility API gives HTTP/2 and HTTP/1.1 requests the node:http shapes.
      createSecureServer(
        {
          key: certificates.privateKey,
          cert: certificates.certificate,
          allowHTTP1: true,
          settings: { maxConcurrentStreams: options.http2MaxConcurrentStreams ?? 100 },
          // Node refuses new streams once a session holds more than this many MB (default 10), as
          // a few concurrent multi-megabyte LISTs do; kube-apiserver (Go) has no such cap.
          maxSessionMemory: 512,
        },
        listener as unknown as Parameters<typeof createSecureServer>[1],
      )
    : Object.assign(createServer({ keepAlive: true }, listener), { keepAliveTimeout: 65_000 });
  // Counted for tests (N watches share one HTTP/2 connection) and closed with the cluster.
  const sockets = new Set<Socket>();
  const connections = { accepted: 0, open: 0 };
  server.on('connection', (socket: Socket) => {
    connections.accepted++;
    sockets.add(socket);
    connections.open = sockets.size;
    socket.once('close', () => {
      sockets.delete(socket);
      connections.open = sockets.size;
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.faultProxy ? 0 : (options.port ?? 0), '127.0.0.1', () => resolve());
  });
  const serverPort = (server.address() as AddressInfo).port;
  if (options.faultProxy) proxy = await FaultProxy.start(serverPort, options.port ?? 0);
  const port = proxy?.port ?? serverPort;
  const url = `${certificates ? 'https' : 'http'}://127.0.0.1:${port}`;
  return {
    url,
    port,
    certificateAuthority: certificates?.certificateAuthority,
    connections,
    requests,
    store,
    storage,
    faults,
    watches: hub,
    clock,
    churn,
    simulation,
    resource,
    administratorToken: users.administrator.token,
    kubeconfigYaml: (userName) => {
      const certificateAuthority = certificates?.certificateAuthority;
      if (userName === undefined)
        return embeddedKubeconfig(url, certificateAuthority, undefined, users.administrator.token);
      const user = users.find(userName);
      if (!user) throw new Error(`the embedded cluster has no user ${userName}`);
      return embeddedKubeconfig(url, certificateAuthority, user);
    },
    async close() {
      closed = true;
      simulation?.close();
      collector.close();
      owners.close();
      for (const session of hub.all()) session.drop();
      await proxy?.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Produces the JSON text of every seeded object in small batches between other work, so the first
 * LIST of a freshly seeded cluster streams stored text instead of encoding 150,000 objects inline.
 */
async function encodeInBackground(store: ObjectStore, stopped: () => boolean): Promise<void> {
  let count = 0;
  for (const resource of store.resources()) {
    for (const stored of store.values(resource)) {
      if (stored.json.length === 0 || ++count % 1000 !== 0) continue;
      await new Promise((resolve) => setImmediate(resolve));
      if (stopped()) return;
    }
  }
}
