// npm run quiet -- --minutes 30 [--pods N] [--churn PER_SECOND] [--seed S]
// A long quiet session as the app runs it: the embedded cluster over TLS + HTTP/2 with bookmarks at the
// real cadence (60 s), discovery, a ClusterSession and a renderer subscribed to every served kind, the
// product's real timers. It counts, from the server's request log, the full LISTs of every kind once
// every subscription has synced (each is a relist; discovery's own CRD watch lists CRDs too, which is
// why the count starts after the initial sync rather than at one per kind), and samples every second
// whether a subscription said "synced" while its watch had been silent for longer than the bookmark
// cadence plus a margin.
// A healthy run: zero relists, zero stale "synced" seconds (exit code 0; else 1).
import { parseArgs } from 'node:util';
import { BridgeHost } from '../../main/bridge/bridge-host';
import { ClusterSession } from '../../main/bridge/cluster-session';
import { createInMemoryTransportPair } from '../../main/bridge/in-memory-transport';
import { servedKinds } from '../../main/bridge/served-kinds';
import { Discovery } from '../../main/kube/discovery';
import { Kubeconfig } from '../../main/kube/kubeconfig';
import { httpListerWatcher } from '../../main/kube/lister-watcher';
import { RestClient } from '../../main/kube/rest-client';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import { gvrKey } from '../../shared/kube/object';
import { BridgeClient } from '../../renderer/transport/bridge-client';
import type { BridgeLink } from '../../renderer/transport/bridge-link';
import { timerFrameScheduler } from '../chaos/timer-frame-scheduler';
import { WatchSilence } from './watch-silence';

const bookmarkCadenceMs = 60_000;
/** The cacher dispatches bookmarks on a 1 s tick; 15 s more covers a loaded machine's stalls. */
const silenceMarginMs = 15_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string', default: '30' },
      pods: { type: 'string', default: '500' },
      churn: { type: 'string', default: '0' },
      seed: { type: 'string', default: '1' },
    },
  });
  const minutes = Number(values.minutes);
  const pods = Number(values.pods);
  const churn = Number(values.churn);
  if (![minutes, pods, churn].every((value) => Number.isFinite(value) && value >= 0))
    throw new Error('usage: npm run quiet -- [--minutes M] [--pods N] [--churn PER_SECOND] [--seed S]');

  const cluster = await startEmbeddedCluster({
    tls: true,
    pods,
    seed: Number(values.seed),
    simulation: { churnPerSecond: churn },
  });
  const connection = Kubeconfig.fromString(cluster.kubeconfigYaml()).connect();
  const client = new RestClient(connection);
  const discovery = new Discovery(client);
  await discovery.start();
  const silence = new WatchSilence();
  const warnings: string[] = [];
  const session = new ClusterSession({
    context: 'quiet',
    discovery,
    newListerWatcher: silence.tap((gvr, namespace, tweak) =>
      httpListerWatcher(client, gvr, namespace, tweak),
    ),
    log: (message) => warnings.push(message),
  });
  const host = new BridgeHost({
    session,
    listContexts: () => [{ name: 'quiet', cluster: 'quiet' }],
    openSession: async () => session,
    log: (message) => warnings.push(message),
  });
  const renderer = new BridgeClient({
    scheduler: timerFrameScheduler(),
    open: async () => {
      const pair = createInMemoryTransportPair('quiet');
      host.accept(pair.server);
      return pair.client as unknown as BridgeLink;
    },
  });
  renderer.start();
  while (renderer.state.getState().connection.phase !== 'open') await sleep(10);
  const kinds = servedKinds(
    discovery,
    () => undefined,
    () => [],
  ).map((kind) => kind.gvr);
  const subscriptions = await Promise.all(kinds.map((gvr) => renderer.subscribe(gvr)));
  console.log(
    `quiet: ${kinds.length} kinds, ${pods} pods, churn ${churn}/s, ${minutes} min over ` +
      `${cluster.url} (TLS + HTTP/2), bookmarks every ${bookmarkCadenceMs / 1000} s`,
  );

  const synced = () =>
    subscriptions.every((id) => renderer.state.getState().syncStates[id]?.phase === 'synced');
  while (!synced()) await sleep(100);
  const baseline = cluster.requests.snapshot();
  const staleSyncedSeconds = new Map<string, number>();
  const started = Date.now();
  let nextReport = started + 60_000;
  while (Date.now() - started < minutes * 60_000) {
    await sleep(1_000);
    const states = renderer.state.getState().syncStates;
    kinds.forEach((gvr, index) => {
      const silentMs = silence.silentMs(gvrKey(gvr));
      if (states[subscriptions[index]]?.phase !== 'synced' || silentMs === undefined) return;
      if (silentMs > bookmarkCadenceMs + silenceMarginMs)
        staleSyncedSeconds.set(gvr.resource, (staleSyncedSeconds.get(gvr.resource) ?? 0) + 1);
    });
    if (Date.now() >= nextReport) {
      nextReport += 60_000;
      const lists = kinds.reduce(
        (sum, gvr) =>
          sum + cluster.requests.fullLists(storageName(gvr)) - (baseline[`list ${storageName(gvr)}`] ?? 0),
        0,
      );
      console.log(
        `  ${Math.round((Date.now() - started) / 60_000)} min: ${lists} relists so far, ` +
          `${cluster.connections.accepted} connections, ${warnings.length} warnings`,
      );
    }
  }

  const requests = cluster.requests.snapshot();
  let relists = 0;
  const since = (key: string) => (requests[key] ?? 0) - (baseline[key] ?? 0);
  console.log(`${'kind'.padEnd(48)}  relists  watches  stale "synced" s   (counted after the initial sync)`);
  for (const gvr of kinds) {
    const name = storageName(gvr);
    const kindRelists = since(`list ${name}`);
    relists += kindRelists;
    console.log(
      `${name.padEnd(48)}${String(kindRelists).padStart(9)}${String(since(`watch ${name}`)).padStart(9)}` +
        `${String(staleSyncedSeconds.get(gvr.resource) ?? 0).padStart(18)}`,
    );
  }
  const stale = [...staleSyncedSeconds.values()].reduce((sum, seconds) => sum + seconds, 0);
  console.log(
    `quiet: ${relists} relists in ${minutes} min; ${stale} s of "synced" over a watch silent past ` +
      `${(bookmarkCadenceMs + silenceMarginMs) / 1000} s; ${cluster.connections.accepted} TCP connections; ` +
      `${warnings.length} warnings${warnings.length ? ` (first: ${warnings[0]})` : ''}`,
  );
  process.exitCode = relists === 0 && stale === 0 ? 0 : 1;
  renderer.close();
  await host.close();
  discovery.stop();
  connection.close();
  await cluster.close();
}

function storageName(gvr: { group: string; resource: string }): string {
  return gvr.group === '' ? gvr.resource : `${gvr.resource}.${gvr.group}`;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 2;
});
