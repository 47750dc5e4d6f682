// The "also expected" features end to end on the embedded cluster in headless Chromium: the palette
// finding a pod by label across kinds and opening it, the Children tab's xray tree of a Deployment,
// and the theme toggle (dark chosen, remembered across a reload), with screenshots of each.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startBrowserMode, type BrowserMode } from '../../main/app/serve';
import { launchChromium, screenshotPath } from './chromium';
import { ClusterApi, type PodSummary } from './cluster-api';

let mode: BrowserMode;
let dataDirectory: string | undefined;
let browser: Browser;
let page: Page;
let api: ClusterApi;
const pageErrors: string[] = [];

/** A pod of a Deployment, and that Deployment's name (its pods and Service carry app=<name>). */
async function podOfDeployment(): Promise<{ pod: PodSummary; deployment: string }> {
  const replicaSets = await api.replicaSets();
  for (const pod of await api.pods()) {
    const set = replicaSets.find((candidate) => pod.owners.some((owner) => owner.uid === candidate.uid));
    const deployment = set?.owners.find((owner) => owner.kind === 'Deployment');
    if (deployment && pod.labels['app'] === deployment.name) return { pod, deployment: deployment.name };
  }
  throw new Error('the embedded cluster has no pod of a Deployment labelled app=<deployment>');
}

async function openPalette(query: string): Promise<void> {
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+k');
  await page.getByTestId('palette-input').fill(query);
}

const selectedKey = () => page.locator('[role="row"][aria-selected="true"]').getAttribute('data-key');

beforeAll(async () => {
  dataDirectory = mkdtempSync(join(tmpdir(), 'kubetide-e2e-'));
  mode = await startBrowserMode({
    port: 0,
    embedded: true,
    pods: 300,
    churn: false,
    dataDirectory,
    log: () => undefined,
  });
  api = new ClusterApi(mode.backend.embedded!);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  await page.goto(mode.launchUrl());
  await page.getByTestId('filter-input').waitFor({ timeout: 60_000 });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await mode?.close();
  if (dataDirectory) rmSync(dataDirectory, { recursive: true, force: true });
});

