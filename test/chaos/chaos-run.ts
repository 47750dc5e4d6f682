// One chaos run: the embedded cluster with churn; informers for six kinds (pods, deployments,
// replicasets, nodes, events, a custom kind) recorded by the history recorder; a ClusterSession and
// BridgeHost feeding a renderer BridgeClient over the in-memory transport; a seeded schedule of faults.
// Then faults and churn stop, and the run passes when, within `convergenceBoundMs`, the informer
// caches, the renderer mirror and history's rebuilt "now" all hold the server's keys at the server's
// resourceVersions, and every subscription shows "synced".
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join } from 'node:path';
import { delayWithReset } from '../../main/cache/backoff';
import type { Backoff } from '../../main/cache/backoff';
import type { ReflectorTuning } from '../../main/cache/controller';
import { SharedInformerFactory } from '../../main/cache/informer-factory';
import { realClock } from '../../main/cache/real-clock';
import { BridgeHost } from '../../main/bridge/bridge-host';
import { ClusterSession } from '../../main/bridge/cluster-session';
import { createInMemoryTransportPair } from '../../main/bridge/in-memory-transport';
import { Recorder } from '../../main/history/recorder';
import { openRecording } from '../../main/history/recording-reader';
import { stateAt } from '../../main/history/replay';
import { Kubeconfig } from '../../main/kube/kubeconfig';
import { httpListerWatcherFactory } from '../../main/kube/lister-watcher';
import { RestClient } from '../../main/kube/rest-client';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import type { EmbeddedClusterOptions } from '../../main/sim/embedded-cluster';
import type { KubeObject } from '../../shared/kube/object';
import { gvrKey } from '../../shared/kube/object';
import { BridgeClient } from '../../renderer/transport/bridge-client';
import type { BridgeLink } from '../../renderer/transport/bridge-link';
import {
  ContinueTokenTrap,
  chaosResources,
  churnWidgets,
  defineWidgets,
  injectFault,
  serverVersions,
} from './chaos-cluster';
import { drawSchedule, faultKinds } from './fault-schedule';
import type { FaultKind, ScheduledFault } from './fault-schedule';
import { seededRandom } from '../support/seeded-random';
import { timerFrameScheduler } from './timer-frame-scheduler';
import { compareVersions, describeDifference, isEqual, versionsOf } from './state-comparison';
import type { VersionMap } from './state-comparison';

/**
 * Timings shortened so that a run takes seconds. The convergence bound is the watch inactivity timeout
 * (a stall in progress when faults stop is noticed only then) plus the longest jittered backoff plus
 * one relist of every kind. The inactivity timeout stays well above the event-loop stalls of a loaded
 * machine (over 2 s were seen with two CPUs shared by a team): below them, healthy watches time out
 * falsely and every relist makes the next stall longer.
 */
export const chaosTimings = {
  inactivityTimeoutMs: 3_000,
  backoff: { duration: 50, factor: 2, jitter: 0.5, steps: 4, cap: 400 } satisfies Backoff,
  relistAllowanceMs: 5_000,
  bookmarkIntervalMs: 250,
  pageSize: 50,
  faultPhaseMs: 2_500,
  stallMs: 4_000,
  pollIntervalMs: 100,
};

export const convergenceBoundMs =
  chaosTimings.inactivityTimeoutMs +
  chaosTimings.backoff.cap * (1 + chaosTimings.backoff.jitter) +
  chaosTimings.relistAllowanceMs;

/** How a run talks to its cluster, how long it faults, and how soon it must converge. */
export interface ChaosProfile {
  pods: number;
  cluster: Pick<EmbeddedClusterOptions, 'tls' | 'faultProxy' | 'bookmarkIntervalMs'>;
  /** Watch silence limit; undefined: the product's (none over HTTP/2, 150 s over HTTP/1.1). */
  watchInactivityTimeoutMs?: number;
  /** No response headers or body bytes for this long fails a request (undefined: the product's 60 s). */
  requestInactivityTimeoutMs?: number;
  /** Undefined: the Reflector's own (client-go's 800 ms ×2 to 30 s, jittered). */
  backoff?: Backoff;
  /** Undefined: the Reflector's own (500). */
  pageSize?: number;
  faultPhaseMs: number;
  stallMs: number;
  minimumFaults: number;
  maximumFaults: number;
  /** One permanent blackhole, before this time into the fault phase. */
  blackholeWithinMs?: number;
  convergenceBoundMs: number;
}

