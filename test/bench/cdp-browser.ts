// Debian's Chromium launched by the bench itself, headless, with a DevTools port the bench alone
// connects to (cdp-connection.ts): no playwright-core between the bench and the page, so nothing
// enables the Network domain. The switches are the ones playwright-core passes that change how a page
// runs (timers and renderers never throttled in the background, no hang monitor, no IPC flood guard,
// paint holding off, the sRGB colour profile, its headless switches) plus launchChromium's, so a
// figure differs from `--driver playwright`'s only by what the devtools client asks of the page.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumExecutable } from '../e2e/chromium';
import type { BenchBrowser, PageSetup } from './bench-page';
import { CdpConnection } from './cdp-connection';
import { CdpPage } from './cdp-page';
import { signalGroup, spawnInOwnSession } from './own-session';

export const chromiumSwitches = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--hide-scrollbars',
  '--mute-audio',
  '--blink-settings=primaryHoverType=2,availableHoverTypes=2,primaryPointerType=4,availablePointerTypes=4',
  '--disable-field-trial-config',
  '--disable-background-networking',
  '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows',
  '--disable-renderer-backgrounding',
  '--disable-back-forward-cache',
  '--disable-breakpad',
  '--disable-component-extensions-with-background-pages',
  '--disable-component-update',
  '--disable-default-apps',
  '--disable-dev-shm-usage',
  '--disable-extensions',
  '--disable-features=AvoidUnnecessaryBeforeUnloadCheckSync,DestroyProfileOnBrowserClose,HttpsUpgrades,HttpsFirstBalancedModeAutoEnable,LensOverlay,MediaRouter,PaintHolding,ThirdPartyStoragePartitioning,AvoidCorsURLLoaderRestartOnRedirect,OptimizationHints,NetworkTimeServiceQuerying,AimEnabled,PreconnectToSearch',
  '--enable-features=CDPScreenshotNewSurface,SkipListAccountsWithoutGaiaCookies',
  '--allow-pre-commit-input',
  '--disable-hang-monitor',
  '--disable-ipc-flooding-protection',
  '--disable-popup-blocking',
  '--disable-prompt-on-repost',
  '--disable-sync',
  '--force-color-profile=srgb',
  '--metrics-recording-only',
  '--no-first-run',
  '--no-default-browser-check',
  '--password-store=basic',
  '--use-mock-keychain',
  '--no-service-autorun',
  '--disable-search-engine-choice-screen',
  '--enable-unsafe-swiftshader',
  '--disable-stack-profiler',
  '--disable-infobars',
  '--unsafely-disable-devtools-self-xss-warnings',
];

/** The experiment's switch: `shared` starts the browser in the bench's session (see launch). */
const sharedSessionSwitch = 'KUBETIDE_BENCH_CDP_SESSION';
const sharedBrowserSession = () => process.env[sharedSessionSwitch] === 'shared';

/** How long Chromium may take to print its DevTools address (a loaded machine starts it slowly). */
const launchTimeoutMs = 60_000;

export class CdpBrowser implements BenchBrowser {
  readonly driver = 'cdp';

  private constructor(
    private readonly child: ChildProcess,
    private readonly profile: string,
    private readonly connection: CdpConnection,
    private readonly setup: PageSetup,
  ) {}

  static async launch(setup: PageSetup): Promise<CdpBrowser> {
    const profile = mkdtempSync(join(tmpdir(), 'kubetide-cdp-'));
    const child = spawnInOwnSession(
      chromiumExecutable(),
      [
        ...chromiumSwitches,
        ...(setup.browserArguments ?? []),
        '--no-startup-window',
        '--remote-debugging-port=0',
        `--user-data-dir=${profile}`,
      ],
      // A session of its own, as playwright-core starts it (own-session.ts): left in the bench's
      // session, the page's renderer shared one CPU group with the bench, its cluster and Kubetide's
      // backend, and under load drew frames at half rate and answered keys 2-4x later than
      // playwright's browser at the same load. KUBETIDE_BENCH_CDP_SESSION=shared keeps it there.
      { stdio: ['ignore', 'ignore', 'pipe'] },
      sharedBrowserSession(),
    );
    try {
      const url = await devtoolsAddress(child);
      return new CdpBrowser(child, profile, await CdpConnection.open(url), setup);
    } catch (error) {
      await stop(child);
      rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
      throw error;
    }
  }

  newPage(): Promise<CdpPage> {
    return CdpPage.open(this.connection, this.setup);
  }

  async close(): Promise<void> {
    await this.connection
      .session()
      .send('Browser.close')
      .catch(() => undefined);
    this.connection.close();
    await stop(this.child);
    rmSync(this.profile, { recursive: true, force: true, maxRetries: 5 });
  }
}

/** The browser's DevTools WebSocket address, from the line Chromium prints on stderr at start. */
function devtoolsAddress(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(
      () => reject(new Error(`Chromium printed no DevTools address: ${text}`)),
      launchTimeoutMs,
    );
    // Read to the end: a full stderr pipe would block Chromium.
    child.stderr!.on('data', (data: Buffer) => {
      if (text.length > 10_000) return;
      text += data.toString();
      const found = /DevTools listening on (ws:\S+)/.exec(text);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Chromium exited (${code}) before listening: ${text}`));
    });
  });
}

/** Waits for the browser to exit, killing it (this process's child and its group) after 5 s. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<boolean>((resolve) => child.once('exit', () => resolve(true)));
  const timer = setTimeout(() => kill(child, 'SIGKILL'), 5_000);
  if (
    !(await Promise.race([
      exited,
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2_000)),
    ]))
  )
    kill(child, 'SIGTERM');
  await exited;
  clearTimeout(timer);
}

/** Signals the browser's process group (its own, when detached), so its renderers and helpers go too. */
function kill(child: ChildProcess, signal: NodeJS.Signals): void {
  signalGroup(child, signal, sharedBrowserSession());
}
