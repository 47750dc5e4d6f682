// A login plugin waiting for the user, in Chromium: the window shows what the plugin printed (the
// device code and where to enter it) while the table waits, and the pods once the login is done.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { parse, stringify } from 'yaml';
import { startEmbeddedCluster, type EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { administratorToken } from '../../main/sim/sim-users';
import { waitingLoginUser } from '../support/login-plugin';
import { screenshotPath } from './chromium';
import { openKubeconfigWindow, type KubeconfigWindow } from './kubeconfig-window';

let cluster: EmbeddedCluster;
let app: KubeconfigWindow | undefined;
let page: Page;
let directory: string;
let loggedIn: string;

beforeAll(async () => {
  cluster = await startEmbeddedCluster({ tls: true, pods: 30, seed: 12 });
  directory = mkdtempSync(join(tmpdir(), 'kubetide-login-e2e-'));
  loggedIn = join(directory, 'logged-in');
  const document = parse(cluster.kubeconfigYaml()) as {
    users: { user: Record<string, unknown> }[];
    contexts: { name: string }[];
    'current-context': string;
  };
  document.users[0]!.user = waitingLoginUser(directory, {
    message:
      'To sign in, use a web browser to open https://microsoft.com/devicelogin and enter the code F8NJ2LBX8 to authenticate.\n',
    token: administratorToken,
    loggedIn,
  });
  document.contexts[0]!.name = 'aks-prod';
  document['current-context'] = 'aks-prod';
  const file = join(directory, 'config');
  writeFileSync(file, stringify(document));
  app = await openKubeconfigWindow(file, directory);
  page = app.page;
}, 180_000);

afterAll(async () => {
  await app?.close();
  await cluster?.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

describe('a login plugin waiting for the user', () => {
  it('shows its device code while the table waits, then the pods once logged in', async () => {
    const banner = page.getByTestId('login-banner');
    await expect
      .poll(() => banner.textContent().catch(() => ''), { timeout: 20_000 })
      .toMatch(/^Logging in to aks-prod: node is waiting, since \d\d:\d\d:\d\d.*enter the code F8NJ2LBX8/);
    await page.screenshot({ path: screenshotPath('login-plugin-waiting') });

    writeFileSync(loggedIn, '');
    await banner.waitFor({ state: 'detached', timeout: 20_000 });
    await page.getByTestId('sync-state').filter({ hasText: 'synced' }).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('filter-count').textContent()).toBe('30');
  });
});
