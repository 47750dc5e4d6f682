// The installed kubectl (v1.32, unmodified) pointed at an embedded cluster through a temporary
// kubeconfig and a private discovery cache, so every test really fetches discovery from its server.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';

const run = promisify(execFile);

export interface KubectlHarness {
  /** stdout of a kubectl run that must succeed; extra environment variables (KUBE_EDITOR) optional. */
  kubectl(args: string[], environment?: NodeJS.ProcessEnv): Promise<string>;
  /** stdout and stderr of a kubectl run that must succeed (its -v logs are on stderr). */
  kubectlWithStderr(args: string[]): Promise<{ stdout: string; stderr: string }>;
  /** stdout and stderr of a kubectl run that must fail. */
  kubectlFailure(args: string[]): Promise<string>;
  /** Writes a file into the harness' directory and returns its path. */
  file(name: string, text: string): string;
  /** A long-running kubectl (a watch); its stdout accumulates in output(). */
  spawn(args: string[]): { output(): string; stop(): void };
  close(): void;
}

/** kubectl as the administrator, or as one of the cluster's `users` by name. */
export function kubectlHarness(cluster: EmbeddedCluster, user?: string): KubectlHarness {
  const directory = mkdtempSync(join(tmpdir(), 'sim-kubectl-'));
  writeFileSync(join(directory, 'kubeconfig'), cluster.kubeconfigYaml(user));
  const environment: NodeJS.ProcessEnv = {
    ...process.env,
    KUBECONFIG: join(directory, 'kubeconfig'),
    KUBECACHEDIR: join(directory, 'cache'),
    HOME: directory,
  };
  const children = new Set<ChildProcessWithoutNullStreams>();
  return {
    async kubectl(args, extra = {}) {
      const { stdout } = await run('kubectl', args, { env: { ...environment, ...extra }, timeout: 20_000 });
      return stdout;
    },
    kubectlWithStderr(args) {
      return run('kubectl', args, { env: environment, timeout: 20_000 });
    },
    async kubectlFailure(args) {
      try {
        await run('kubectl', args, { env: environment, timeout: 20_000 });
      } catch (error) {
        const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
        return stdout + stderr;
      }
      throw new Error(`kubectl ${args.join(' ')} succeeded, and it was expected to fail`);
    },
    file(name, text) {
      const path = join(directory, name);
      writeFileSync(path, text);
      return path;
    },
    spawn(args) {
      const child = spawn('kubectl', args, { env: environment });
      children.add(child);
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      return {
        output: () => output,
        stop: () => {
          child.kill();
          children.delete(child);
        },
      };
    },
    close() {
      for (const child of children) child.kill();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
