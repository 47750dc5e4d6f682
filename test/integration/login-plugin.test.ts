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
import { createInMemoryTransportPair } from '../../main/bridge/in-memory-transport';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { administratorToken } from '../../main/sim/sim-users';
import { ManualFrameScheduler } from '../../renderer/store/frame-scheduler';
import { BridgeClient } from '../../renderer/transport/bridge-client';
import type { BridgeLink } from '../../renderer/transport/bridge-link';

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
  const plugin = join(directory, 'login.mjs');
  // Prints the device code, then waits until the user has logged in (the file appears).
  writeFileSync(
    plugin,
    `import { existsSync } from 'node:fs';
process.stderr.write(${JSON.stringify(`\x1b[33m${deviceCode}\x1b[0m\n`)});
const done = () => process.stdout.write(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: ${JSON.stringify(administratorToken)} } }));
const wait = () => (existsSync(${JSON.stringify(loggedIn)}) ? done() : setTimeout(wait, 50));
wait();
`,
  );
  const document = parse(cluster.kubeconfigYaml()) as { users: { user: Record<string, unknown> }[] };
  document.users[0]!.user = {
    exec: {
      apiVersion: 'client.authentication.k8s.io/v1',
      command: process.execPath,
      args: [plugin],
      interactiveMode: 'Never',
    },
  };
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
    const scheduler = new ManualFrameScheduler();
    const client = new BridgeClient({
      scheduler,
      open: async () => {
        const pair = createInMemoryTransportPair('login');
        backend.connect(pair.server);
        return pair.client as unknown as BridgeLink;
      },
    });
    const frames = setInterval(() => scheduler.runFrame(), 10);
    try {
      client.start();
      const id = await client.subscribe({ group: '', version: 'v1', resource: 'pods' });
      const login = () => {
        const contexts = client.state.getState().contexts;
        return contexts?.contexts.find((context) => context.name === contexts.current)?.login;
      };
      await expect.poll(() => login()?.message, { timeout: 15_000 }).toBe(deviceCode);
      expect(login()?.command).toBe(process.execPath.split(/[\\/]/).at(-1));
      expect(client.store.mirror(id)?.rows.size ?? 0).toBe(0);

      writeFileSync(loggedIn, '');
      await expect.poll(login, { timeout: 15_000 }).toBeUndefined();
      await expect.poll(() => client.store.mirror(id)?.rows.size ?? 0, { timeout: 15_000 }).toBe(12);
    } finally {
      clearInterval(frames);
      client.close();
    }
  });
});
