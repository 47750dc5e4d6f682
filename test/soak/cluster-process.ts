// The embedded cluster in a child process (npm run sim's entry), so that the soak measures Kubetide's
// memory and handles alone: in-process, the simulator's own store and event window would grow with the
// cluster and hide, or fake, a trend on our side.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ClusterProcess {
  url: string;
  kubeconfigYaml: string;
  setChurn(changesPerSecond: number): Promise<void>;
  /** Object counts and the resourceVersion, from GET /_sim/stats. */
  stats(): Promise<{ resourceVersion: number; objects: Record<string, number> }>;
  close(): Promise<void>;
}

export async function startClusterProcess(pods: number, seed: number): Promise<ClusterProcess> {
  const directory = mkdtempSync(join(tmpdir(), 'kubetide-soak-'));
  const kubeconfig = join(directory, 'kubeconfig');
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'main/sim/cli.ts',
      '--pods',
      String(pods),
      '--port',
      '0',
      '--seed',
      String(seed),
      '--kubeconfig',
      kubeconfig,
      // Plain HTTP/1.1, uncompressed, as in earlier rounds (and fetch below needs no CA).
      '--plain-http',
      '--no-gzip',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) =>
      reject(new Error(`the embedded cluster exited with ${code} before listening`)),
    );
  });
  child.stdout.resume();
  const post = async (path: string, body: unknown) => {
    const response = await fetch(url + path, { method: 'POST', body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  };
  return {
    url,
    kubeconfigYaml: readFileSync(kubeconfig, 'utf8'),
    setChurn: (changesPerSecond) => post('/_sim/churn', { changesPerSecond }),
    stats: async () => (await fetch(`${url}/_sim/stats`)).json() as ReturnType<ClusterProcess['stats']>,
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
