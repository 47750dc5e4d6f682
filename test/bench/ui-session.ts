// What the ui benches set up before they measure, shared by `--only ui` (ui.ts) and the by-hand runs
// (ui-travel.ts, ui-startup.ts): the cluster in its own process, Kubetide in browser mode (recording on,
// its data in the session's folder) in a process of its own or, for a bench that reads its insides,
// in this one, and a Chromium whose pages get ui-page-probe.js before their own scripts, driven by
// playwright-core (the default) or bare over DevTools (cdp-browser.ts, `--driver cdp`). Each is a step of its own, so a caller can time one
// (ui-startup times the backend's start). close() undoes what was started, newest first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureRendererBuilt } from '../../main/app/renderer-build';
import { startBrowserMode } from '../../main/app/serve';
import type { BrowserMode } from '../../main/app/serve';
import type { BenchBrowser, BenchDriver, BenchPage } from './bench-page';
import { benchDrivers } from './bench-page';
import { CdpBrowser } from './cdp-browser';
import { PlaywrightBrowser } from './playwright-page';
import { BackendProcess } from './ui-backend-process';
import { nodeArgumentsFrom, startClusterProcess } from './ui-cluster';
import { round } from './harness';
import { startupTimes } from './ui-scenario';

const probeScript = fileURLToPath(new URL('./ui-page-probe.js', import.meta.url));

type ClusterProcess = Awaited<ReturnType<typeof startClusterProcess>>;

export class UiBenchSession {
  private readonly closers: (() => Promise<unknown>)[] = [];

  private constructor(
    readonly pods: number,
    readonly workFolder: string,
    readonly cluster: ClusterProcess,
  ) {
    this.closers.push(() => cluster.close());
  }

  /** Seeds `pods` pods in the cluster process (still: the caller sets its churn) and builds the UI. */
  static async start(pods: number, log: (message: string) => void): Promise<UiBenchSession> {
    const workFolder = mkdtempSync(join(tmpdir(), 'kubetide-ui-bench-'));
    const cluster = await startClusterProcess({ pods, kubeconfigPath: join(workFolder, 'kubeconfig'), log });
    const session = new UiBenchSession(pods, workFolder, cluster);
    try {
      await ensureRendererBuilt(log);
    } catch (error) {
      await session.close();
      throw error;
    }
    return session;
  }

  /**
   * Kubetide in browser mode on the cluster in this process, for a bench that reads the backend's
   * insides (ui-startup); what it measures of the backend includes this process's driver.
   */
  async startBackend(record = true): Promise<BrowserMode> {
    const mode = await startBrowserMode({
      record,
      port: 0,
      embedded: false,
      pods: this.pods,
      kubeconfig: this.cluster.kubeconfigPath,
      dataDirectory: join(this.workFolder, 'data'),
      log: () => undefined,
    });
    this.closers.unshift(() => mode.close());
    return mode;
  }

  /**
   * Kubetide in browser mode in a process of its own (ui-backend-child.ts): what the benches measure
   * of the backend (CPU, stalls), apart from this process's playwright. nodeArguments default to
   * KUBETIDE_BENCH_BACKEND_NODE_ARGS (by hand, e.g. "--cpu-prof --cpu-prof-dir=/tmp/backend-profile",
   * written when the bench closes the backend).
   */
  async startBackendProcess(
    nodeArguments: readonly string[] = nodeArgumentsFrom('KUBETIDE_BENCH_BACKEND_NODE_ARGS'),
  ): Promise<BackendProcess> {
    const options = {
      pods: this.pods,
      kubeconfig: this.cluster.kubeconfigPath,
      dataDirectory: join(this.workFolder, 'data'),
    };
    const backend = await BackendProcess.start(options, nodeArguments);
    this.closers.unshift(() => backend.close());
    return backend;
  }

  /** Chromium, driven by `driver`, whose pages are at the bench's window size and carry the probe. */
  async openBrowser(
    driver: BenchDriver = 'playwright',
    browserArguments: readonly string[] = [],
  ): Promise<BenchBrowser> {
    const setup = {
      width: 1440,
      height: 900,
      colorScheme: 'dark',
      initScriptPath: probeScript,
      browserArguments,
    } as const;
    const browser =
      driver === 'playwright' ? await PlaywrightBrowser.launch(setup) : await CdpBrowser.launch(setup);
    this.closers.unshift(() => browser.close());
    return browser;
  }

  /**
   * The by-hand benches' start: a page opened on the backend, waited on until its pods are synced,
   * first rows and synced logged. `page.cdp` is its DevTools session.
   */
  async openSyncedPage(
    backend: BackendProcess,
    log: (message: string) => void,
    driver: BenchDriver = 'playwright',
    browserArguments: readonly string[] = [],
  ): Promise<{ page: BenchPage; cdp: BenchPage['cdp'] }> {
    const browser = await this.openBrowser(driver, browserArguments);
    const page = await browser.newPage();
    await page.goto(await backend.launchUrl());
    const startup = await startupTimes(page);
    log(`first rows ${round(startup.firstRows)} ms, synced ${round(startup.synced)} ms (${driver} driver)`);
    return { page, cdp: page.cdp };
  }

  /** Something else to close with the session (before what was started earlier). */
  onClose(close: () => Promise<unknown>): void {
    this.closers.unshift(close);
  }

  async close(): Promise<void> {
    for (const close of this.closers.splice(0)) await close().catch(() => undefined);
    rmSync(this.workFolder, { recursive: true, force: true });
  }
}

/** A by-hand bench's `--driver` value, checked. */
export function parseDriver(value: string | undefined): BenchDriver {
  const driver = value ?? 'playwright';
  if (!(benchDrivers as readonly string[]).includes(driver))
    throw new Error(`--driver takes ${benchDrivers.join(' or ')}; got "${driver}"`);
  return driver as BenchDriver;
}
