// Kubetide in browser mode, end to end: the backend and the browser-mode server started in this
// process on the embedded cluster (port 0), the UI in headless Chromium. The cluster's own API is the
// ground truth the table is compared with, and the way changes are made behind the UI's back.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startBrowserMode, type BrowserMode } from '../../main/app/serve';
import { fillFilter, launchChromium, screenshotPath } from './chromium';
import { ClusterApi, replicaSetPods, type PodSummary } from './cluster-api';

let mode: BrowserMode;
let dataDirectory: string | undefined;
let browser: Browser;
let page: Page;
let api: ClusterApi;
const pageErrors: string[] = [];

const keyOf = (pod: Pick<PodSummary, 'namespace' | 'name'>) => `${pod.namespace}/${pod.name}`;

async function visibleKeys(): Promise<string[]> {
  return page.$$eval('[role="row"][data-key]', (rows) =>
    rows.map((row) => (row as HTMLElement).dataset.key ?? ''),
  );
}

/** The table's count: "1,204 of 12,403" -> 1204, "12,403" -> 12403. */
async function shownCount(): Promise<number> {
  const text = (await page.getByTestId('filter-count').textContent()) ?? '';
  return Number(text.split(' of ')[0]!.replaceAll(',', ''));
}

async function setFilter(text: string): Promise<void> {
  await page.keyboard.press('Escape');
  await page.keyboard.press('/');
  await fillFilter(page, text);
}

/** Waits until the table shows exactly `expected` (by key) as its matching rows. */
async function expectRows(expected: readonly PodSummary[]): Promise<void> {
  const wanted = new Set(expected.map(keyOf));
  await expect.poll(shownCount, { timeout: 10_000 }).toBe(wanted.size);
  const keys = await visibleKeys();
  expect(keys.length).toBeGreaterThan(0);
  for (const key of keys) expect(wanted.has(key), `${key} should not be listed`).toBe(true);
}

beforeAll(async () => {
  dataDirectory = mkdtempSync(join(tmpdir(), 'kubetide-e2e-'));
  mode = await startBrowserMode({
    port: 0,
    embedded: true,
    pods: 600,
    churn: false,
    dataDirectory,
    log: () => undefined,
  });
  api = new ClusterApi(mode.backend.embedded!);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'dark' });
  // A locator that never resolves fails its step with the locator named, not the whole test at 60 s.
  page.setDefaultTimeout(15_000);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  await page.goto(mode.launchUrl());
  try {
    await page.getByTestId('filter-input').waitFor({ timeout: 60_000 });
  } catch (error) {
    await page.screenshot({ path: screenshotPath('failed-start') });
    throw new Error(`the UI did not render: ${pageErrors.join('; ') || String(error)}`);
  }
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await mode?.close();
  if (dataDirectory) rmSync(dataDirectory, { recursive: true, force: true });
});