export const chaosProfiles: Record<'fast' | 'production', ChaosProfile> = {
  fast: {
    pods: 300,
    cluster: { bookmarkIntervalMs: chaosTimings.bookmarkIntervalMs },
    watchInactivityTimeoutMs: chaosTimings.inactivityTimeoutMs,
    requestInactivityTimeoutMs: 10_000,
    backoff: chaosTimings.backoff,
    pageSize: chaosTimings.pageSize,
    faultPhaseMs: chaosTimings.faultPhaseMs,
    stallMs: chaosTimings.stallMs,
    minimumFaults: 3,
    maximumFaults: 8,
    convergenceBoundMs,
  },
  /**
   * Everything at the product's real values: TLS + HTTP/2 with client-go's health check (30 s
   * read-idle, 15 s ping timeout), no watch silence limit, the Reflector's real backoff, bookmarks
   * once a minute, 3,000 pods. Each run hangs its connection for ever (a blackhole) early enough for
   * the health check to notice it within the fault phase (30 + 15 s, sampled each second), so that
   * "calm" means no fault is acting any more; it must then converge within 45 s. Faults are fewer
   * than in the fast profile: the real backoff doubles per failure to 30-60 s, and client-go resets
   * it only after 2 minutes, so eight faults in a minute would leave a kind waiting longer than that.
   */
  production: {
    pods: 3_000,
    cluster: { tls: true, faultProxy: true, bookmarkIntervalMs: 60_000 },
    faultPhaseMs: 60_000,
    stallMs: 20_000,
    minimumFaults: 1,
    maximumFaults: 3,
    blackholeWithinMs: 14_000,
    convergenceBoundMs: 45_000,
  },
};

export interface ChaosRunOptions {
  seed: number;
  pods?: number;
  kinds?: readonly FaultKind[];
  /** Default: fast. */
  profile?: ChaosProfile;
}

