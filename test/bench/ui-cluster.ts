// The ui bench's cluster: `npm run sim` in its own process, so seeding 150,000 pods and running 2,000
// changes a second bill neither Kubetide's main process (main_cpu_pct) nor its event loop, as a real
// API server would not. It starts still; the bench turns churn on once Kubetide has synced, because
// the simulator's event window (50,000 events, its etcd compaction) spans a few seconds at 2,000
// changes a second, less than listing 150,000 pods takes on a loaded machine, so every watch after
// the list would start 410 Gone and relist forever.
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import type { ChurnTiming } from '../../main/sim/simulation';
import { signalGroup, spawnInOwnSession } from './own-session';

export interface ClusterProcess {
  readonly url: string;
  readonly kubeconfigPath: string;
  /** Its process id: benches read its CPU time from /proc (processCpuMs). */
  readonly pid: number;
  /** Sets the background change rate (the simulator's POST /_sim/churn). */
  setChurn(changesPerSecond: number): Promise<void>;
  /** How the simulator's loop kept time while churning, and what it was asked (GET /_sim/stats). */
  stats(): Promise<ClusterStats>;
  close(): Promise<void>;
}

export interface ClusterStats {
  readonly churnTiming: ChurnTiming;
  /** Requests served by verb and resource ("list pods", "list pods.metrics.k8s.io", "watch pods"...). */
  readonly requests: Readonly<Record<string, number>>;
}

/** Node or V8 flags for a bench's child process from an environment variable, space-separated. */
export const nodeArgumentsFrom = (variable: string): string[] =>
  process.env[variable]?.split(' ').filter(Boolean) ?? [];

const simEntry = fileURLToPath(new URL('../../main/sim/cli.ts', import.meta.url));
const startTimeoutMs = 600_000;

export function startClusterProcess(options: {
  pods: number;
  kubeconfigPath: string;
  log: (message: string) => void;
}): Promise<ClusterProcess> {
  // A session of its own (own-session.ts): the cluster stands for an API server on another machine, so
  // its churn takes its share of the cores from every process alike, not from the backend's alone.
  const child = spawnInOwnSession(
    process.execPath,
    [
      // By hand, e.g. KUBETIDE_BENCH_SIM_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/sim-profile": the
      // profile is written when the bench closes the cluster.
      ...nodeArgumentsFrom('KUBETIDE_BENCH_SIM_NODE_ARGS'),
      '--import',
      'tsx',
      simEntry,
      '--pods',
      String(options.pods),
      '--churn',
      '0',
      '--port',
      '0',
      '--seed',
      '7',
      '--kubeconfig',
      options.kubeconfigPath,
      // Plain HTTP, uncompressed, as the other benches' cluster: the figures compare with theirs and
      // with earlier runs. By hand, KUBETIDE_BENCH_SIM_GZIP=1 gzips LISTs as a real API server does
      // (npm run sim's default).
      '--plain-http',
      ...(process.env.KUBETIDE_BENCH_SIM_GZIP === '1' ? [] : ['--no-gzip']),
      // By hand, KUBETIDE_BENCH_SIM_NO_METRICS=1: no metrics.k8s.io (as a cluster without
      // metrics-server), to tell what the metrics polls cost the backend.
      ...(process.env.KUBETIDE_BENCH_SIM_NO_METRICS === '1' ? ['--no-metrics'] : []),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const close = () => stop(child);
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      void close();
      reject(new Error(`the cluster did not start in ${startTimeoutMs / 1000} s: ${output}`));
    }, startTimeoutMs);
    child.stderr!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-2000)));
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.removeAllListeners('data');
      child.stdout!.resume();
      const url = match[1]!;
      const cluster = {
        url,
        kubeconfigPath: options.kubeconfigPath,
        pid: child.pid!,
        setChurn: (rate: number) => setChurn(url, rate),
        stats: () => stats(url),
        close,
      };
      const warming = performance.now();
      warm(url).then(
        (bytes) => {
          options.log(
            `ui: cluster at ${url} with ${options.pods} pods ` +
              `(its pods list read once: ${Math.round(bytes / 2 ** 20)} MiB in ${Math.round(performance.now() - warming)} ms)`,
          );
          resolve(cluster);
        },
        (error: unknown) => {
          void close();
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the cluster process exited with code ${code}: ${output}`));
    });
  });
}

/**
 * Reads the pods list once, the bytes dropped. The simulator encodes each seeded object's JSON once
 * (in the background after seeding, or inline by the first LIST that gets there first) and later
 * reads copy the stored text: the sync bench reads the list once before its contenders for that
 * reason, and the ui bench's startup, compared with the sync bench, must find its server likewise.
 */
function warm(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${url}/api/v1/pods`, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () =>
        response.statusCode === 200
          ? resolve(bytes)
          : reject(new Error(`GET pods: HTTP ${response.statusCode}`)),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

async function setChurn(url: string, changesPerSecond: number): Promise<void> {
  const response = await fetch(`${url}/_sim/churn`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ changesPerSecond }),
  });
  if (!response.ok) throw new Error(`POST /_sim/churn: HTTP ${response.status} ${await response.text()}`);
}

async function stats(url: string): Promise<ClusterStats> {
  const response = await fetch(`${url}/_sim/stats`);
  if (!response.ok) throw new Error(`GET /_sim/stats: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as ClusterStats;
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    signalGroup(child, 'SIGTERM');
  });
}
