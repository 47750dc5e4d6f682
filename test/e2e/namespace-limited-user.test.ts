// A namespace-limited user in browser mode, as most companies hand them out: "view" in two namespaces
// (the kubeconfig context's, "default", and one typed into the namespace picker), nothing at the
// cluster scope, no Secrets. The UI must show every pod, deployment and event of those namespaces,
// mark the kinds it cannot read "no access", filter with ns=default, and history must record them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startBrowserMode, type BrowserMode } from '../../main/app/serve';
import { openRecording } from '../../main/history/recording-reader';
import { stateAt } from '../../main/history/replay';
import { startEmbeddedCluster, type EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { namespaceViewer } from '../../main/sim/sim-users';
import { fillFilter, launchChromium, screenshotPath } from './chromium';

const readable = ['default', 'payments-00'];
const typedNamespace = 'payments-00';

let cluster: EmbeddedCluster;
let mode: BrowserMode;
let browser: Browser;
let page: Page;
let directory: string;
const pageErrors: string[] = [];

/** The administrator's view: the keys of a kind's objects in the readable namespaces. */
async function keysInReadable(path: (namespace: string) => string): Promise<string[]> {
  const keys: string[] = [];
  for (const namespace of readable) {
    const response = await fetch(`${cluster.url}${path(namespace)}`);
    const list = (await response.json()) as { items: { metadata: { name: string } }[] };
    keys.push(...list.items.map((item) => `${namespace}/${item.metadata.name}`));
  }
  return keys.sort();
}

const kinds = {
  pods: (namespace: string) => `/api/v1/namespaces/${namespace}/pods`,
  deployments: (namespace: string) => `/apis/apps/v1/namespaces/${namespace}/deployments`,
  events: (namespace: string) => `/api/v1/namespaces/${namespace}/events`,
};

/** The row count the content header shows: "42", or "3 of 42" when filtered. */
async function shownCount(): Promise<{ matched: number; total: number }> {
  const text = (await page.getByTestId('row-count').textContent()) ?? '';
  const [matched, total = matched] = text.split(' of ').map((part) => Number(part.replace(/,/g, '')));
  return { matched: matched!, total: total! };
}

async function visibleKeys(): Promise<string[]> {
  return page.$$eval('[role="row"][data-key]', (rows) =>
    rows.map((row) => (row as HTMLElement).dataset.key ?? ''),
  );
}

async function deployWeb(): Promise<void> {
  const labels = { app: 'web' };
  const response = await fetch(`${cluster.url}/apis/apps/v1/namespaces/default/deployments`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default', labels },
      spec: {
        replicas: 3,
        selector: { matchLabels: labels },
        template: { metadata: { labels }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } },
      },
    }),
  });
  if (!response.ok) throw new Error(`creating deployment web: ${response.status} ${await response.text()}`);
}

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'kubetide-limited-e2e-'));
  cluster = await startEmbeddedCluster({
    seed: 5,
    pods: 200,
    users: [namespaceViewer({ name: 'jane', namespaces: readable })],
  });
  await deployWeb();
  // The deployment controller makes its ReplicaSet and pods within a few of its turns.
  const deadline = Date.now() + 20_000;
  while ((await keysInReadable(kinds.pods)).filter((key) => key.startsWith('default/')).length < 3) {
    if (Date.now() > deadline) throw new Error('the deployment web made no pods in 20 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const kubeconfig = join(directory, 'jane.kubeconfig');
  writeFileSync(kubeconfig, cluster.kubeconfigYaml('jane'), { mode: 0o600 });
  mode = await startBrowserMode({
    port: 0,
    kubeconfig,
    embedded: false,
    pods: 0,
    dataDirectory: directory,
    log: () => undefined,
  });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'dark' });
  page.setDefaultTimeout(15_000);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(mode.launchUrl());
  await page.getByTestId('filter-input').waitFor({ timeout: 60_000 });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await mode?.close();
  await cluster?.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