// One retry: a row clicked right after it was read has, rarely and only in the full suite on a loaded
// 2-core machine, not become clickable within the step's timeout (not reproduced alone; see the closing
// note of this round). Every assertion still has to hold in the attempt that passes.
describe('browser mode on the embedded cluster', { timeout: 60_000, retry: 1 }, () => {
  it('fills the pod table and shows synced', async () => {
    const pods = await api.pods();
    await expect.poll(shownCount, { timeout: 30_000 }).toBe(pods.length);
    await expect.poll(() => page.getByTestId('sync-state').textContent(), { timeout: 15_000 }).toBe('synced');
    // Read as from a real API server: the pods' LIST (600 pods, ~1.3 MB) came gzipped.
    expect(await api.compressedResponses()).toBeGreaterThan(0);
    const rendered = (await visibleKeys()).length;
    expect(rendered).toBeGreaterThan(10);
    expect(rendered).toBeLessThan(80);
    await page.screenshot({ path: screenshotPath('pods-dark') });
    // The YAML editor (CodeMirror, 40% of the script) is not part of the start: it loads on demand.
    const scripts = () =>
      page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name));
    expect((await scripts()).filter((name) => name.includes('yaml-view'))).toEqual([]);
  });

  // Before any test selects a row: a selection the sort moves scrolls the view to it.
  it("paints a new answer's rows in view first, then the overscan beyond the view", async () => {
    expect(await page.locator('[role="row"][aria-selected="true"]').count()).toBe(0);
    // Sorted by name ascending, as shown by default; a click sorts descending: other rows in view.
    const name = page.getByRole('columnheader', { name: 'Name', exact: true });
    // The default sort, or a retry's start after an attempt that failed between its two clicks.
    if ((await name.getAttribute('aria-sort')) === 'descending') await name.click();
    await expect.poll(() => name.getAttribute('aria-sort')).toBe('ascending');
    await expect.poll(() => page.locator('[role="row"][aria-hidden="true"]').count()).toBe(0);
    const ascending = await visibleKeys();
    // The first frame that shows the click's answer: how many rows name a key of the answer, how many
    // of those lie outside the view, and how many overscan rows hold the rows before (aria-hidden).
    await page.evaluate((before) => {
      const shown = new Set(before);
      const frames: { keyed: number; outside: number; held: number }[] = [];
      (window as unknown as { heldFrames: typeof frames }).heldFrames = frames;
      let left = 600;
      const look = () => {
        const body = document.querySelector<HTMLElement>('[data-testid="table-body"]')!;
        // VirtualTable's geometry: rows of 28 px below a 29 px sticky header.
        const first = Math.floor(body.scrollTop / 28);
        const last = Math.ceil((body.scrollTop + body.clientHeight - 29) / 28);
        const rows = [...document.querySelectorAll<HTMLElement>('[role="row"][aria-rowindex]')];
        const keyed = rows.filter((row) => row.dataset.key !== undefined);
        if (keyed.some((row) => !shown.has(row.dataset.key!)) || --left === 0) {
          const index = (row: HTMLElement) => Number(row.getAttribute('aria-rowindex')) - 2;
          frames.push({
            keyed: keyed.length,
            outside: keyed.filter((row) => index(row) < first || index(row) >= last).length,
            held: rows.filter((row) => row.getAttribute('aria-hidden') === 'true').length,
          });
        } else requestAnimationFrame(look);
      };
      document.addEventListener('click', () => requestAnimationFrame(look), { once: true });
    }, ascending);
    await name.click();
    const frames = () =>
      page.evaluate(
        () =>
          (window as unknown as { heldFrames: { keyed: number; outside: number; held: number }[] })
            .heldFrames,
      );
    await expect.poll(async () => (await frames()).length, { timeout: 10_000 }).toBe(1);
    const [frame] = await frames();
    expect(frame).toMatchObject({ outside: 0 });
    expect(frame!.keyed).toBeGreaterThan(0);
    expect(frame!.held).toBeGreaterThan(0);
    // After that frame the overscan follows: every row rendered names a key of the answer.
    await expect
      .poll(() => page.locator('[role="row"][aria-hidden="true"]').count(), { timeout: 5_000 })
      .toBe(0);
    const descending = await visibleKeys();
    expect(descending.length).toBe(ascending.length);
    for (const key of descending) expect(ascending, key).not.toContain(key);
    await name.click();
    await expect.poll(() => name.getAttribute('aria-sort')).toBe('ascending');
    await expect.poll(visibleKeys).toEqual(ascending);
  });

  it("shows a cell's whole text as the title of the hovered cell only", async () => {
    await setFilter('');
    await page.keyboard.press('Escape');
    await page.mouse.move(0, 0);
    const [first, second] = await visibleKeys();
    const nameCell = (key: string) => page.locator(`[role="row"][data-key="${key}"] .cell-name`);
    const titles = () =>
      page.$$eval('[role="row"][data-key] [role="gridcell"]:not(.cell-name)', (cells) =>
        cells.map((cell) => cell.getAttribute('title')).filter((title) => title !== null),
      );
    // Before any hover, only ages carry a title of their own: their timestamp.
    for (const title of await titles()) expect(Number.isNaN(Date.parse(title!))).toBe(false);
    expect(await nameCell(first!).getAttribute('title')).toBeNull();
    await nameCell(first!).hover();
    await expect.poll(() => nameCell(first!).getAttribute('title')).toBe(first!.split('/')[1]);
    await nameCell(second!).hover();
    await expect.poll(() => nameCell(second!).getAttribute('title')).toBe(second!.split('/')[1]);
    expect(await nameCell(first!).getAttribute('title')).toBeNull();
    // Rows are kept by position: a new answer under the resting pointer retitles the cell it is
    // over (the same element, now another pod's). The sort flips without moving the pointer.
    const hovered = page.locator('[role="row"][aria-rowindex="3"] .cell-name');
    const flipSort = () =>
      page.evaluate(() =>
        document.querySelector<HTMLElement>('[role="columnheader"][title="Sort by name"]')!.click(),
      );
    await flipSort();
    await expect.poll(() => hovered.textContent(), { timeout: 10_000 }).not.toBe(second!.split('/')[1]);
    await expect.poll(async () => hovered.getAttribute('title')).toBe(await hovered.textContent());
    await flipSort();
    await expect.poll(() => hovered.textContent(), { timeout: 10_000 }).toBe(second!.split('/')[1]);
    await expect.poll(() => hovered.getAttribute('title')).toBe(second!.split('/')[1]);
    await page.mouse.move(0, 0);
    await expect.poll(() => hovered.getAttribute('title')).toBeNull();
  });

  it('filters by label selector as the API server does', async () => {
    const sample = (await api.pods()).find((pod) => pod.labels.app);
    const selector = `app=${sample!.labels.app}`;
    await setFilter(selector);
    await expectRows(await api.pods({ labelSelector: selector }));
    await setFilter(`app!=${sample!.labels.app}`);
    await expectRows(await api.pods({ labelSelector: `app!=${sample!.labels.app}` }));
  });

  it('filters by namespace from the namespace picker', async () => {
    await setFilter('');
    const pods = await api.pods();
    const namespace = pods[pods.length - 1]!.namespace;
    await page.getByTestId('namespace-picker').click();
    await page.getByRole('option').filter({ hasText: namespace }).first().locator('input').check();
    await page.keyboard.press('Escape');
    await expectRows(pods.filter((pod) => pod.namespace === namespace));
    await page.screenshot({ path: screenshotPath('pods-namespace') });
    await page.getByTestId('namespace-picker').click();
    await page.getByRole('button', { name: 'All namespaces' }).click();
    await page.keyboard.press('Escape');
  });

  it('filters by node with node=', async () => {
    const pods = await api.pods();
    const node = pods.find((pod) => pod.node)!.node;
    await setFilter(`node=${node}`);
    await expectRows(pods.filter((pod) => pod.node === node));
    await page.screenshot({ path: screenshotPath('pods-node-filter') });
  });

  it('filters by owner= through ReplicaSets to their Deployment', async () => {
    const pods = await api.pods();
    const replicaSets = await api.replicaSets();
    const deployment = replicaSets.flatMap((set) => set.owners).find((owner) => owner.kind === 'Deployment')!;
    const setsOfDeployment = new Set(
      replicaSets
        .filter((set) => set.owners.some((owner) => owner.name === deployment.name))
        .map((set) => set.uid),
    );
    const expected = pods.filter((pod) =>
      pod.owners.some((owner) => setsOfDeployment.has(owner.uid) || owner.name === deployment.name),
    );
    expect(expected.length).toBeGreaterThan(0);
    await setFilter(`owner=${deployment.name}`);
    await expectRows(expected);
    // Completion offers the Deployment's name too, with the number of pods it matches.
    const suggestions = page.getByRole('listbox', { name: 'Suggestions' });
    await expect
      .poll(() => suggestions.textContent())
      .toMatch(new RegExp(`owner=${deployment.name}\\s*${expected.length}(?!\\d)`));
    await page.screenshot({ path: screenshotPath('pods-owner-deployment') });
  });

  it('shows a change made through the API live', async () => {
    const pod = (await api.pods())[3]!;
    await setFilter('e2e=live');
    await expect.poll(shownCount, { timeout: 10_000 }).toBe(0);
    await api.labelPod(pod.namespace, pod.name, { e2e: 'live' });
    await expect.poll(visibleKeys, { timeout: 10_000 }).toEqual([keyOf(pod)]);
  });

  it('removes a deleted pod', async () => {
    const pod = replicaSetPods(await api.pods())[5]!;
    await setFilter(pod.name);
    await expect.poll(visibleKeys, { timeout: 10_000 }).toContain(keyOf(pod));
    await api.deletePod(pod.namespace, pod.name);
    await expect.poll(visibleKeys, { timeout: 10_000 }).not.toContain(keyOf(pod));
  });

  it('opens the YAML of the selected pod', async () => {
    await setFilter('');
    await page.keyboard.press('Escape');
    const first = (await visibleKeys())[0]!;
    await page.locator(`[role="row"][data-key="${first}"]`).click();
    await page.keyboard.press('y');
    // Loaded once a row was selected.
    const chunks = () =>
      page.evaluate(
        () =>
          performance.getEntriesByType('resource').filter((entry) => entry.name.includes('yaml-view')).length,
      );
    await expect.poll(chunks, { timeout: 10_000 }).toBeGreaterThan(0);
    const yaml = page.getByTestId('yaml-view');
    await expect
      .poll(() => yaml.locator('.cm-content').textContent(), { timeout: 10_000 })
      .toContain('kind: Pod');
    expect(await yaml.locator('.cm-content').textContent()).toContain(`name: ${first.split('/')[1]}`);
    expect(await yaml.locator('.cm-content').textContent()).not.toContain('managedFields');
    await page.screenshot({ path: screenshotPath('pod-yaml') });
    await page.getByRole('tab', { name: /Owners/ }).click();
    await expect
      .poll(() => page.getByTestId('owners').textContent(), { timeout: 10_000 })
      .toContain('ReplicaSet');
    await page.screenshot({ path: screenshotPath('pod-owners') });
    await page.keyboard.press('Escape');
  });

  it('moves the selection with j/k and opens the detail with Enter', async () => {
    await setFilter('');
    await page.keyboard.press('Escape');
    await page.keyboard.press('g');
    for (let step = 0; step < 3; step++) await page.keyboard.press('j');
    await page.keyboard.press('k');
    const keys = await visibleKeys();
    const selected = page.locator('[role="row"][aria-selected="true"]');
    await expect.poll(() => selected.getAttribute('data-key')).toBe(keys[2]);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('detail-name').textContent()).toBe(keys[2]!.split('/')[1]);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('detail').count()).toBe(0);
  });

  it('completes label keys and values from the mirrored rows', async () => {
    await setFilter('ap');
    const suggestions = page.getByRole('listbox', { name: 'Suggestions' });
    await expect.poll(() => suggestions.textContent()).toContain('app=');
    await page.keyboard.press('Tab');
    await expect.poll(() => page.getByTestId('filter-input').inputValue()).toBe('app=');
    await expect.poll(() => suggestions.textContent()).toMatch(/app=\S+/);
    await page.screenshot({ path: screenshotPath('filter-completion') });
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('filter-input').inputValue()).toMatch(/^app=\S+$/);
  });

  it('shows a reconnect after an injected watch drop, then recovers', async () => {
    const cluster = mode.backend.embedded!;
    // Only the pods' re-watches fail: every watch of the context shares one HTTP/2 connection and
    // re-watches at once, in no fixed order, so an unscoped fault may land on other kinds.
    cluster.faults.failNext({ count: 2, code: 500, verb: 'watch', path: '/pods' });
    cluster.faults.dropWatches();
    await expect
      .poll(() => page.getByTestId('sync-state').textContent(), { timeout: 15_000 })
      .toMatch(/reconnecting|stale/);
    await page.screenshot({ path: screenshotPath('sync-reconnecting') });
    await expect.poll(() => page.getByTestId('sync-state').textContent(), { timeout: 30_000 }).toBe('synced');
  });

  it('underlines an invalid selector with the parser reason', async () => {
    await setFilter('ns=default app in (web');
    const error = page.getByTestId('filter-error');
    await expect.poll(() => error.textContent(), { timeout: 5_000 }).toMatch(/expected|found/);
    expect(await page.getByTestId('filter-input').getAttribute('aria-invalid')).toBe('true');
    await page.screenshot({ path: screenshotPath('filter-invalid') });
  });

  it('jumps to deployments from the command palette', async () => {
    await setFilter('');
    await page.keyboard.press('Escape');
    await page.keyboard.press(':');
    await page.getByTestId('palette-input').fill(':deploy');
    await page.screenshot({ path: screenshotPath('palette') });
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('kind-title').textContent()).toBe('Deployments');
    await expect.poll(async () => (await visibleKeys()).length, { timeout: 15_000 }).toBeGreaterThan(0);
    await page.screenshot({ path: screenshotPath('deployments') });
    await page.keyboard.press('g');
    await page.keyboard.press('Enter');
    await page.getByRole('tab', { name: /Children/ }).click();
    await expect
      .poll(() => page.getByTestId('children').textContent(), { timeout: 15_000 })
      .toMatch(/replica ?set/i);
    await page.screenshot({ path: screenshotPath('deployment-children') });
    await page.keyboard.press('Escape');
  });

  it("shows a custom resource with its CRD's printer columns", async () => {
    await page.keyboard.press(':');
    await page.getByTestId('palette-input').fill(':certificates');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('kind-title').textContent()).toBe('Certificates');
    await expect.poll(async () => (await visibleKeys()).length, { timeout: 15_000 }).toBeGreaterThan(0);
    // The header's text, less the sort arrow beside the sorted column's title.
    const headers = await page.$$eval('[role="columnheader"]', (cells) =>
      cells.map((cell) => (cell.textContent ?? '').replace(/[▲▼]/g, '').trim().toUpperCase()),
    );
    expect(headers).toEqual(['NAMESPACE', 'NAME', 'READY', 'SECRET', 'AGE']);
    await page.screenshot({ path: screenshotPath('certificates') });
  });

  it("shows the policy kinds with kubectl's columns: HPA targets, budgets", async () => {
    const open = async (command: string, title: string) => {
      await page.keyboard.press(':');
      await page.getByTestId('palette-input').fill(command);
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByTestId('kind-title').textContent()).toBe(title);
      await expect.poll(async () => (await visibleKeys()).length, { timeout: 15_000 }).toBeGreaterThan(0);
    };
    const headers = () =>
      page.$$eval('[role="columnheader"]', (cells) =>
        cells.map((cell) => (cell.textContent ?? '').replace(/[▲▼]/g, '').trim().toUpperCase()),
      );
    const firstRow = () =>
      page.$eval('[role="row"][data-key]', (row) =>
        [...row.querySelectorAll('[role="gridcell"]')].map((cell) => (cell.textContent ?? '').trim()),
      );
    await open(':hpa', 'Horizontal Pod Autoscalers');
    expect(await headers()).toEqual([
      'NAMESPACE',
      'NAME',
      'REFERENCE',
      'TARGETS',
      'MINPODS',
      'MAXPODS',
      'REPLICAS',
      'AGE',
    ]);
    const autoscaler = await firstRow();
    expect(autoscaler[2]).toMatch(/^Deployment\//);
    expect(autoscaler[3]).toMatch(/^cpu: \d+%\/80%$/);
    await page.screenshot({ path: screenshotPath('horizontal-pod-autoscalers') });
    await open(':pdb', 'Pod Disruption Budgets');
    expect(await headers()).toEqual([
      'NAMESPACE',
      'NAME',
      'MIN AVAILABLE',
      'MAX UNAVAILABLE',
      'ALLOWED DISRUPTIONS',
      'AGE',
    ]);
    await open(':quota', 'Resource Quotas');
    expect((await firstRow())[3]).toMatch(/^pods: \d+\/500, requests\.cpu: /);
  });

  it('lists the contexts with the embedded cluster among them', async () => {
    await page.getByTestId('context-picker').click();
    const menu = page.getByRole('dialog', { name: 'Cluster context' });
    await expect.poll(() => menu.textContent()).toContain('Embedded cluster');
    await page.screenshot({ path: screenshotPath('context-picker') });
    await page.keyboard.press('Escape');
  });

  it("reveals a Secret's value only through its Reveal control, one key at a time", async () => {
    await page.keyboard.press(':');
    await page.getByTestId('palette-input').fill(':secrets');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('kind-title').textContent()).toBe('Secrets');
    await expect.poll(async () => (await visibleKeys()).length, { timeout: 15_000 }).toBeGreaterThan(0);
    const first = (await visibleKeys())[0]!;
    await page.locator(`[role="row"][data-key="${first}"]`).click();
    await page.keyboard.press('y');
    const yaml = page.getByTestId('yaml-view').locator('.cm-content');
    await expect.poll(() => yaml.textContent(), { timeout: 10_000 }).toContain('kind: Secret');
    expect(await yaml.textContent()).toContain('password: "<masked');
    const values = page.getByTestId('secret-values');
    expect(await values.textContent()).toContain('masked');
    await page.getByTestId('secret-reveal-password').click();
    const revealed = page.getByTestId('secret-value-password');
    await expect.poll(() => revealed.textContent(), { timeout: 10_000 }).toMatch(/^[a-z0-9]{16}$/);
    expect(await yaml.textContent()).toContain('password: "<masked');
    await page.screenshot({ path: screenshotPath('secret-revealed') });
    await values.getByRole('button', { name: 'Hide' }).click();
    expect(await revealed.count()).toBe(0);
    await page.keyboard.press('Escape');
  });

  it('follows the light theme of the system', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.keyboard.press(':');
    await page.getByTestId('palette-input').fill(':pods');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await visibleKeys()).length, { timeout: 15_000 }).toBeGreaterThan(0);
    await page.keyboard.press('?');
    await page.screenshot({ path: screenshotPath('help-light') });
    await page.keyboard.press('Escape');
    await page.screenshot({ path: screenshotPath('pods-light') });
    expect(pageErrors).toEqual([]);
  });
});
