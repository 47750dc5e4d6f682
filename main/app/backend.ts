// What Electron and browser mode both start: the cluster connection and the bridge the renderer's
// transports attach to. It finds a kubeconfig the way kubectl does (main/kube); when there is none, or
// when asked, it starts the embedded cluster (main/sim) and connects to it over HTTP as the context
// "Embedded cluster", exactly as it would to a real API server. The embedded cluster is also offered
// in the context picker beside the kubeconfig's contexts, and started on first use.
import { randomBytes } from 'node:crypto';
import { parse, stringify } from 'yaml';
import { realClock } from '../cache/real-clock';
import type { Clock } from '../cache/clock';
import { Kubeconfig, kubeconfigCandidates, kubeconfigPaths, noKubeconfigFound } from '../kube/kubeconfig';
import type { ContextDescription as KubeContextDescription } from '../kube/kubeconfig';
import { readKubeconfigOffMain, workerAuthProviderFiles } from './kubeconfig-reading';
import { KubeconfigWatch } from './kubeconfig-watch';
import { Discovery } from '../kube/discovery';
import { podLogOpener } from '../kube/pod-log-request';
import { metricsListRequest } from '../kube/metrics-list';
import { RestClient } from '../kube/rest-client';
import { httpListerWatcher } from '../kube/lister-watcher';
import { selfSubjectRules } from '../kube/self-subject-rules';
import { selfSubjectAccessReview } from '../kube/self-subject-access-review';
import { selfSubjectReview } from '../kube/self-subject-review';
import type { ExecPluginRun } from '../kube/exec-plugin-run';
import { NamespaceAccess } from '../bridge/namespace-access';
import { dataDirectory } from '../history/data-directory';
import { NamespaceListFile } from './namespace-list-file';
import { messageOf } from '../kube/errors';
import { BridgeHost } from '../bridge/bridge-host';
import type { ClusterSession } from '../bridge/cluster-session';
import { OwnedClusterSession } from './owned-cluster-session';
import { renewCredentials } from './credential-renewal';
import { OpenedInstead, noCurrentContext } from './opened-instead';
import type { Transport } from '../bridge/transport';
import type { SessionOpener } from '../bridge/bridge-host';
import { startEmbeddedCluster, type EmbeddedCluster } from '../sim/embedded-cluster';
import { printerFor } from '../../shared/kinds/columns';
import type { ContextDescription, ContextOpenedInstead } from '../../shared/protocol/server-messages';
import { openSessionRecording } from './history-recording';
import type { RetentionPolicy } from '../history/retention';
import type { FilePicker } from '../bridge/history-service';
import type { HistoryTransfers } from '../bridge/history-transfers';

/** The context name the embedded cluster goes by in the picker. */
export const embeddedContext = 'Embedded cluster';

export interface BackendOptions {
  /** A kubeconfig file instead of $KUBECONFIG / ~/.kube/config. */
  kubeconfig?: string;
  /** The context to open first (default: the kubeconfig's current-context). */
  context?: string;
  /** Use the embedded cluster even when a kubeconfig exists. */
  embedded?: boolean;
  /** Pods the embedded cluster is seeded with (default 2,000). */
  pods?: number;
  /** Gentle background change in the embedded cluster (default true: a few changes per second). */
  churn?: boolean;
  log?: (message: string) => void;
  clock?: Clock;
  /** The app's data directory (recordings live under it); default: main/history's per-OS place. */
  dataDirectory?: string;
  /** Record every change the informers see into the context's recording (default true). */
  record?: boolean;
  /** Keep crashed containers' last logs in each recording (default true). */
  crashLogs?: boolean;
  /** How much history each recording keeps (default: none removed). */
  retention?: RetentionPolicy;
  /** Main's file dialog for history export/import (Electron); browser mode has none. */
  pickFile?: FilePicker;
  /** Browser mode's history downloads and uploads (served by its HTTP server). */
  transfers?: HistoryTransfers;
}

export interface Backend {
  readonly host: BridgeHost;
  /** The embedded cluster, once started (tests reach its API, faults and churn through it). */
  readonly embedded: EmbeddedCluster | undefined;
  /** Serves one renderer connection (a window, a browser tab) until either side closes it. */
  connect(transport: Transport): void;
  close(): Promise<void>;
}

const gentleChurnPerSecond = 2;

/**
 * How long opening a session waits for its discovery to answer before it offers the built-in kinds
 * meanwhile: a healthy cluster answers in one or two round trips, 300 ms ones included.
 */
const discoveryPatienceMs = 3_000;

