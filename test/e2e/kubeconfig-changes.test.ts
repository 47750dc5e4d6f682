// A user's day with a local cluster, in Chromium: Kubetide opened on a kubeconfig whose cluster is
// stopped says it cannot list, with the reason, instead of an empty cluster (a table reading "No pods
// in the selected namespaces" and a sidebar counting 0 of each kind); the cluster is recreated
// (as `kind create cluster` does: a new port, a new CA, the same context name written into the file),
// and the open window follows it, telling the user, with the new cluster's pods; the context deleted
// from the file, the window stays on it and the picker marks it removed.
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { parse, stringify } from 'yaml';
import { startEmbeddedCluster, type EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { screenshotPath } from './chromium';
import { openKubeconfigWindow, type KubeconfigWindow } from './kubeconfig-window';

let cluster: EmbeddedCluster;
let app: KubeconfigWindow | undefined;
let page: Page;
let directory: string;
let file: string;

/** A port nothing listens on: taken, then given back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The cluster's kubeconfig with its context named `kind-dev`, its server at `server` if given. */
function kubeconfigText(server?: string): string {
  const document = parse(cluster.kubeconfigYaml()) as {
    clusters: { cluster: { server: string } }[];
    contexts: { name: string }[];
    'current-context': string;
  };
  if (server) document.clusters[0]!.cluster.server = server;
  document.contexts[0]!.name = 'kind-dev';
  document['current-context'] = 'kind-dev';
  return stringify(document);
}

function writeKubeconfig(text: string): void {
  writeFileSync(`${file}.new`, text);
  renameSync(`${file}.new`, file);
}

beforeAll(async () => {
  cluster = await startEmbeddedCluster({ tls: true, pods: 40, seed: 11 });
  directory = mkdtempSync(join(tmpdir(), 'kubetide-kubeconfig-e2e-'));
  file = join(directory, 'config');
  writeKubeconfig(kubeconfigText(`https://127.0.0.1:${await closedPort()}`));
  app = await openKubeconfigWindow(file, directory);
  page = app.page;
}, 180_000);

afterAll(async () => {
  await app?.close();
  await cluster?.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

describe('a kubeconfig whose cluster is stopped, then recreated', () => {
  it('says the pods cannot be listed and why, then follows the recreated cluster', async () => {
    const empty = page.locator('.table-empty');
    await expect
      .poll(() => empty.textContent(), { timeout: 30_000 })
      .toMatch(/^No pods listed: .*cannot reach/);
    expect(await empty.textContent()).not.toContain('in the selected namespaces');
    // The badge's one line names the reason, not the list and request it failed (its title has them).
    const badge = page.getByTestId('sync-state');
    expect(await badge.textContent()).toMatch(
      /^(reconnecting|stale).*: cannot reach https:\/\/127\.0\.0\.1:\d+ \(/,
    );
    expect(await badge.getAttribute('title')).toContain(
      'failed to list /v1, Resource=pods: GET /api/v1/pods',
    );
    // Nor does the sidebar count what it could not list.
    const podsEntry = page.locator('[data-testid="sidebar"] [data-kind="pods"]');
    const namespacesEntry = page.locator('[data-testid="sidebar"] [data-kind="namespaces"]');
    expect(await podsEntry.locator('.kind-count').count()).toBe(0);
    expect(await page.getByTestId('row-count').textContent()).toBe('…');
    expect(await page.getByTestId('filter-count').textContent()).toBe('…');
    expect(await namespacesEntry.locator('.kind-count').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('kubeconfig-cluster-stopped') });

    writeKubeconfig(kubeconfigText());
    await expect
      .poll(
        () =>
          page
            .locator('.toast')
            .textContent()
            .catch(() => ''),
        { timeout: 20_000 },
      )
      .toBe('Context kind-dev reopened: its kubeconfig entry changed');
    await page.getByTestId('sync-state').filter({ hasText: 'synced' }).waitFor({ timeout: 30_000 });
    const rows = page.locator('[role="row"][data-key]');
    await rows.first().waitFor();
    expect(await page.getByTestId('filter-count').textContent()).toBe('40');
    expect(await podsEntry.locator('.kind-count').textContent()).toBe('40');
    // The recording, handed over from the session that never listed, records the new cluster: that
    // session's hold on whole-cache records was released at its close, not left to keep every stream
    // in its listing gap ("nothing recorded yet" for good).
    await expect
      .poll(() => page.getByTestId('history-coverage').textContent(), { timeout: 20_000 })
      .toMatch(/^history from \d\d:\d\d/);
    await page.screenshot({ path: screenshotPath('kubeconfig-cluster-recreated') });

    // The context deleted from the file (`kind delete cluster` does): the window stays on it as it
    // was read, and the picker says it is no longer in the kubeconfig.
    const withoutContext = parse(kubeconfigText()) as { contexts: unknown[]; 'current-context': string };
    withoutContext.contexts = [];
    withoutContext['current-context'] = '';
    writeKubeconfig(stringify(withoutContext));
    const picker = page.getByTestId('context-picker');
    await expect
      .poll(() => picker.textContent(), { timeout: 20_000 })
      .toContain('kind-dev (removed from the kubeconfig)');
    expect(await page.getByTestId('filter-count').textContent()).toBe('40');
    await picker.click();
    await page.screenshot({ path: screenshotPath('kubeconfig-context-removed') });
    await page.keyboard.press('Escape');
  });
});