describe('search, xray and themes', { timeout: 60_000 }, () => {
  it('finds a pod by label across kinds in the palette and opens it selected', async () => {
    const pods = await api.pods();
    await expect
      .poll(
        async () =>
          Number(((await page.getByTestId('filter-count').textContent()) ?? '').replaceAll(',', '')),
        {
          timeout: 30_000,
        },
      )
      .toBe(pods.length);
    const { pod, deployment } = await podOfDeployment();
    await openPalette(`app=${deployment}`);
    const groups = page.getByTestId('palette-group');
    // Pods from the table's mirror; Deployments and Services mirrored while the palette is open.
    await expect
      .poll(async () => (await groups.allTextContents()).map((text) => text.replace(/[\d,+\s]+$/, '')), {
        timeout: 15_000,
      })
      .toEqual(expect.arrayContaining(['Pods', 'Deployments', 'Services']));
    await expect
      .poll(() => page.getByTestId('palette-scope').textContent())
      .toMatch(/searching \d+ kinds loaded in this window/);
    await page.screenshot({ path: screenshotPath('palette-label-search') });
    await page.getByTestId('palette-object').filter({ hasText: pod.name }).first().dispatchEvent('mousedown');
    await expect.poll(() => page.getByTestId('kind-title').textContent()).toBe('Pods');
    await expect.poll(selectedKey, { timeout: 10_000 }).toBe(`${pod.namespace}/${pod.name}`);
    await page.screenshot({ path: screenshotPath('palette-opened-pod') });
  });

  it("shows a Deployment's ReplicaSets and their Pods as a tree with counts (xray)", async () => {
    const { pod, deployment } = await podOfDeployment();
    await openPalette(deployment);
    const result = page
      .getByTestId('palette-object')
      .filter({ hasText: new RegExp(`^${deployment}${pod.namespace}`) });
    await expect.poll(() => result.count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await result.first().dispatchEvent('mousedown');
    await expect.poll(() => page.getByTestId('kind-title').textContent()).toBe('Deployments');
    await page.getByRole('tab', { name: /Children/ }).click();
    const pods = (await api.pods()).filter(
      (candidate) => candidate.labels['app'] === deployment && candidate.namespace === pod.namespace,
    );
    await expect
      .poll(() => page.getByTestId('children-counts').textContent(), { timeout: 15_000 })
      .toMatch(new RegExp(`replica ?sets? · ${pods.length} pods?$`, 'i'));
    const items = await page.getByTestId('owned-item').allTextContents();
    expect(items.some((text) => text.startsWith('ReplicaSet'))).toBe(true);
    expect(items.filter((text) => text.startsWith('Pod')).length).toBe(pods.length);
    await page.screenshot({ path: screenshotPath('xray-deployment') });
    await page.keyboard.press('Escape');
  });

  it('lists Events by Last Seen, newest first, by default', async () => {
    // A still cluster's only events are the kubelet's for the pods seeded ContainerCreating (1.5% of
    // them, by the seed's roll): in 5 of 20 runs there were none, and the test failed on a correctly
    // empty table. A Deployment's pod deleted makes events of its own: the ReplicaSet's
    // SuccessfulCreate, then the replacement's Scheduled, Pulled and Started.
    const { pod } = await podOfDeployment();
    await api.deletePod(pod.namespace, pod.name);
    await expect.poll(() => api.eventCount(), { timeout: 15_000 }).toBeGreaterThan(1);
    await openPalette(':events');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('kind-title').textContent()).toBe('Events');
    const lastSeen = () =>
      page.$$eval('[role="row"][data-key]', (rows) =>
        rows.map((row) =>
          // The cell itself holds an age's text and its title (grid-cell.tsx).
          Date.parse(row.querySelectorAll('[role="gridcell"]')[1]?.getAttribute('title') ?? ''),
        ),
      );
    // On a loaded CI machine, beside the suite's other browsers, the Events list took over 15 s twice.
    try {
      await expect.poll(async () => (await lastSeen()).length, { timeout: 30_000 }).toBeGreaterThan(1);
    } catch (error) {
      // Say what the page showed (listing, an error, an empty kind, a dropped connection) and what the
      // cluster holds, so a recurrence explains itself.
      await page.screenshot({ path: screenshotPath('events-last-seen-missing') });
      const shown = await page.evaluate(() => ({
        badge: document.querySelector('[data-testid="sync-state"]')?.textContent,
        count: document.querySelector('[data-testid="row-count"]')?.textContent,
        table: document.querySelector('main.content')?.textContent?.slice(0, 300),
      }));
      const inCluster = await api.eventCount();
      throw new Error(
        `no Events rows after 30 s (the cluster holds ${inCluster}); the page showed ${JSON.stringify(shown)}`,
        {
          cause: error,
        },
      );
    }
    const times = await lastSeen();
    expect(times.every((time) => !Number.isNaN(time))).toBe(true);
    expect(times).toEqual([...times].sort((left, right) => right - left));
    const sorted = await page.locator('[role="columnheader"][aria-sort="ascending"]').textContent();
    expect(sorted).toMatch(/Last Seen/i);
    await page.screenshot({ path: screenshotPath('events-last-seen') });
  });

  it('switches to the dark theme from the top bar and remembers it', async () => {
    const theme = () => page.evaluate(() => document.documentElement.dataset['theme']);
    const toggle = page.getByTestId('theme-toggle');
    expect(await theme()).toBe('light'); // "system", and the system is light
    await toggle.click(); // light
    await toggle.click(); // dark
    await expect.poll(() => toggle.getAttribute('data-theme-choice')).toBe('dark');
    expect(await theme()).toBe('dark');
    await page.reload();
    await page.getByTestId('filter-input').waitFor({ timeout: 30_000 });
    expect(await theme()).toBe('dark');
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).not.toBe('rgb(255, 255, 255)');
    await expect
      .poll(async () => page.locator('[role="row"][data-key]').count(), { timeout: 15_000 })
      .toBeGreaterThan(0);
    await page.screenshot({ path: screenshotPath('pods-dark-chosen') });
    expect(pageErrors).toEqual([]);
  });
});