/** A kubeconfig context as the pickers show it: names, server and proxy, never credentials. */
function pickerEntry(context: KubeContextDescription): ContextDescription {
  return {
    name: context.name,
    cluster: context.clusterName,
    server: context.server,
    namespace: context.namespace,
    user: context.userName,
    ...(context.proxy ? { proxy: context.proxy } : {}),
  };
}

/** The embedded cluster's kubeconfig, with its context renamed to what the picker shows. */
function embeddedKubeconfig(cluster: EmbeddedCluster): Kubeconfig {
  const document = parse(cluster.kubeconfigYaml()) as {
    contexts: { name: string }[];
    'current-context': string;
  };
  for (const context of document.contexts) context.name = embeddedContext;
  document['current-context'] = embeddedContext;
  return Kubeconfig.fromString(stringify(document), 'the embedded cluster');
}

export async function startBackend(options: BackendOptions = {}): Promise<Backend> {
  const log = options.log ?? console.log;
  const clock = options.clock ?? realClock;
  const useEmbedded = options.embedded === true || (options.kubeconfig === undefined && noKubeconfigFound());
  /** The file --kubeconfig names, read instead of $KUBECONFIG / ~/.kube/config. */
  const namedFiles = options.kubeconfig !== undefined ? [options.kubeconfig] : undefined;
  /** Why the kubeconfig could not be read at start (a file mid-edit); it is read again as it changes. */
  let unreadable: string | undefined;
  const readFirst = (): Kubeconfig | undefined => {
    if (useEmbedded) return undefined;
    try {
      return namedFiles ? Kubeconfig.fromFiles(namedFiles) : Kubeconfig.load();
    } catch (error) {
      // A context named with --context cannot be opened from an unreadable file: start-up fails.
      if (options.context !== undefined) throw error;
      unreadable = messageOf(error);
      return undefined;
    }
  };
  const initialKubeconfig = readFirst();
  let kubeconfigWatch: KubeconfigWatch | undefined;
  /** The kubeconfig as its files read now (kubeconfig-watch.ts); the first reading until one changes. */
  const kubeconfig = () => kubeconfigWatch?.kubeconfig ?? initialKubeconfig;

  const namespaceLists = new NamespaceListFile(
    dataDirectory(options.dataDirectory ? { override: options.dataDirectory } : {}),
    log,
  );
  let embedded: EmbeddedCluster | undefined;
  let embeddedConfig: Kubeconfig | undefined;
  let embeddedStarting: Promise<Kubeconfig> | undefined;
  const ensureEmbedded = () =>
    (embeddedStarting ??= (async () => {
      const pods = options.pods ?? 2000;
      log(`kubetide: starting the embedded cluster with ${pods.toLocaleString('en-US')} pods`);
      // Like a real API server: TLS (a generated CA in the kubeconfig), HTTP/2, and LIST replies over
      // 128 KiB gzipped for the client that asks (ours does), so the app on its embedded cluster reads
      // what it reads from a real one. At the default 2,000 pods that is ~4 MB deflated on zlib's threads.
      // Its administrator's token is this run's secret: the cluster listens on loopback, where any
      // local process can connect, and would otherwise serve a request without credentials (or with
      // the well-known token) as its administrator.
      embedded = await startEmbeddedCluster({
        pods,
        tls: true,
        compressResponses: true,
        administratorToken: randomBytes(32).toString('hex'),
      });
      embedded.churn.set(options.churn === false ? 0 : gentleChurnPerSecond);
      embeddedConfig = embeddedKubeconfig(embedded);
      return embeddedConfig;
    })());

  /** The host, once the first session opened: sessions tell it when their contexts' list changes. */
  let bridgeHost: BridgeHost | undefined = undefined;
  /**
   * Opens `context` from the kubeconfig as it reads now. `replacing` is the session of the same context
   * opened from an entry that changed since: it serves on while the new connection's discovery runs,
   * then hands over its recording and closes before this session's feeds start.
   */
  const openSession = async (context: string, replacing?: OwnedClusterSession): Promise<ClusterSession> => {
    const config = context === embeddedContext ? await ensureEmbedded() : kubeconfig();
    if (!config) throw new Error(`unknown context "${context}"`);
    // Told to the renderers while it lasts: a login waiting for the user looked like a cluster that
    // never lists (kubectl hands the plugin's stderr to the terminal; the app has none).
    const login: { run: ExecPluginRun | undefined } = { run: undefined };
    const onExecRun = (run: ExecPluginRun | undefined) => {
      login.run = run;
      void bridgeHost?.pushContexts();
    };
    const connection = config.connect(context, {
      clock,
      authProviderFiles: workerAuthProviderFiles,
      onExecRun,
    });
    const client = new RestClient(connection, { clock });
    /**
     * Discovery, tried until it answers for as long as the session lives. The session opens once it
     * answered, failed once, or discoveryPatienceMs passed: a cluster that accepts connections and
     * never answers (a hung API server, a VPN middlebox) kept the window from opening for over a
     * minute (each request's dial and TLS deadlines in turn). Until it answers the built-in kinds are
     * offered; then its kinds, CRDs included, reach the renderers as a change.
     */
    const startDiscovery = async (): Promise<Discovery> => {
      const discovery = new Discovery(client, { clock });
      const waited = new AbortController();
      let failures = 0;
      const answered = discovery.startUntilAnswered((error) => {
        failures += 1;
        if (failures === 1)
          log(
            `kubetide: discovery failed for context ${context} (${messageOf(error)}); offering the built-in kinds, and trying again`,
          );
        waited.abort();
      });
      void answered.then((done) => {
        if (done && failures > 0)
          log(`kubetide: discovery of context ${context} answered after ${failures + 1} attempts`);
      });
      await Promise.race([answered, clock.sleep(discoveryPatienceMs, waited.signal).catch(() => undefined)]);
      waited.abort();
      return discovery;
    };
    // Discovery's round trips and the recording's start (its worker thread, its file) overlap: the
    // session's first LIST waits for both (under load each took seconds, one after the other).
    const [discovery, recording] = await Promise.all([
      startDiscovery(),
      replacing
        ? replacing.handOverRecording()
        : options.record === false
          ? undefined
          : openSessionRecording({
              context,
              clock,
              log,
              dataDirectory: options.dataDirectory,
              retention: options.retention,
              crashLogs: options.crashLogs,
            }),
    ]);
    // Its streams detach from the recording before this session's attach (one stream per kind).
    await replacing?.close();
    const access = new NamespaceAccess({
      contextNamespace: connection.namespace,
      rules: (namespace) => selfSubjectRules(client, namespace, AbortSignal.timeout(30_000)),
      review: (namespace, verb, gvr) =>
        selfSubjectAccessReview(client, namespace, verb, gvr, AbortSignal.timeout(30_000)),
      list: namespaceLists.forContext(context),
    });
    const session = new OwnedClusterSession({
      context,
      clock,
      access,
      ...(recording ? { recording } : {}),
      newListerWatcher: (gvr, namespace, tweak) =>
        httpListerWatcher(client, gvr, namespace, tweak, { clock }),
      openPodLog: (namespace, pod) => podLogOpener(client, namespace, pod),
      printerFor: (gvr) => discovery.customResourcePrinter(gvr) ?? printerFor(gvr),
      discovery,
      // Read in a worker thread: a 150,000-pod poll cost main 1.1-1.3 s of CPU every 15 s.
      metrics: {
        replies: (resource, namespace, signal, reader) =>
          client.listInto(metricsListRequest(resource, namespace, signal), reader),
      },
    });
    session.login = login;
    session.onExecRun = onExecRun;
    if (context !== embeddedContext) {
      session.entry = config.connectionEntry(context);
      session.serverEntry = config.serverEntry(context);
      session.connection = connection;
      session.identity = selfSubjectReview(client, AbortSignal.timeout(30_000));
      // Read only if the credentials change; its failure then says why the session opens again.
      session.identity.catch(() => undefined);
    }
    session.release = () => {
      discovery.stop();
      connection.close();
    };
    session.resetConnections = (reason) => connection.resetConnections(reason);
    return session;
  };

  /**
   * The context asked for (--context), else the kubeconfig's current one; when that cannot be opened,
   * the embedded cluster, saying why (see ContextDescription.openedInstead). `kind delete cluster` and
   * `minikube delete` leave the file with no current-context (or one that names nothing), and a file
   * saved mid-edit does not read: the app refused to start until the user mended the file. A context
   * named with --context must open.
   */
  async function openFirstSession(): Promise<{ session: ClusterSession; openedInstead?: OpenedInstead }> {
    if (useEmbedded) return { session: await openSession(embeddedContext) };
    if (options.context !== undefined) return { session: await openSession(options.context) };
    const current = initialKubeconfig?.currentContext ?? '';
    let said: ContextOpenedInstead =
      unreadable !== undefined
        ? { context: '', cause: 'unreadable', reason: unreadable }
        : { context: '', cause: 'no-current-context', reason: noCurrentContext };
    if (current !== '') {
      try {
        return { session: await openSession(current) };
      } catch (error) {
        said = { context: current, cause: 'failed', reason: messageOf(error) };
      }
    }
    log(`kubetide: ${said.reason}; opening the embedded cluster instead (pick a context in the window)`);
    const session = await openSession(embeddedContext);
    const followed = {
      open: (context: string) => openSession(context),
      onSaid: () => void bridgeHost?.pushContexts(),
      log,
    };
    const failed = said.cause === 'failed' ? initialKubeconfig : undefined;
    return { session, openedInstead: new OpenedInstead(session, said, followed, failed) };
  }

  /**
   * The pickers' contexts: the kubeconfig's as it reads now, the open one kept (marked removed) when
   * the file no longer defines it, and the embedded cluster.
   */
  const listContexts = (current: ClusterSession): ContextDescription[] => {
    const contexts = (kubeconfig()?.listContexts() ?? []).map(pickerEntry);
    const open = current as OwnedClusterSession;
    if (open.connection && !contexts.some((context) => context.name === open.context))
      contexts.unshift({ ...pickerEntry(open.connection.describe()), removed: true });
    const login = open.login.run;
    const entry = login && contexts.find((context) => context.name === open.context);
    if (entry) entry.login = { ...login };
    contexts.push({
      name: embeddedContext,
      cluster: 'kubetide-embedded',
      embedded: true,
      ...(embedded ? { server: embedded.url } : {}),
      // Said while the fallback opened at start is the session shown (not after a switch and back).
      ...(openedInstead?.session === current ? { openedInstead: { ...openedInstead.said } } : {}),
    });
    return contexts;
  };

  const { session, openedInstead } = await openFirstSession();
  const firstContext = session.context;
  const host = new BridgeHost({
    session,
    listContexts,
    openSession,
    log,
    ...(options.pickFile ? { pickFile: options.pickFile } : {}),
    ...(options.transfers ? { transfers: options.transfers } : {}),
  });
  bridgeHost = host;
  // Opened, not connected: the cluster may not answer yet, and its kinds' failures are logged as they come.
  log(`kubetide: opened context ${firstContext}`);
  /**
   * How to renew the current session when `reading` gives its context another entry than the one it
   * was opened from (see connection-entry.ts): new credentials of the same user in place, anything
   * else by opening it again; or, while the embedded cluster opened at start instead of the current
   * context is shown, by opening the one `reading` makes current (opened-instead.ts). Undefined to
   * keep it: the embedded cluster, an unchanged entry, or a context the file no longer defines (it
   * stays open as it was read; the pickers stop offering it).
   */
  const renewal =
    (reading: Kubeconfig) =>
    (current: ClusterSession): SessionOpener | undefined => {
      const followed = openedInstead?.opener(reading, current);
      if (followed) return followed;
      const session = current as OwnedClusterSession;
      if (session.entry === undefined) return undefined;
      const entry = reading.connectionEntry(session.context);
      if (entry === session.entry) return undefined;
      if (entry === undefined) {
        log(
          `kubetide: context ${session.context} is no longer in the kubeconfig; it stays open as it was read`,
        );
        return undefined;
      }
      if (reading.serverEntry(session.context) === session.serverEntry)
        return async () =>
          (await renewCredentials(session, reading, {
            clock,
            log,
            authProviderFiles: workerAuthProviderFiles,
          }))
            ? session
            : openSession(session.context, session);
      log(
        `kubetide: the kubeconfig's entry for context ${session.context} changed; opening it again from it`,
      );
      return () => openSession(session.context, session);
    };
  const followReading = (reading: Kubeconfig) =>
    host.renewSession(renewal(reading)).catch((error: unknown) => {
      // Thrown before anything closed (a cluster the entry names is not defined, a proxy-url refused).
      log(`kubetide: context ${host.session.context} stays open as it was read: ${messageOf(error)}`);
    });

  // Asked for the embedded cluster alone, the kubeconfig's contexts are not offered, so not followed.
  if (options.embedded !== true) {
    kubeconfigWatch = new KubeconfigWatch(
      {
        files: namedFiles ?? kubeconfigCandidates(),
        load: () => readKubeconfigOffMain(namedFiles ?? kubeconfigPaths()),
        onChange: () => void host.pushContexts(),
        onReading: (reading) => void followReading(reading),
        clock,
        log,
      },
      initialKubeconfig,
    );
  }

  return {
    host,
    get embedded() {
      return embedded;
    },
    connect: (transport) => {
      host.accept(transport);
    },
    close: async () => {
      kubeconfigWatch?.close();
      await host.close();
      await namespaceLists.flushed();
      await embedded?.close();
    },
  };
}
