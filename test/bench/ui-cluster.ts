// The ui bench's cluster: `npm run sim` in its own process, so seeding 150,000 pods and running 2,000
// changes a second bill neither Kubetide's main process (main_cpu_pct) nor its event loop, as a real
// API server would not. It starts still; the bench turns churn on once Kubetide has synced, because
// the simulator's event window (50,000 events, its etcd compaction) spans a few seconds at 2,000
// changes a second, less than listing 150,000 pods takes on a loaded machine, so every watch after
// the list would start 410 Gone and relist forever.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface ClusterProcess {
  readonly url: string;
  readonly kubeconfigPath: string;
  /** Sets the background change rate (the simulator's POST /_sim/churn). */
  setChurn(changesPerSecond: number): Promise<void>;
  close(): Promise<void>;
}

const simEntry = fileURLToPath(new URL('../../main/sim/cli.ts', import.meta.url));
const startTimeoutMs = 600_000;

export function startClusterProcess(options: {
  pods: number;
  kubeconfigPath: string;
  log: (message: string) => void;
}): Promise<ClusterProcess> {
  const child = spawn(
    process.execPath,
    [
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
      // Plain HTTP, as the other benches' cluster: the figures compare with theirs and with earlier runs.
      '--plain-http',
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
      options.log(`ui: cluster at ${match[1]} with ${options.pods} pods`);
      const url = match[1]!;
      resolve({
        url,
        kubeconfigPath: options.kubeconfigPath,
        setChurn: (rate) => setChurn(url, rate),
        close,
      });
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the cluster process exited with code ${code}: ${output}`));
    });
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

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
