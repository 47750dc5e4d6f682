// `npm run serve`: Kubetide in browser mode. The same backend the Electron shell starts runs here in
// Node; the built UI and the bridge WebSocket share one loopback server. The address printed and the
// one the browser is opened on each carry a one-time launch code (main/app/launch-codes.ts), never the
// session secret. Also what `npm start` falls back to without Electron.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startBackend, type Backend } from './backend';
import { startBrowserServer, type BrowserServer } from './browser-server';
import { openerCodeLifetimeMs } from './launch-codes';
import { HistoryTransfers } from '../bridge/history-transfers';
import { historyTransferRoutes } from './history-transfer-routes';
import { ensureRendererBuilt, rendererOutput } from './renderer-build';
import { parseServeOptions, serveUsage, ServeUsageError, type ServeOptions } from './serve-options';

export interface BrowserMode {
  /** A fresh one-time address of the app (see BrowserServer.launchUrl). */
  launchUrl(lifetimeMs?: number): string;
  readonly backend: Backend;
  readonly server: BrowserServer;
  close(): Promise<void>;
}

export interface BrowserModeOptions extends Omit<ServeOptions, 'open' | 'record' | 'retention'> {
  retention?: ServeOptions['retention'];
  /** Record the cluster's history (default true). */
  record?: boolean;
  log?: (message: string) => void;
  /** Embedded cluster churn (pod restarts, scale-ups); on unless a test wants a still cluster. */
  churn?: boolean;
  /** The built UI to serve (default out/renderer, built first when missing or stale). */
  rendererDirectory?: string;
}

/** Starts the backend and the browser-mode server; the caller opens `url` in a browser. */
export async function startBrowserMode(options: BrowserModeOptions): Promise<BrowserMode> {
  const log = options.log ?? console.log;
  const rendererDirectory = options.rendererDirectory ?? rendererOutput;
  if (!options.rendererDirectory) await ensureRendererBuilt(log);
  // The port is taken before anything else is touched: a second instance on a busy port must fail
  // before it opens (and writes a gap into) the recording the first instance is writing.
  let backend: Backend | undefined;
  let server: BrowserServer;
  const transfers = new HistoryTransfers();
  try {
    server = await startBrowserServer({
      rendererDirectory,
      port: options.port,
      routes: historyTransferRoutes(transfers),
      onConnection: (transport) => {
        if (backend) backend.connect(transport);
        else transport.close('Kubetide is still starting');
      },
      onRefused: (reason) => log(`kubetide: refused a bridge connection: ${reason}`),
      log,
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new ServeUsageError(`port ${options.port} is in use; pick another with --port, or omit it`);
    throw error;
  }
  try {
    backend = await startBackend({
      embedded: options.embedded,
      pods: options.pods,
      log,
      ...(options.kubeconfig !== undefined ? { kubeconfig: options.kubeconfig } : {}),
      ...(options.context !== undefined ? { context: options.context } : {}),
      ...(options.churn !== undefined ? { churn: options.churn } : {}),
      ...(options.dataDirectory !== undefined ? { dataDirectory: options.dataDirectory } : {}),
      ...(options.record !== undefined ? { record: options.record } : {}),
      ...(options.crashLogs !== undefined ? { crashLogs: options.crashLogs } : {}),
      ...(options.retention !== undefined ? { retention: options.retention } : {}),
      transfers,
    });
  } catch (error) {
    await server.close();
    transfers.close();
    throw error;
  }
  const started = backend;
  return {
    launchUrl: (lifetimeMs) => server.launchUrl(lifetimeMs),
    backend: started,
    server,
    close: async () => {
      await server.close();
      await started.close();
      transfers.close();
    },
  };
}

/**
 * Opens `url` in the system browser: $BROWSER when set (as xdg-open and Python's webbrowser honour
 * it), else the platform's opener. Anything on the opener's command line is readable by every local
 * user, which is why `url` carries a short-lived one-time code and never the session secret. Failures
 * only matter to the user, who has the printed address.
 */
export function openInBrowser(url: string, environment: NodeJS.ProcessEnv = process.env): void {
  const command =
    environment.BROWSER ||
    (process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open');
  try {
    const child = spawn(command, [url], { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // The URL is printed; the user opens it.
  }
}

async function main(): Promise<void> {
  let options: ServeOptions | 'help';
  try {
    options = parseServeOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof ServeUsageError)) throw error;
    console.error(`kubetide: ${error.message}\n\n${serveUsage}`);
    process.exit(2);
  }
  if (options === 'help') {
    console.log(serveUsage);
    return;
  }
  const mode = await startBrowserMode(options);
  console.log(`kubetide: serving on http://127.0.0.1:${mode.server.port}/ (loopback only)`);
  const printAddress = () => {
    console.log('kubetide: open this address within a minute; it works once (press Enter for a fresh one):');
    console.log(`\n  ${mode.launchUrl()}\n`);
  };
  printAddress();
  if (process.stdin.isTTY) process.stdin.on('data', printAddress);
  if (options.open) openInBrowser(mode.launchUrl(openerCodeLifetimeMs));
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    console.log('kubetide: stopping');
    mode.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error: unknown) => {
    console.error('kubetide: could not start:', error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
