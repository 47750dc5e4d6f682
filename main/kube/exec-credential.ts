// client-go's exec credential plugin (k8s.io/client-go/plugin/pkg/client/auth/exec): runs the
// kubeconfig user's `exec` command and reads an ExecCredential from its stdout. Ours instead of
// client-node's ExecAuth because that one loses what the user needs to act on a failure (exit code,
// the installHint of a missing plugin), never sends KUBERNETES_EXEC_INFO, runs one plugin per
// concurrent request, and cannot be told that the server rejected a cached credential.
import { spawn } from 'node:child_process';
import type { Clock } from '../cache/clock';
import { ExecPluginFailedError, ExecPluginMissingError } from './errors';
import { ExecPluginRunReport } from './exec-plugin-run';
import type { ExecPluginRun } from './exec-plugin-run';

/** The kubeconfig `users[].user.exec` stanza (client.authentication.k8s.io ExecConfig). */
export interface ExecConfig {
  command: string;
  args?: string[];
  env?: { name: string; value: string }[] | null;
  apiVersion?: string;
  installHint?: string;
  provideClusterInfo?: boolean;
  interactiveMode?: 'Never' | 'IfAvailable' | 'Always';
}

/** What the plugin returned, as the request needs it. */
export interface ExecCredential {
  token?: string;
  clientCertificateData?: string;
  clientKeyData?: string;
  /** Milliseconds since the epoch; undefined means valid until the server rejects it. */
  expiresAt?: number;
}

/** A credential is refreshed this long before its expiry, so a request never races the deadline. */
const expiryMarginMs = 10_000;
const defaultApiVersion = 'client.authentication.k8s.io/v1';

/**
 * Runs a plugin and caches its credential until `expirationTimestamp`. Concurrent callers share one
 * run; invalidate() (after a 401) makes the next call run the plugin again.
 */
export class ExecCredentialProvider {
  private cached: ExecCredential | undefined;
  private running: Promise<ExecCredential> | undefined;

  constructor(
    private readonly config: ExecConfig,
    private readonly clock: Clock,
    /**
     * The cluster, passed in KUBERNETES_EXEC_INFO when provideClusterInfo is set: client-go's
     * ConfigToExecCluster fields (the CA as base64, as Go writes bytes in JSON; a CA file's content).
     */
    private readonly cluster: {
      server: string;
      certificateAuthorityData?: string;
      insecureSkipTlsVerify?: boolean;
      tlsServerName?: string;
      proxyUrl?: string;
      disableCompression?: boolean;
    },
    /** Told of a run that lasts (a login waiting for the user), and undefined at its end. */
    private readonly onRun?: (run: ExecPluginRun | undefined) => void,
  ) {}

  async credential(): Promise<ExecCredential> {
    const cached = this.cached;
    if (cached && (cached.expiresAt === undefined || cached.expiresAt - expiryMarginMs > this.clock.now())) {
      return cached;
    }
    this.running ??= this.run().finally(() => {
      this.running = undefined;
    });
    const fresh = await this.running;
    this.cached = fresh;
    return fresh;
  }

  invalidate(): void {
    this.cached = undefined;
  }

  private run(): Promise<ExecCredential> {
    const { command } = this.config;
    // client-go refuses too: the app has no terminal to hand the plugin.
    if (this.config.interactiveMode === 'Always') {
      return Promise.reject(
        new ExecPluginFailedError(
          command,
          null,
          '',
          'needs an interactive terminal (interactiveMode: Always); log in once with kubectl, then retry',
        ),
      );
    }
    const apiVersion = this.config.apiVersion ?? defaultApiVersion;
    const execInfo = {
      apiVersion,
      kind: 'ExecCredential',
      spec: {
        interactive: false,
        ...(this.config.provideClusterInfo
          ? {
              cluster: {
                server: this.cluster.server,
                'certificate-authority-data': this.cluster.certificateAuthorityData,
                // omitempty in client-go: absent unless set.
                ...(this.cluster.insecureSkipTlsVerify ? { 'insecure-skip-tls-verify': true } : {}),
                ...(this.cluster.tlsServerName ? { 'tls-server-name': this.cluster.tlsServerName } : {}),
                ...(this.cluster.proxyUrl ? { 'proxy-url': this.cluster.proxyUrl } : {}),
                ...(this.cluster.disableCompression ? { 'disable-compression': true } : {}),
              },
            }
          : {}),
      },
    };
    const env: NodeJS.ProcessEnv = { ...process.env, KUBERNETES_EXEC_INFO: JSON.stringify(execInfo) };
    for (const variable of this.config.env ?? []) env[variable.name] = variable.value;

    return new Promise((resolve, reject) => {
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      let spawnError: NodeJS.ErrnoException | undefined;
      const child = spawn(command, this.config.args ?? [], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      const report = this.onRun && new ExecPluginRunReport(command, this.clock, this.onRun);
      child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => {
        stderr.push(chunk);
        report?.printed(chunk.toString('utf8'));
      });
      child.on('error', (error: NodeJS.ErrnoException) => {
        spawnError = error;
      });
      child.on('close', (exitCode) => {
        report?.ended();
        const errorText = Buffer.concat(stderr).toString('utf8');
        if (spawnError) {
          if (spawnError.code === 'ENOENT' || spawnError.code === 'EACCES') {
            reject(new ExecPluginMissingError(command, this.config.installHint, spawnError));
          } else {
            reject(
              new ExecPluginFailedError(command, null, errorText, `could not start (${spawnError.message})`),
            );
          }
          return;
        }
        if (exitCode !== 0) {
          reject(new ExecPluginFailedError(command, exitCode, errorText));
          return;
        }
        try {
          resolve(parseExecCredential(Buffer.concat(stdout).toString('utf8')));
        } catch (error) {
          reject(
            new ExecPluginFailedError(command, exitCode, errorText, `printed ${(error as Error).message}`),
          );
        }
      });
    });
  }
}

/** Reads the plugin's stdout; throws with a short reason when it is not a usable ExecCredential. */
export function parseExecCredential(text: string): ExecCredential {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('output that is not JSON');
  }
  const value = parsed as { kind?: unknown; status?: Record<string, unknown> };
  if (value?.kind !== 'ExecCredential' || typeof value.status !== 'object' || value.status === null) {
    throw new Error('JSON that is not an ExecCredential with a status');
  }
  const status = value.status;
  const credential: ExecCredential = {};
  if (typeof status.token === 'string' && status.token !== '') credential.token = status.token;
  if (typeof status.clientCertificateData === 'string')
    credential.clientCertificateData = status.clientCertificateData;
  if (typeof status.clientKeyData === 'string') credential.clientKeyData = status.clientKeyData;
  if (!credential.token && !(credential.clientCertificateData && credential.clientKeyData)) {
    throw new Error('an ExecCredential with neither a token nor a client certificate and key');
  }
  if (typeof status.expirationTimestamp === 'string') {
    const expiresAt = Date.parse(status.expirationTimestamp);
    if (Number.isNaN(expiresAt))
      throw new Error(`an invalid expirationTimestamp "${status.expirationTimestamp}"`);
    credential.expiresAt = expiresAt;
  }
  return credential;
}
