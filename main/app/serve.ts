// `npm run serve`: Kubetide in browser mode. The same backend the Electron shell starts runs here in
// Node; the built UI and the bridge WebSocket share one loopback server; the URL printed (and opened)
// carries the per-launch secret in its fragment. Also what `npm start` falls back to without Electron.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startBackend, type Backend } from './backend';
import { startBrowserServer, type BrowserServer } from './browser-server';
import { ensureRendererBuilt, rendererOutput } from './renderer-build';
import { parseServeOptions, serveUsage, ServeUsageError, type ServeOptions } from './serve-options';

export interface BrowserMode {
  readonly url: string;
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
  const backend = await startBackend({
    embedded: options.embedded,
    pods: options.pods,
    log,
    ...(options.kubeconfig !== undefined ? { kubeconfig: options.kubeconfig } : {}),
    ...(options.context !== undefined ? { context: options.context } : {}),
    ...(options.churn !== undefined ? { churn: options.churn } : {}),
    ...(options.dataDirectory !== undefined ? { dataDirectory: options.dataDirectory } : {}),
    ...(options.record !== undefined ? { record: options.record } : {}),
    ...(options.retention !== undefined ? { retention: options.retention } : {}),
  });
  let server: BrowserServer;
  try {
    server = await startBrowserServer({
      rendererDirectory,
      port: options.port,
      onConnection: (transport) => backend.connect(transport),
      onRefused: (reason) => log(`kubetide: refused a bridge connection: ${reason}`),
    });
  } catch (error) {
    await backend.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new ServeUsageError(`port ${options.port} is in use; pick another with --port, or omit it`);
    throw error;
  }
  return {
    url: server.url,
    backend,
    server,
    close: async () => {
      await server.close();
      await backend.close();
    },
  };
}

/** Opens `url` in the system browser; failures only matter to the user, who has the printed URL. */
function openInBrowser(url: string): void {
  const command =
    process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
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
  console.log(
    `kubetide: open this address (the secret after # authenticates your browser; keep it private):`,
  );
  console.log(`\n  ${mode.url}\n`);
  if (options.open) openInBrowser(mode.url);
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
