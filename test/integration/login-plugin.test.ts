// A login plugin that waits for the user (kubelogin's device code, oidc-login's browser login): the
// window says what the plugin printed while it waits, where kubectl would have shown it in the
// terminal, and lists the cluster once the login is done.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { startBackend } from '../../main/app/backend';
import type { Backend } from '../../main/app/backend';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { administratorToken } from '../../main/sim/sim-users';
import { connectRenderer } from '../support/backend-renderer';
import { waitingLoginUser } from '../support/login-plugin';

let cluster: EmbeddedCluster;
let backend: Backend;
let directory: string;
let loggedIn: string;
const deviceCode =
  'To sign in, use a web browser to open https://login.example.test/device and enter the code ABCD-1234';

beforeAll(async () => {
  cluster = await startEmbeddedCluster({ tls: true, pods: 12, seed: 8 });
  directory = mkdtempSync(join(tmpdir(), 'login-plugin-'));
  loggedIn = join(directory, 'logged-in');
  const document = parse(cluster.kubeconfigYaml()) as { users: { user: Record<string, unknown> }[] };
  // Coloured, as plugins print to a terminal: the window shows the words alone.
  const message = `\x1b[33m${deviceCode}\x1b[0m\n`;
  document.users[0]!.user = waitingLoginUser(directory, { message, token: administratorToken, loggedIn });
  const file = join(directory, 'config');
  writeFileSync(file, stringify(document));
  backend = await startBackend({
    kubeconfig: file,
    dataDirectory: join(directory, 'data'),
    log: () => undefined,
  });
}, 60_000);

afterAll(async () => {
  await backend?.close();
  await cluster?.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('a login plugin waiting for the user', () => {
  it('is shown with what it printed while it waits, and the cluster listed once it is done', async () => {
    expect(existsSync(loggedIn)).toBe(false);
    const renderer = connectRenderer(backend, 'login');
    try {
      const { client } = renderer;
      const id = await client.subscribe({ group: '', version: 'v1', resource: 'pods' });
      const login = () => renderer.current()?.login;
      await expect.poll(() => login()?.message, { timeout: 15_000 }).toBe(deviceCode);
      expect(login()?.command).toBe(process.execPath.split(/[\\/]/).at(-1));
      expect(client.store.mirror(id)?.rows.size ?? 0).toBe(0);

      writeFileSync(loggedIn, '');
      await expect.poll(login, { timeout: 15_000 }).toBeUndefined();
      await expect.poll(() => client.store.mirror(id)?.rows.size ?? 0, { timeout: 15_000 }).toBe(12);
    } finally {
      renderer.close();
    }
  });
});
