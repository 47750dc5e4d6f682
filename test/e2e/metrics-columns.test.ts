// CPU and memory in browser mode, against embedded clusters with and without metrics.k8s.io: the pod
// table's k9s columns show what the metrics API reports (formatted as kubectl top prints it), sort by
// usage, and the detail pane charts the samples as they arrive at metrics-server's real 15 s
// resolution; nodes show their percentages of allocatable; without the API, one note says so.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startBrowserMode, type BrowserMode } from '../../main/app/serve';
import { startEmbeddedCluster, type EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { formatCpu, parseQuantity } from '../../shared/kube/quantity';
import { fillFilter, launchChromium, screenshotPath } from './chromium';

interface Opened {
  cluster: EmbeddedCluster;
  mode: BrowserMode;
  page: Page;
}

let browser: Browser;
let directory: string;
let served: Opened;
let bare: Opened;
const pageErrors: string[] = [];

async function open(name: string, metrics: boolean): Promise<Opened> {
  const cluster = await startEmbeddedCluster({ seed: 7, pods: 60, nodes: 4, metrics });
  const kubeconfig = join(directory, `${name}.kubeconfig`);
  writeFileSync(kubeconfig, cluster.kubeconfigYaml(), { mode: 0o600 });
  const mode = await startBrowserMode({
    port: 0,
    kubeconfig,
    embedded: false,
    pods: 0,
    dataDirectory: join(directory, name),
    log: () => undefined,
  });
  const page = await browser.newPage({ viewport: { width: 1920, height: 900 }, colorScheme: 'dark' });
  page.setDefaultTimeout(15_000);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(mode.launchUrl());
  await page.getByTestId('filter-input').waitFor({ timeout: 60_000 });
  return { cluster, mode, page };
}

async function close(opened: Opened | undefined): Promise<void> {
  await opened?.page.close();
  await opened?.mode.close();
  await opened?.cluster.close();
}

/** The texts of one column (by its header title) for the rendered rows, by row key. */
async function column(page: Page, title: string): Promise<Map<string, string>> {
  const entries = await page.$$eval(
    '[role="grid"]',
    (grids, wanted) => {
      const grid = grids[0]!;
      const titles = [...grid.querySelectorAll('[role="columnheader"]')].map(
        (header) => header.querySelector('span:not(.sort-arrow)')?.textContent,
      );
      const index = titles.indexOf(wanted);
      return [...grid.querySelectorAll('[role="row"][data-key]')].map((row) => [
        (row as HTMLElement).dataset.key ?? '',
        row.querySelectorAll('[role="gridcell"]')[index]?.textContent ?? '',
      ]);
    },
    title,
  );
  return new Map(entries as [string, string][]);
}

/** Each pod's CPU as kubectl top pods would print it, from the metrics API. */
async function topPods(cluster: EmbeddedCluster): Promise<Map<string, string>> {
  const response = await fetch(`${cluster.url}/apis/metrics.k8s.io/v1beta1/pods`);
  const list = (await response.json()) as {
    items: { metadata: { name: string; namespace: string }; containers: { usage: { cpu: string } }[] }[];
  };
  return new Map(
    list.items.map((item) => [
      `${item.metadata.namespace}/${item.metadata.name}`,
      formatCpu(item.containers.reduce((sum, container) => sum + parseQuantity(container.usage.cpu)!, 0)),
    ]),
  );
}

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'kubetide-metrics-e2e-'));
  browser = await launchChromium();
  served = await open('served', true);
}, 180_000);