describe('a user limited to two namespaces', { timeout: 60_000 }, () => {
  it('sees the context namespace at once, and a namespace typed into the picker', async () => {
    await page.locator('[data-kind="pods"]').click();
    await expect
      .poll(visibleKeys)
      .toContain((await keysInReadable(kinds.pods)).find((key) => key.startsWith('default/')));
    await page.getByTestId('namespace-picker').click();
    await page.getByLabel('Search namespaces').fill(typedNamespace);
    await page.screenshot({ path: screenshotPath('namespace-limited-user-add') });
    await page.getByTestId('namespace-add').click();
    await page.getByRole('button', { name: 'All namespaces' }).click();
    await page.keyboard.press('Escape');
    await expect
      .poll(visibleKeys)
      .toContain((await keysInReadable(kinds.pods)).find((key) => key.startsWith(`${typedNamespace}/`)));
  });

  it('shows every pod, deployment and event of both namespaces', async () => {
    for (const [resource, path] of Object.entries(kinds)) {
      await page.locator(`[data-kind="${resource}"]`).click();
      await expect
        .poll(
          async () => {
            const expected = await keysInReadable(path);
            const { total } = await shownCount();
            return total === expected.length ? 'equal' : `${total} shown, ${expected.length} expected`;
          },
          { timeout: 20_000 },
        )
        .toBe('equal');
      for (const key of await visibleKeys()) expect(readable).toContain(key.split('/')[0]);
      await expect
        .poll(() => page.getByTestId('access-scope').textContent())
        .toBe('only 2 namespaces (your access)');
    }
  });

  it('marks the kinds it may not read "no access", never 0', async () => {
    for (const resource of ['secrets', 'nodes', 'namespaces', 'certificates'])
      await expect
        .poll(() => page.locator(`[data-kind="${resource}"] .kind-count`).textContent(), { timeout: 20_000 })
        .toBe('no access');
    await expect.poll(() => page.locator('[data-kind="pods"] .kind-count').textContent()).toMatch(/^\d/);
    await page.locator('[data-kind="secrets"]').click();
    await expect.poll(() => page.locator('.content').textContent()).toContain('No access to secrets');
  });

  it('filters with ns=default', async () => {
    await page.locator('[data-kind="pods"]').click();
    const inDefault = (await keysInReadable(kinds.pods)).filter((key) => key.startsWith('default/'));
    await page.keyboard.press('/');
    await fillFilter(page, 'ns=default');
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await shownCount()).matched).toBe(inDefault.length);
    await expect.poll(visibleKeys).toEqual(expect.arrayContaining(inDefault));
    await page.screenshot({ path: screenshotPath('namespace-limited-user') });
    expect(pageErrors).toEqual([]);
  });

  it('records the pods of both namespaces in history', async () => {
    const recording = mode.backend.host.session.recording!;
    const expected = await keysInReadable(kinds.pods);
    await expect
      .poll(
        async () => {
          await recording.recorder?.flushed();
          const reader = openRecording(recording.file);
          try {
            const state = stateAt(reader, { gvr: 'pods.v1', time: Date.now() });
            return state.objects.map((pod) => `${pod.metadata.namespace}/${pod.metadata.name}`).sort();
          } finally {
            reader.close();
          }
        },
        { timeout: 15_000 },
      )
      .toEqual(expected);
  });

  it('stops reading a namespace the user forgets', async () => {
    await page.keyboard.press('/');
    await fillFilter(page, '');
    await page.keyboard.press('Escape');
    await page.getByTestId('namespace-picker').click();
    await page.getByLabel('Search namespaces').fill('');
    await page.screenshot({ path: screenshotPath('namespace-limited-user-picker') });
    await page.getByRole('button', { name: `Forget namespace ${typedNamespace}` }).click();
    await page.keyboard.press('Escape');
    const inDefault = (await keysInReadable(kinds.pods)).filter((key) => key.startsWith('default/'));
    await expect.poll(async () => (await shownCount()).total).toBe(inDefault.length);
    await expect
      .poll(() => page.getByTestId('access-scope').textContent())
      .toBe('only default (your access)');
  });
});
