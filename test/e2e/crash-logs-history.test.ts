// Crash logs kept in history, end to end in browser mode (issue 14): the backend records the embedded
// cluster into a temporary data directory; a pod's container crashes, then the pod is deleted; the
// user travels back to just after the crash, opens the gone pod and reads, in its Logs tab, the logs
// of the run that ended, as the recording kept them at the crash. Screenshot: crash-logs-past.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startBrowserMode, type BrowserMode } from '../../main/app/serve';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { restartCountOf, setPodStage } from '../../main/sim/pod-lifecycle';
import { launchChromium, screenshotPath } from './chromium';
import { scrubTo, setFilter } from './timeline-actions';

let mode: BrowserMode;
let cluster: EmbeddedCluster;
let browser: Browser;
let page: Page;
let dataDirectory: string;
const pageErrors: string[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const visibleKeys = () =>
  page.$$eval('[role="row"][data-key]', (rows) => rows.map((row) => (row as HTMLElement).dataset.key ?? ''));

beforeAll(async () => {
  dataDirectory = mkdtempSync(join(tmpdir(), 'kubetide-crash-logs-e2e-'));
  mode = await startBrowserMode({
    port: 0,
    embedded: true,
    pods: 30,
    churn: false,
    dataDirectory,
    log: () => undefined,
  });
  cluster = mode.backend.embedded!;
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'dark' });
  page.setDefaultTimeout(15_000);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(mode.launchUrl());
  await page.getByTestId('filter-input').waitFor({ timeout: 60_000 });
  await page.locator('[role="row"][data-key]').first().waitFor({ timeout: 30_000 });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await mode?.close();
  if (dataDirectory) rmSync(dataDirectory, { recursive: true, force: true });
});

describe('crash logs in history', { timeout: 60_000 }, () => {
  it("shows a deleted pod's crash logs when travelling back to its crash", async () => {
    const pods = cluster.resource('pods');
    const running = [...cluster.store.values('pods')]
      .map((stored) => stored.object)
      .filter((pod) => (pod.status as { phase?: string } | undefined)?.phase === 'Running');
    const victim = running[3]!;
    const namespace = victim.metadata.namespace!;
    const name = victim.metadata.name!;
    await sleep(1_500);
    cluster.storage.mutate(pods, namespace, name, (copy) =>
      setPodStage(copy, 'CrashLoopBackOff', cluster.clock.now(), restartCountOf(copy) + 1),
    );
    const crashed = Date.now();
    // The fetch and the next batch of the recording: well under the 2 s waited here.
    await sleep(2_000);
    cluster.storage.delete(pods, namespace, name);
    await setFilter(page, name);
    await expect.poll(visibleKeys, { timeout: 10_000 }).not.toContain(`${namespace}/${name}`);
    await sleep(1_000);

    await scrubTo(page, crashed + 1_000);
    await expect.poll(() => page.getByTestId('travel-banner').textContent()).toMatch(/Viewing/);
    await expect.poll(visibleKeys, { timeout: 15_000 }).toContain(`${namespace}/${name}`);
    await page.locator(`[role="row"][data-key="${namespace}/${name}"]`).click();
    await page.keyboard.press('Enter');
    await page.getByRole('tab', { name: 'Logs' }).click();
    const title = page.locator('.crash-log-title').first();
    await expect
      .poll(() => title.textContent(), { timeout: 15_000 })
      .toMatch(/logs of the run that ended at \d\d:\d\d:\d\d .*recorded at the crash/);
    // The crashed run's own lines (the sim's previous logs), kept although the pod is gone.
    const lines = page.locator('.crash-log-text').first().locator(':scope > div');
    expect(await lines.count()).toBeGreaterThanOrEqual(3);
    await page.screenshot({ path: screenshotPath('crash-logs-past') });
    expect(pageErrors).toEqual([]);
  });
});