afterAll(async () => {
  await close(served);
  await close(bare);
  await browser?.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

describe('metrics columns', { timeout: 60_000 }, () => {
  it("shows pods' CPU and memory as kubectl top does, with k9s's percentages", async () => {
    const { page, cluster } = served;
    const headers = await page.getByRole('columnheader').allTextContents();
    expect(headers.slice(-6)).toEqual(['CPU', '%CPU/R', '%CPU/L', 'MEM', '%MEM/R', '%MEM/L']);
    // Every rendered running pod shows the same CPU the metrics API reports (a scrape window may turn
    // between the two reads, hence the poll).
    await expect
      .poll(
        async () => {
          const [shown, expected] = [await column(page, 'CPU'), await topPods(cluster)];
          const compared = [...shown].filter(([key]) => expected.has(key));
          return compared.length > 5 && compared.every(([key, text]) => expected.get(key) === text);
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    const requests = [...(await column(page, '%CPU/R')).values()].filter(Boolean);
    expect(requests.every((text) => /^\d+%$/.test(text))).toBe(true);
    // The simulated containers set requests but no limits: k9s's n/a, not 0%.
    expect([...(await column(page, '%MEM/L')).values()].filter(Boolean).every((text) => text === 'n/a')).toBe(
      true,
    );
    expect(await page.getByTestId('metrics-note').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('pods-metrics-columns') });
  });

  it('sorts by CPU, busiest first on the second click', async () => {
    const { page } = served;
    const header = page.getByRole('columnheader', { name: 'CPU', exact: true });
    await header.click();
    await header.click();
    await expect.poll(() => header.getAttribute('aria-sort')).toBe('descending');
    const order = [...(await column(page, 'CPU')).values()]
      .filter(Boolean)
      .map((text) => parseQuantity(text)!);
    expect(order.length).toBeGreaterThan(5);
    expect(order).toEqual([...order].sort((left, right) => right - left));
  });

  it('filters by usage with cpu>20m', async () => {
    const { page } = served;
    await page.keyboard.press('Escape');
    await page.keyboard.press('/');
    // The embedded cluster's pods ask for 10-100m and use about half: some over 20m, not all.
    await fillFilter(page, 'cpu>20m');
    await expect
      .poll(async () => {
        const shown = [...(await column(page, 'CPU')).values()].map((text) => parseQuantity(text)!);
        return shown.length > 0 && shown.every((cores) => cores > 0.02);
      })
      .toBe(true);
    const count = (await page.getByTestId('row-count').textContent()) ?? '';
    expect(count).toMatch(/^\d+ of 60$/);
    await fillFilter(page, '');
    await page.keyboard.press('Escape');
  });

  it('charts the samples in the detail pane as they arrive every 15 s', async () => {
    const { page } = served;
    const first = page.locator('[role="row"][data-key]').first();
    await first.dblclick();
    const chart = page.getByTestId('metrics-chart');
    await chart.waitFor();
    const points = () =>
      chart
        .locator('.metrics-chart-line')
        .first()
        .getAttribute('points')
        .then((text) => (text ?? '').split(' ').filter(Boolean).length);
    // One sample at least (more when the suite before this test outlasted a window), then the next.
    const shown = await points();
    expect(shown).toBeGreaterThanOrEqual(1);
    // metrics-server's resolution, unshortened: the next sample lands within one 15 s window.
    await expect.poll(points, { timeout: 20_000, interval: 1000 }).toBe(shown + 1);
    await page.screenshot({ path: screenshotPath('pods-metrics-chart') });
    await page.keyboard.press('Escape');
  });

  it("shows nodes' usage and percentages of allocatable", async () => {
    const { page } = served;
    await page.locator('[data-kind="nodes"]').click();
    await expect
      .poll(async () => [...(await column(page, '%CPU')).values()], { timeout: 30_000 })
      .toHaveLength(4);
    const cpu = [...(await column(page, '%CPU')).values()];
    const memory = [...(await column(page, 'MEM')).values()];
    expect(cpu.every((text) => /^\d+%$/.test(text))).toBe(true);
    expect(memory.every((text) => /^\d+Mi$/.test(text))).toBe(true);
    await page.screenshot({ path: screenshotPath('nodes-metrics') });
  });

  it('says once that the metrics API is not served, with no value per row', async () => {
    bare = await open('bare', false);
    const { page } = bare;
    await expect
      .poll(() => page.getByTestId('metrics-note').textContent(), { timeout: 30_000 })
      .toBe('metrics API not served');
    await expect.poll(async () => (await column(page, 'Name')).size, { timeout: 30_000 }).toBeGreaterThan(5);
    expect([...(await column(page, 'CPU')).values()].every((text) => text === '')).toBe(true);
    await page.screenshot({ path: screenshotPath('pods-metrics-absent') });
    expect(pageErrors).toEqual([]);
  });
});
