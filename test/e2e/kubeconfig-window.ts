// Kubetide in browser mode on a kubeconfig file of the test's own (no embedded cluster offered first),
// with a Chromium page open on it: what the e2e suites of kubeconfig changes and logins start from.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startBrowserMode, type BrowserMode } from '../../main/app/serve';
import { launchChromium } from './chromium';

export interface KubeconfigWindow {
  readonly page: Page;
  close(): Promise<void>;
}

/** Browser mode serving `kubeconfig` alone (no embedded cluster), its recordings under `directory`/data. */
export function serveKubeconfig(kubeconfig: string, directory: string): Promise<BrowserMode> {
  return startBrowserMode({
    port: 0,
    kubeconfig,
    embedded: false,
    pods: 0,
    dataDirectory: join(directory, 'data'),
    log: () => undefined,
  });
}

/** Serves `kubeconfig` (recordings under `directory`/data) and opens a 1440x900 page on it. */
export async function openKubeconfigWindow(kubeconfig: string, directory: string): Promise<KubeconfigWindow> {
  const mode = await serveKubeconfig(kubeconfig, directory);
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.setDefaultTimeout(15_000);
    await page.goto(mode.launchUrl());
    const opened = browser;
    return {
      page,
      close: async () => {
        await opened.close();
        await mode.close();
      },
    };
  } catch (error) {
    await browser?.close();
    await mode.close();
    throw error;
  }
}
