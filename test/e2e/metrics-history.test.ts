// Metric samples kept in history, end to end in browser mode (issue 14): the backend records an
// embedded cluster's metrics.k8s.io at metrics-server's real 15 s resolution; once a second scrape
// has replaced the first on screen, the user travels back to the first scrape's moment and reads its
// CPU in the pods table, plays on from there (the column keeps the usage of a moment played through),
// then opens a Deployment's History tab and sees its usage over the recording, the viewed moment
// marked. Screenshots: metrics-past, metrics-usage-over-time.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { BrowserMode } from '../../main/app/serve';
import { startEmbeddedCluster, type EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { formatCpu, parseQuantity } from '../../shared/kube/quantity';
import { launchChromium, screenshotPath } from './chromium';
import { serveKubeconfig } from './kubeconfig-window';
import { scrubTo, setFilter } from './timeline-actions';

let browser: Browser;
let directory: string;
let cluster: EmbeddedCluster;
let mode: BrowserMode;
let page: Page;
const pageErrors: string[] = [];

/** The CPU column's texts of the rendered rows, by row key. */
async function cpuColumn(): Promise<Map<string, string>> {
  const entries = await page.$$eval('[role="grid"]', (grids) => {
    const grid = grids[0]!;
    const titles = [...grid.querySelectorAll('[role="columnheader"]')].map(
      (header) => header.querySelector('span:not(.sort-arrow)')?.textContent,
    );
    const index = titles.indexOf('CPU');
    return [...grid.querySelectorAll('[role="row"][data-key]')].map((row) => [
      (row as HTMLElement).dataset.key ?? '',
      row.querySelectorAll('[role="gridcell"]')[index]?.textContent ?? '',
    ]);
  });
  return new Map((entries as [string, string][]).filter(([, text]) => text !== ''));
}

/** One scrape as kubectl top pods prints it, with its timestamp. */
async function topPods(): Promise<{ timestamp: number; cpu: Map<string, string> }> {
  const response = await fetch(`${cluster.url}/apis/metrics.k8s.io/v1beta1/pods`);
  const list = (await response.json()) as {
    items: {
      metadata: { name: string; namespace: string };
      timestamp: string;
      containers: { usage: { cpu: string } }[];
    }[];
  };
  return {
    timestamp: Date.parse(list.items[0]!.timestamp),
    cpu: new Map(
      list.items.map((item) => [
        `${item.metadata.namespace}/${item.metadata.name}`,
        formatCpu(item.containers.reduce((sum, container) => sum + parseQuantity(container.usage.cpu)!, 0)),
      ]),
    ),
  };
}

/**
 * True when every row shown has the CPU of `scrape`, and there are a few. Recorded samples keep whole
 * millicores per container, rounded up as kubectl's MilliValue: a pod's sum may exceed the live
 * (exact) one by a millicore per further container.
 */
function showsScrape(shown: Map<string, string>, scrape: Map<string, string>, slack = 0): boolean {
  const compared = [...shown].filter(([key]) => scrape.has(key));
  return (
    compared.length > 5 &&
    compared.every(([key, text]) => {
      const difference = parseQuantity(text)! - parseQuantity(scrape.get(key)!)!;
      return difference >= -1e-9 && difference <= slack + 1e-9;
    })
  );
}

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'kubetide-metrics-history-e2e-'));
  browser = await launchChromium();
  cluster = await startEmbeddedCluster({ seed: 11, pods: 40, nodes: 3 });
  const kubeconfig = join(directory, 'cluster.kubeconfig');
  writeFileSync(kubeconfig, cluster.kubeconfigYaml(), { mode: 0o600 });
  mode = await serveKubeconfig(kubeconfig, directory);
  page = await browser.newPage({ viewport: { width: 1920, height: 900 }, colorScheme: 'dark' });
  page.setDefaultTimeout(15_000);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(mode.launchUrl());
  await page.getByTestId('filter-input').waitFor({ timeout: 60_000 });
}, 180_000);

