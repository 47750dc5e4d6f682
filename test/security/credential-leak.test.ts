// Credentials stay in main. A whole session runs against the embedded cluster through a kubeconfig whose
// user carries a token, a password, a client certificate and key, and an exec plugin, and whose
// cluster is reached through a proxy that wants the credentials in its proxy-url; every message
// that crosses the bridge (both ways) and every line main logs is recorded, and none may hold any of
// those credentials or the kubeconfig's text. Secret values reach the renderer masked unless revealed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startBackend } from '../../main/app/backend';
import type { Backend } from '../../main/app/backend';
import { createInMemoryTransportPair } from '../../main/bridge/in-memory-transport';
import { maskedValue } from '../../main/bridge/object-sanitizer';
import type { Transport } from '../../main/bridge/transport';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { BridgeClient } from '../../renderer/transport/bridge-client';
import type { BridgeLink } from '../../renderer/transport/bridge-link';
import { ManualFrameScheduler } from '../../renderer/store/frame-scheduler';
import { startHttpProxy } from '../support/test-proxies';
import type { TestProxy } from '../support/test-proxies';

const credentials = {
  token: 'token-9f8e7d6c5b4a-never-leaves-main',
  password: 'password-correct-horse-battery-staple',
  username: 'user-kubetide-leakcheck',
  clientKey:
    '-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIKEYMATERIALneverleavesmain\n-----END EC PRIVATE KEY-----\n',
  clientCertificate: '-----BEGIN CERTIFICATE-----\nMIIBcertificateMATERIAL\n-----END CERTIFICATE-----\n',
  execToken: 'exec-token-0a1b2c3d-never-leaves-main',
  execArgument: 'exec-argument-secret-flag',
  proxyUser: 'proxy-user-leakcheck',
  proxyPassword: 'proxy-password-never-leaves-main',
};
const secretValue = 'c3VwZXItc2VjcmV0LWRhdGFiYXNlLXBhc3N3b3Jk';
const base64 = (text: string) => Buffer.from(text).toString('base64');

let cluster: EmbeddedCluster;
let backend: Backend;
let directory: string;
let kubeconfigText: string;
let proxy: TestProxy;
const crossing: string[] = [];
const logged: string[] = [];

/** A transport that records, as JSON, every message in either direction. */
function recorded(transport: Transport): Transport {
  return {
    description: transport.description,
    send: (message) => {
      crossing.push(JSON.stringify(message));
      transport.send(message);
    },
    onMessage: (listener) =>
      transport.onMessage((message) => {
        crossing.push(JSON.stringify(message));
        listener(message);
      }),
    onClose: (listener) => transport.onClose(listener),
    close: (reason) => transport.close(reason),
  };
}

beforeAll(async () => {
  // The exec plugin's token is the one sent (it wins over the static token); the sim knows it as an
  // administrator, so the session reads everything a leak could hide in.
  const user = {
    name: credentials.username,
    token: credentials.execToken,
    groups: ['system:masters'],
    rules: [],
  };
  cluster = await startEmbeddedCluster({ seed: 7, pods: 40, simulate: false, users: [user] });
  cluster.storage.create(cluster.resource('secrets'), 'default', {
    metadata: {
      name: 'database',
      namespace: 'default',
      annotations: {
        'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({
          data: { password: secretValue },
        }),
      },
    },
    type: 'Opaque',
    data: { password: secretValue },
  });
  directory = mkdtempSync(join(tmpdir(), 'kubetide-leak-'));
  const plugin = join(directory, 'credential-plugin.mjs');
  writeFileSync(
    plugin,
    `process.stdout.write(JSON.stringify({apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: {token: '${credentials.execToken}'}}));\n`,
  );
  proxy = await startHttpProxy({
    credentials: { username: credentials.proxyUser, password: credentials.proxyPassword },
  });
  const proxyUrl = proxy.url.replace('//', `//${credentials.proxyUser}:${credentials.proxyPassword}@`);
  kubeconfigText = [
    'apiVersion: v1',
    'kind: Config',
    `clusters: [{name: leakcheck, cluster: {server: "${cluster.url}", proxy-url: "${proxyUrl}"}}]`,
    'users:',
    '- name: leakcheck-user',
    '  user:',
    `    token: ${credentials.token}`,
    `    username: ${credentials.username}`,
    `    password: ${credentials.password}`,
    `    client-certificate-data: ${base64(credentials.clientCertificate)}`,
    `    client-key-data: ${base64(credentials.clientKey)}`,
    '    exec:',
    '      apiVersion: client.authentication.k8s.io/v1',
    `      command: ${JSON.stringify(process.execPath)}`,
    `      args: [${JSON.stringify(plugin)}, ${credentials.execArgument}]`,
    '      interactiveMode: Never',
    'contexts: [{name: leakcheck, context: {cluster: leakcheck, user: leakcheck-user, namespace: default}}]',
    'current-context: leakcheck',
  ].join('\n');
  const file = join(directory, 'kubeconfig');
  writeFileSync(file, kubeconfigText);
  backend = await startBackend({
    kubeconfig: file,
    dataDirectory: directory,
    log: (line) => logged.push(line),
  });
}, 60_000);

