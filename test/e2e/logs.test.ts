// Logs in browser mode, end to end: the backend and browser-mode server in this process on the
// embedded cluster, the UI in headless Chromium. A Deployment is created in the cluster behind the
// UI's back; its pods log at the simulator's steady pace (1-3 s a line, real time), with SGR colours.
// Screenshots: a pod's logs following live lines, the previous logs of a crash-looping container,
// the Deployment's logs merged from several pods, and a regex search.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startBrowserMode, type BrowserMode } from '../../main/app/serve';
import { setPodStage, restartCountOf } from '../../main/sim/pod-lifecycle';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { fillFilter, launchChromium, screenshotPath } from './chromium';

let mode: BrowserMode;
let cluster: EmbeddedCluster;
let dataDirectory: string;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

const lineCount = async () => Number(await page.getByTestId('log-lines').getAttribute('data-count'));

async function shopPods(): Promise<string[]> {
  const pods = [...cluster.store.values('pods')].map((stored) => stored.object);
  return pods
    .filter(
      (pod) => pod.metadata.labels?.app === 'shop' && (pod.status as { phase?: string })?.phase === 'Running',
    )
    .map((pod) => pod.metadata.name ?? '')
    .sort();
}

async function chooseKind(query: string, title: string): Promise<void> {
  await page.keyboard.press('Escape');
  await page.keyboard.press(':');
  await page.getByTestId('palette-input').fill(query);
  await page.keyboard.press('Enter');
  await expect.poll(() => page.getByTestId('kind-title').textContent()).toBe(title);
}

async function openFullLogs(key: string): Promise<void> {
  await page.locator(`[role="row"][data-key="${key}"]`).click();
  await page.keyboard.press('l');
  await page.getByTestId('log-view').waitFor();
}

beforeAll(async () => {
  dataDirectory = mkdtempSync(join(tmpdir(), 'kubetide-logs-e2e-'));
  mode = await startBrowserMode({
    port: 0,
    embedded: true,
    pods: 30,
    churn: false,
    record: false,
    dataDirectory,
    log: () => undefined,
  });
  cluster = mode.backend.embedded!;
  cluster.storage.create(cluster.resource('deployments', 'apps'), 'default', {
    metadata: { name: 'shop', labels: { app: 'shop' } },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'shop' } },
      template: {
        metadata: { labels: { app: 'shop' } },
        spec: { containers: [{ name: 'shop', image: 'example/shop:1.4' }] },
      },
    },
  });
  const deadline = Date.now() + 30_000;
  while ((await shopPods()).length < 3) {
    if (Date.now() > deadline) throw new Error('the shop pods did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'dark' });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(mode.launchUrl());
  await page.getByTestId('filter-input').waitFor({ timeout: 60_000 });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await mode?.close();
  if (dataDirectory) rmSync(dataDirectory, { recursive: true, force: true });
});

describe('logs in browser mode', { timeout: 60_000 }, () => {
  it("follows a pod's logs as new lines are written", async () => {
    const [pod] = await shopPods();
    await page.keyboard.press('/');
    await fillFilter(page, 'app=shop');
    await page.keyboard.press('Escape');
    await openFullLogs(`default/${pod}`);
    await expect.poll(lineCount, { timeout: 15_000 }).toBeGreaterThan(3);
    const before = await lineCount();
    // The simulator writes a line every 1-3 s: following shows the next ones without any action.
    await expect.poll(lineCount, { timeout: 15_000 }).toBeGreaterThan(before + 1);
    expect(await page.locator('.log-row .fg-ansi-2').count()).toBeGreaterThan(0);
    await page.screenshot({ path: screenshotPath('logs-pod-follow') });
    expect(pageErrors).toEqual([]);
  });

  it("shows a pod's logs in the detail pane's Logs tab", async () => {
    const [pod] = await shopPods();
    await page.keyboard.press('Escape');
    await page.locator(`[role="row"][data-key="default/${pod}"]`).click();
    await page.keyboard.press('Enter');
    await page.getByRole('tab', { name: 'Logs' }).click();
    await expect.poll(lineCount, { timeout: 15_000 }).toBeGreaterThan(3);
    expect(await page.getByTestId('detail').getByTestId('log-view').count()).toBe(1);
    await page.screenshot({ path: screenshotPath('logs-detail-tab') });
    await page.getByRole('tab', { name: 'YAML' }).click();
  });

  it('shows the previous logs of a crash-looping container', async () => {
    const [, pod] = await shopPods();
    await page.keyboard.press('Escape');
    cluster.storage.mutate(cluster.resource('pods'), 'default', pod!, (copy) =>
      setPodStage(copy, 'CrashLoopBackOff', cluster.clock.now(), restartCountOf(copy) + 1),
    );
    await openFullLogs(`default/${pod}`);
    await page.getByTestId('log-previous').click();
    await expect
      .poll(() => page.getByTestId('log-lines').textContent(), { timeout: 15_000 })
      .toContain('panic: runtime error');
    await page.screenshot({ path: screenshotPath('logs-previous-crash') });
    await page.keyboard.press('Escape');
  });

  it("merges a Deployment's pods into one view, with a coloured pod column", async () => {
    await chooseKind(':deploy', 'Deployments');
    await page.keyboard.press('/');
    await fillFilter(page, 'shop');
    await page.keyboard.press('Escape');
    await openFullLogs('default/shop');
    await expect
      .poll(async () => new Set(await page.locator('.log-row .log-source').allTextContents()).size, {
        timeout: 20_000,
      })
      .toBeGreaterThanOrEqual(2);
    await page.screenshot({ path: screenshotPath('logs-deployment') });
  });

  it('searches with a regular expression, highlighting and counting matches', async () => {
    await page.getByTestId('log-search').fill('GET /api/v1/\\w+ 200|heartbeat');
    await page.getByTestId('log-regex').click();
    await expect
      .poll(async () => page.locator('.log-row mark').count(), { timeout: 15_000 })
      .toBeGreaterThan(0);
    await page.getByTestId('log-only-matching').click();
    await page.getByTestId('log-search').press('Enter');
    await expect.poll(() => page.getByTestId('log-match-count').textContent()).toMatch(/^1 of \d+/);
    const shown = await page.locator('.log-row .log-text').allTextContents();
    expect(shown.length).toBeGreaterThan(0);
    for (const text of shown) expect(text).toMatch(/GET \/api\/v1\/\w+ 200|heartbeat/i);
    await page.screenshot({ path: screenshotPath('logs-regex-search') });
    expect(pageErrors).toEqual([]);
  });

  it("reads every pod the filter bar's label selector matches with L", async () => {
    await page.keyboard.press('Escape');
    await chooseKind(':pods', 'Pods');
    await page.keyboard.press('/');
    await fillFilter(page, 'app=shop');
    await page.keyboard.press('Escape');
    await page.keyboard.press('L');
    await expect.poll(() => page.getByTestId('log-title').textContent()).toBe('Pods app=shop');
    await expect
      .poll(async () => new Set(await page.locator('.log-row .log-source').allTextContents()).size, {
        timeout: 20_000,
      })
      .toBeGreaterThanOrEqual(2);
    await page.screenshot({ path: screenshotPath('logs-selector') });
    expect(pageErrors).toEqual([]);
  });
});