export interface ChaosRunResult {
  seed: number;
  passed: boolean;
  schedule: ScheduledFault[];
  /** From faults stopping to everything equal; undefined when the bound passed first. */
  convergedMs?: number;
  /** What was still different when the bound passed. */
  failure?: string;
  /** The longest the event loop was blocked during the run: CPU starvation shows here. */
  maximumEventLoopDelayMs: number;
  totalMs: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs one chaos run and tears everything down; the result says whether everything converged. */
export async function runChaos(options: ChaosRunOptions): Promise<ChaosRunResult> {
  const started = Date.now();
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  try {
    const result = await faultAndConverge(options);
    return {
      ...result,
      totalMs: Date.now() - started,
      maximumEventLoopDelayMs: Math.round(delay.max / 1e6),
    };
  } finally {
    delay.disable();
  }
}

async function faultAndConverge(
  options: ChaosRunOptions,
): Promise<Omit<ChaosRunResult, 'totalMs' | 'maximumEventLoopDelayMs'>> {
  const profile = options.profile ?? chaosProfiles.fast;
  const random = seededRandom(options.seed);
  const schedule = drawSchedule(random, {
    kinds: options.kinds ?? faultKinds,
    durationMs: profile.faultPhaseMs,
    minimumFaults: profile.minimumFaults,
    maximumFaults: profile.maximumFaults,
    stallMs: profile.stallMs,
    blackholeWithinMs: profile.blackholeWithinMs,
  });
  const cluster = await startEmbeddedCluster({
    seed: options.seed,
    pods: options.pods ?? profile.pods,
    ...profile.cluster,
    simulation: { churnPerSecond: 40 },
  });
  const directory = mkdtempSync(join(tmpdir(), 'kubetide-chaos-'));
  const cleanups: (() => unknown)[] = [() => cluster.close()];
  let widgetTimer: ReturnType<typeof setInterval> | undefined;
  try {
    defineWidgets(cluster, 10);
    const trap = new ContinueTokenTrap(cluster);
    const connection = Kubeconfig.fromString(cluster.kubeconfigYaml()).connect();
    cleanups.push(() => connection.close());
    const client = new RestClient(connection, { inactivityTimeoutMs: profile.requestInactivityTimeoutMs });
    const newListerWatcher = trap.wrap(
      httpListerWatcherFactory(client, { inactivityTimeoutMs: profile.watchInactivityTimeoutMs }),
    );
    const reflector: ReflectorTuning<KubeObject> = {
      ...(profile.backoff ? { backoff: delayWithReset(profile.backoff, realClock, 60_000, random) } : {}),
      ...(profile.pageSize ? { watchListPageSize: profile.pageSize } : {}),
      log: () => undefined,
    };

    const factory = new SharedInformerFactory(newListerWatcher, {
      reflector,
      reportError: () => undefined,
    });
    const recorder = await Recorder.open({
      file: join(directory, 'chaos.sqlite'),
      context: 'chaos',
      clock: realClock,
      flushIntervalMs: 200,
      reportError: () => undefined,
    });
    cleanups.unshift(() => factory.shutdown());
    cleanups.push(() => recorder.close());
    const informers = chaosResources.map(({ gvr }) => {
      const informer = factory.forResource(gvr).informer();
      recorder.attach(informer, gvr);
      return informer;
    });
    factory.start(new AbortController().signal);

    const session = new ClusterSession({
      context: 'chaos',
      newListerWatcher,
      clock: realClock,
      reflector,
      log: () => undefined,
    });
    const host = new BridgeHost({
      session,
      listContexts: () => [{ name: 'chaos', cluster: 'chaos' }],
      openSession: async () => session,
      log: () => undefined,
    });
    const renderer = new BridgeClient({
      scheduler: timerFrameScheduler(),
      open: async () => {
        const pair = createInMemoryTransportPair('chaos');
        host.accept(pair.server);
        return pair.client as unknown as BridgeLink;
      },
    });
    cleanups.unshift(() => host.close());
    cleanups.unshift(() => renderer.close());
    renderer.start();
    while (renderer.state.getState().connection.phase !== 'open') await sleep(10);
    const subscriptions = await Promise.all(chaosResources.map(({ gvr }) => renderer.subscribe(gvr)));

    let widgetStep = 0;
    widgetTimer = setInterval(() => churnWidgets(cluster, random, widgetStep++), 50);
    const phaseStart = Date.now();
    for (const fault of schedule) {
      const wait = phaseStart + fault.atMs - Date.now();
      if (wait > 0) await sleep(wait);
      injectFault(cluster, trap, fault);
    }
    await sleep(Math.max(0, phaseStart + profile.faultPhaseMs - Date.now()));

    cluster.faults.clear();
    trap.disarm();
    clearInterval(widgetTimer);
    cluster.simulation?.close();
    const quiet = Date.now();

    const copies = () => {
      const state = new Map<string, Map<string, VersionMap>>();
      chaosResources.forEach(({ gvr }, index) => {
        const mirror = renderer.store.mirror(subscriptions[index]);
        const mirrored: VersionMap = new Map(
          [...(mirror?.rows ?? new Map())].map(([key, row]) => [key, row.resourceVersion]),
        );
        state.set(
          gvr.resource,
          new Map([
            ['informer cache', versionsOf(informers[index].getIndexer().list())],
            ['renderer mirror', mirrored],
          ]),
        );
      });
      return state;
    };
    const historyNow = async () => {
      await recorder.flushed();
      const reader = openRecording(recorder.file);
      try {
        return new Map(
          chaosResources.map(({ gvr }) => [
            gvr.resource,
            versionsOf(stateAt(reader, { gvr: gvrKey(gvr), time: Date.now() }).objects),
          ]),
        );
      } finally {
        reader.close();
      }
    };
    const differences = async (withHistory: boolean): Promise<string[]> => {
      const server = serverVersions(cluster);
      const found: string[] = [];
      const history = withHistory ? await historyNow() : undefined;
      for (const [resource, copiesOfKind] of copies()) {
        if (history) copiesOfKind.set("history's now", history.get(resource)!);
        for (const [where, versions] of copiesOfKind) {
          const difference = compareVersions(server.get(resource)!, versions);
          if (!isEqual(difference)) found.push(`${resource} ${where}: ${describeDifference(difference)}`);
        }
      }
      const syncStates = renderer.state.getState().syncStates;
      chaosResources.forEach(({ gvr }, index) => {
        const state = syncStates[subscriptions[index]];
        if (state?.phase !== 'synced') {
          const why = state?.error ? ` (${state.error.message.split('\n')[0].slice(0, 200)})` : '';
          found.push(`${gvr.resource} subscription is ${state?.phase ?? 'unknown'}${why}`);
        }
      });
      return found;
    };

    let remaining: string[] = ['not checked'];
    while (Date.now() - quiet <= profile.convergenceBoundMs) {
      remaining = await differences(false);
      if (remaining.length === 0) remaining = await differences(true);
      if (remaining.length === 0) {
        return { seed: options.seed, passed: true, schedule, convergedMs: Date.now() - quiet };
      }
      await sleep(chaosTimings.pollIntervalMs);
    }
    // Past the bound the run has failed; watching a little longer tells slow from stuck.
    let late = 'still not converged 3 bounds after faults stopped';
    while (Date.now() - quiet <= 3 * profile.convergenceBoundMs) {
      await sleep(chaosTimings.pollIntervalMs * 5);
      if ((await differences(false)).length === 0 && (await differences(true)).length === 0) {
        late = `converged late, ${Date.now() - quiet} ms after faults stopped`;
        break;
      }
    }
    return {
      seed: options.seed,
      passed: false,
      schedule,
      failure: `${remaining.join('\n')}\n${late}`,
    };
  } finally {
    if (widgetTimer) clearInterval(widgetTimer);
    for (const cleanup of cleanups) await cleanup();
    rmSync(directory, { recursive: true, force: true });
  }
}