afterAll(async () => {
  await backend?.close();
  await proxy?.close();
  await cluster?.close();
  rmSync(directory, { recursive: true, force: true });
});

async function runSession(): Promise<BridgeClient> {
  const scheduler = new ManualFrameScheduler();
  const client = new BridgeClient({
    scheduler,
    open: async () => {
      const pair = createInMemoryTransportPair('leakcheck');
      backend.connect(recorded(pair.server));
      return pair.client as unknown as BridgeLink;
    },
  });
  const frames = setInterval(() => scheduler.runFrame(), 10);
  client.start();
  await expect.poll(() => client.state.getState().connection.phase).toBe('open');
  const kinds = ['pods', 'secrets', 'configmaps', 'nodes', 'namespaces', 'events'].map((resource) => ({
    group: '',
    version: 'v1',
    resource,
  }));
  const subscriptions = await Promise.all(kinds.map((gvr) => client.subscribe(gvr)));
  await expect
    .poll(() => subscriptions.every((id) => client.state.getState().syncStates[id]?.phase === 'synced'))
    .toBe(true);
  await client.listContexts();
  await client.getObject(kinds[1], 'default', 'database');
  const pod = [...client.store.mirror(subscriptions[0])!.rows.values()][0];
  await client.getObject(kinds[0], pod.namespace, pod.name);
  await client.listEvents({ kind: 'Pod', namespace: pod.namespace, name: pod.name });
  await client.getObject(kinds[0], 'default', 'no-such-pod').catch(() => undefined);
  await client.switchContext('no-such-context').catch(() => undefined);
  await client
    .subscribe({ group: 'example.com', version: 'v1', resource: 'unknowns' })
    .catch(() => undefined);
  clearInterval(frames);
  return client;
}

describe('credentials never cross the bridge', () => {
  it('no message in either direction and no log line holds a credential or the kubeconfig', async () => {
    const capture = (...values: unknown[]) => void logged.push(values.map(String).join(' '));
    const warn = vi.spyOn(console, 'warn').mockImplementation(capture);
    const error = vi.spyOn(console, 'error').mockImplementation(capture);
    const client = await runSession();
    client.close();
    warn.mockRestore();
    error.mockRestore();
    expect(crossing.length).toBeGreaterThan(20);
    // The kubeconfig's user is the one in play (its name is shown in the context picker, by design).
    expect(crossing.some((message) => message.includes('leakcheck-user'))).toBe(true);
    // Every request went through the proxy, and the context list names it without its credentials.
    expect(proxy.requests.length).toBeGreaterThan(5);
    expect(proxy.requests.every((request) => request.includes(cluster.url))).toBe(true);
    expect(crossing.some((message) => message.includes(`"proxy":"${proxy.url}"`))).toBe(true);
    const forbidden = [
      credentials.token,
      credentials.password,
      credentials.execToken,
      credentials.execArgument,
      'MHcCAQEEIKEYMATERIAL',
      'MIIBcertificateMATERIAL',
      base64(credentials.clientKey),
      base64(credentials.clientCertificate),
      base64(`${credentials.username}:${credentials.password}`),
      'credential-plugin.mjs',
      credentials.proxyUser,
      credentials.proxyPassword,
      base64(`${credentials.proxyUser}:${credentials.proxyPassword}`),
      kubeconfigText,
      'client-key-data',
    ];
    for (const text of [...crossing, ...logged]) {
      for (const credential of forbidden) {
        expect(text.includes(credential), `${credential.slice(0, 24)}... in ${text.slice(0, 200)}`).toBe(
          false,
        );
      }
    }
  }, 60_000);

  it('masks Secret values; only the Reveal request, one key at a time, carries a value', async () => {
    const scheduler = new ManualFrameScheduler();
    let link: ReturnType<typeof createInMemoryTransportPair>['client'] | undefined;
    const client = new BridgeClient({
      scheduler,
      open: async () => {
        const pair = createInMemoryTransportPair('masking');
        backend.connect(recorded(pair.server));
        link = pair.client;
        return pair.client as unknown as BridgeLink;
      },
    });
    client.start();
    await expect.poll(() => client.state.getState().connection.phase).toBe('open');
    crossing.length = 0;
    const secrets = { group: '', version: 'v1', resource: 'secrets' };
    const masked = await client.getObject(secrets, 'default', 'database');
    expect(masked.data).toEqual({ password: maskedValue });
    // The old way round: a getObject asking for `reveal: true`, with no Reveal action behind it.
    link!.send({
      type: 'getObject',
      requestId: 9_001,
      gvr: secrets,
      namespace: 'default',
      name: 'database',
      reveal: true,
    });
    await expect.poll(() => crossing.some((message) => message.includes('"requestId":9001,"ok"'))).toBe(true);
    expect(crossing.some((message) => message.includes(secretValue))).toBe(false);

    const revealed = await client.revealSecretValue('default', 'database', 'password');
    expect(revealed).toEqual({ base64: secretValue });
    const carrying = crossing.filter((message) => message.includes(secretValue));
    expect(carrying).toHaveLength(1);
    expect(JSON.parse(carrying[0])).toMatchObject({
      type: 'reply',
      ok: true,
      value: { base64: secretValue },
    });
    expect(logged.some((line) => line.includes(secretValue))).toBe(false);
    client.close();
  }, 30_000);
});