afterAll(async () => {
  await page?.close();
  await mode?.close();
  await cluster?.close();
  await browser?.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

describe('metrics in history', { timeout: 90_000 }, () => {
  it('shows the CPU recorded at a past moment, and a Deployment’s usage over time', async () => {
    // The first scrape on screen, as the metrics API reports it: its current one, or the one before,
    // which the page still shows until its next poll when a window turned since the last (the polls
    // keep their own phase, and one landing just before a window's end matched the API's current
    // scrape for less than the page took to show it).
    let first = await topPods();
    let before = first;
    await expect
      .poll(
        async () => {
          const current = await topPods();
          if (current.timestamp !== first.timestamp) [before, first] = [first, current];
          const shown = await cpuColumn();
          if (showsScrape(shown, first.cpu)) return true;
          if (before === first || !showsScrape(shown, before.cpu)) return false;
          first = before;
          return true;
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    // metrics-server's resolution, unshortened: the next scrape replaces it within one 15 s window.
    await expect
      .poll(
        async () =>
          (await topPods()).timestamp > first.timestamp && !showsScrape(await cpuColumn(), first.cpu),
        {
          timeout: 25_000,
          interval: 1_000,
        },
      )
      .toBe(true);

    // Between the two scrapes (a scrape is stamped with its window's start, which may precede the
    // recording's): the first one's CPU, as recorded. A recording begun in the first scrape's last
    // second leaves less than that between its start and the next scrape: then the middle of it.
    const recordedFrom = Number(await page.getByTestId('timeline').getAttribute('data-from'));
    const nextScrape = first.timestamp + 15_000;
    await scrubTo(
      page,
      Math.min(
        Math.max(first.timestamp + 7_000, recordedFrom + 1_000),
        (Math.max(first.timestamp, recordedFrom) + nextScrape) / 2,
      ),
    );
    await expect.poll(() => page.getByTestId('travel-banner').textContent()).toMatch(/Viewing/);
    await expect
      .poll(async () => showsScrape(await cpuColumn(), first.cpu, 0.002), { timeout: 15_000 })
      .toBe(true);
    expect(await page.getByTestId('metrics-note').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('metrics-past') });

    // Played from there, the column keeps the usage recorded at a moment the playback passed (the
    // last answer, a question behind): it never stands empty while the moment moves. At 1x, so that
    // the playback is still moving when sampled (at 10x it reaches the recording's end, and paused
    // there the column waits for that moment's own answer, as after any travel).
    await page.selectOption('[data-testid="timeline-speed"]', '1');
    const play = page.getByTestId('timeline-play');
    await play.click();
    await expect.poll(() => play.getAttribute('aria-label')).toBe('Pause');
    const moment = () => page.getByTestId('timeline-chart').getAttribute('aria-valuenow');
    const playedFrom = await moment();
    await expect.poll(moment, { timeout: 10_000 }).not.toBe(playedFrom);
    for (let sample = 0; sample < 6; sample++) {
      const shown = (await cpuColumn()).size;
      expect(await play.getAttribute('aria-label')).toBe('Pause');
      expect(shown).toBeGreaterThan(5);
      await page.waitForTimeout(250);
    }
    await play.click();
    await expect.poll(() => play.getAttribute('aria-label')).toBe('Play');

    // A Deployment with running pods: its History tab charts their summed usage, two polls so far.
    const deployment = [...cluster.store.values('deployments.apps')]
      .map((stored) => stored.object)
      .find((object) => ((object.status as { readyReplicas?: number } | undefined)?.readyReplicas ?? 0) > 0)!;
    await page.locator('[data-kind="deployments"]').click();
    await setFilter(page, deployment.metadata.name!);
    const row = page.locator(
      `[role="row"][data-key="${deployment.metadata.namespace}/${deployment.metadata.name}"]`,
    );
    await row.click();
    await page.keyboard.press('Enter');
    await page.getByRole('tab', { name: 'History' }).click();
    const chart = page.getByTestId('usage-over-time');
    const points = () =>
      chart
        .locator('.metrics-chart-line')
        .first()
        .getAttribute('points')
        .then((text) => (text ?? '').split(' ').filter(Boolean).length);
    await expect.poll(points, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    expect(await chart.locator('.usage-chart-marker').count()).toBe(2);
    expect(await chart.textContent()).toMatch(/CPU.*\d+m.*MEM.*\d+Mi/);
    await page.screenshot({ path: screenshotPath('metrics-usage-over-time') });
    expect(pageErrors).toEqual([]);
  });
});
