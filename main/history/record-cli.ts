// `npm run record -- --context NAME --out FILE [--kubeconfig PATH] [--embedded] [--kinds pods,...]`:
// records a cluster without a UI (for servers) until Ctrl-C or SIGTERM, printing a progress line
// every second, then closes the recording cleanly. --embedded records the built-in simulated cluster
// (--pods N and --churn PER_SECOND size it). Kinds default to every listable, watchable kind that
// discovery finds. Crashed containers' last logs are kept with the pods unless --no-crash-logs.
import { parseArgs } from 'node:util';
import { SharedInformerFactory } from '../cache/informer-factory';
import { realClock } from '../cache/real-clock';
import type { GroupVersionResource } from '../../shared/kube/object';
import { Discovery } from '../kube/discovery';
import type { ApiResource } from '../kube/discovery';
import { Kubeconfig } from '../kube/kubeconfig';
import { httpListerWatcherFactory } from '../kube/lister-watcher';
import { stripManagedFields } from '../kube/managed-fields';
import { podLogOpener } from '../kube/pod-log-request';
import { RestClient } from '../kube/rest-client';
import { startEmbeddedCluster } from '../sim/embedded-cluster';
import type { EmbeddedCluster } from '../sim/embedded-cluster';
import { crashLogFetcher } from './crash-log-fetcher';
import { dataDirectory, recordingFile } from './data-directory';
import { Recorder } from './recorder';

const usage =
  'usage: npm run record -- --context NAME [--out FILE] [--kubeconfig PATH] [--embedded [--pods N] [--churn PER_SECOND]] [--kinds pods,deployments,...] [--no-crash-logs]';

function fail(message: string): never {
  console.error(`${message}\n${usage}`);
  process.exit(2);
}

function count(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) fail(`--${name} must be a non-negative integer (got ${text})`);
  return value;
}

function chooseKinds(discovery: Discovery, names: string | undefined): ApiResource[] {
  if (names === undefined) {
    return discovery
      .preferredResources()
      .filter(
        (resource) =>
          resource.verbs.includes('list') &&
          resource.verbs.includes('watch') &&
          !resource.resource.includes('/'),
      );
  }
  return names
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
    .map((name) => discovery.find(name) ?? fail(`the server serves no kind named "${name}"`));
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      context: { type: 'string' },
      out: { type: 'string' },
      kubeconfig: { type: 'string' },
      embedded: { type: 'boolean' },
      kinds: { type: 'string' },
      pods: { type: 'string' },
      churn: { type: 'string' },
      'no-crash-logs': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  let cluster: EmbeddedCluster | undefined;
  let kubeconfig: Kubeconfig;
  if (values.embedded) {
    cluster = await startEmbeddedCluster({
      tls: true,
      pods: count('pods', values.pods, 500),
      simulation: { churnPerSecond: count('churn', values.churn, 20) },
    });
    kubeconfig = Kubeconfig.fromString(cluster.kubeconfigYaml(), 'embedded cluster');
  } else {
    kubeconfig = values.kubeconfig ? Kubeconfig.fromFiles([values.kubeconfig]) : Kubeconfig.load();
  }
  const connectTo = values.embedded
    ? kubeconfig.currentContext
    : (values.context ?? kubeconfig.currentContext);
  const context = values.context ?? connectTo;
  if (!context) fail('no --context given and the kubeconfig has no current context');
  const file = values.out ?? recordingFile(dataDirectory(), context);

  const connection = kubeconfig.connect(connectTo);
  const client = new RestClient(connection);
  const discovery = new Discovery(client, { watchCustomResourceDefinitions: false });
  await discovery.start();
  const kinds = chooseKinds(discovery, values.kinds);
  const recorder = await Recorder.open({ file, context, clock: realClock });
  const factory = new SharedInformerFactory(httpListerWatcherFactory(client), {
    transform: stripManagedFields,
  });
  for (const kind of kinds) {
    const gvr: GroupVersionResource = { group: kind.group, version: kind.version, resource: kind.resource };
    recorder.attach(
      factory.forResource(gvr).informer(),
      gvr,
      '',
      values['no-crash-logs']
        ? {}
        : { fetchCrashLogs: crashLogFetcher((namespace, pod) => podLogOpener(client, namespace, pod)) },
    );
  }
  const stop = new AbortController();
  factory.start(stop.signal);
  console.log(`recording context ${context} (${kinds.map((kind) => kind.resource).join(', ')}) into ${file}`);

  const started = Date.now();
  let previous = { time: started, changes: 0 };
  const progress = setInterval(() => {
    const stats = recorder.stats();
    const now = Date.now();
    const rate = ((stats.changesWritten - previous.changes) * 1000) / Math.max(1, now - previous.time);
    previous = { time: now, changes: stats.changesWritten };
    const line = `recorded ${stats.changesWritten} events (${rate.toFixed(0)}/s), ${megabytes(stats.bytes)}`;
    if (process.stdout.isTTY) process.stdout.write(`\r${line}   `);
    else console.log(line);
  }, 1000);

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    clearInterval(progress);
    stop.abort();
    await factory.shutdown();
    await recorder.close();
    discovery.stop();
    connection.close();
    await cluster?.close();
    const seconds = (Date.now() - started) / 1000;
    const { changesWritten } = recorder.stats();
    console.log(`\nstopped: ${changesWritten} events in ${seconds.toFixed(0)} s, saved to ${file}`);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
