// A kubeconfig user with `auth-provider: oidc` (Dex, Keycloak, an enterprise IdP), against the embedded
// cluster over TLS with an OIDC token authenticator, and an identity provider of the test's own over
// HTTPS with its own CA (idp-certificate-authority-data). What client-go does, and kubectl with it: the
// id-token is used while valid; an expired one is refreshed once (discovery, then the refresh grant),
// concurrent requests wait for that one refresh, and the new tokens (the refresh-token rotated) are
// written back into the file that defined the user, where kubectl reads them. The chain runs both
// ways: kubectl refreshes with the refresh-token Kubetide wrote, and Kubetide with kubectl's.
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Document, parse, parseDocument } from 'yaml';
import { FakeClock } from '../../main/cache/fake-clock';
import { AuthProviderError } from '../../main/kube/errors';
import { workerAuthProviderFiles } from '../../main/app/kubeconfig-reading';
import { Kubeconfig } from '../../main/kube/kubeconfig';
import { RestClient } from '../../main/kube/rest-client';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { administrator } from '../../main/sim/sim-users';
import type { KubeList } from '../../shared/kube/object';
import { startIdentityProvider } from '../support/test-identity-provider';
import type { TestIdentityProvider, TestIdentityProviderOptions } from '../support/test-identity-provider';

const run = promisify(execFile);
const clientSecret = 'kube tide/secret+1';
let cluster: EmbeddedCluster;
let directory: string;
const providers: TestIdentityProvider[] = [];
let activeProvider: TestIdentityProvider | undefined;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'kube-oidc-'));
  cluster = await startEmbeddedCluster({
    tls: true,
    pods: 6,
    seed: 5,
    namespaces: 1,
    // kube-apiserver's --oidc-issuer-url: a token the issuer signed and that has not expired is its subject.
    authenticateToken: (token) => {
      const subject = activeProvider?.verify(token);
      return subject ? { ...administrator, name: subject, token: `oidc:${subject}` } : undefined;
    },
  });
});

afterAll(async () => {
  for (const provider of providers) await provider.close();
  await cluster?.close();
  rmSync(directory, { recursive: true, force: true });
});

async function identityProvider(
  options: Partial<TestIdentityProviderOptions> = {},
): Promise<TestIdentityProvider> {
  const provider = await startIdentityProvider({ clientId: 'kubetide', clientSecret, ...options });
  providers.push(provider);
  activeProvider = provider;
  return provider;
}

/** A kubeconfig file for user alice (and another user beside it), with a comment to keep. */
function kubeconfigFile(
  provider: TestIdentityProvider,
  tokens: { idToken?: string; refreshToken?: string },
): string {
  const embedded = parse(cluster.kubeconfigYaml()) as { clusters: unknown[] };
  const config: Record<string, string> = {
    'idp-issuer-url': provider.issuer,
    'client-id': 'kubetide',
    'client-secret': clientSecret,
    'idp-certificate-authority-data': Buffer.from(provider.certificateAuthority).toString('base64'),
    ...(tokens.idToken ? { 'id-token': tokens.idToken } : {}),
    ...(tokens.refreshToken ? { 'refresh-token': tokens.refreshToken } : {}),
  };
  const document = new Document({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: embedded.clusters,
    users: [
      { name: 'bob', user: { token: 'bobs-token' } },
      { name: 'alice', user: { 'auth-provider': { name: 'oidc', config } } },
    ],
    contexts: [{ name: 'alice', context: { cluster: 'kubetide-embedded', user: 'alice' } }],
    'current-context': 'alice',
  });
  document.commentBefore = " alice's kubeconfig, written by hand";
  const file = join(directory, `config-${providers.length}-${Math.random().toString(36).slice(2)}`);
  writeFileSync(file, document.toString());
  chmodSync(file, 0o600);
  return file;
}

function aliceConfig(file: string): Record<string, string> {
  const document = parse(readFileSync(file, 'utf8')) as {
    users: { name: string; user: { 'auth-provider': { config: Record<string, string> } } }[];
  };
  return document.users.find((user) => user.name === 'alice')!.user['auth-provider'].config;
}

/** Rewrites alice's id-token in `file` as one that expired a minute ago (an hour went by). */
function expireIdToken(file: string, provider: TestIdentityProvider): void {
  const document = parseDocument(readFileSync(file, 'utf8'));
  const users = document.get('users') as {
    items: { get(key: string): unknown; setIn(path: unknown[], value: unknown): void }[];
  };
  users.items
    .find((item) => item.get('name') === 'alice')!
    .setIn(['user', 'auth-provider', 'config', 'id-token'], provider.expiredIdToken('alice'));
  writeFileSync(file, document.toString());
}

function listPods(file: string, kubeconfig = Kubeconfig.fromFiles([file])) {
  const connection = kubeconfig.connect();
  const rest = new RestClient(connection);
  return {
    connection,
    list: () =>
      rest.list<KubeList>({ path: '/api/v1/pods', description: { verb: 'list', resource: 'pods' } }),
  };
}

async function kubectl(file: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('kubectl', args, {
    env: { ...process.env, KUBECONFIG: file, HOME: directory, KUBECACHEDIR: join(directory, 'cache') },
    timeout: 20_000,
  });
  return stdout;
}

describe('the oidc auth provider', () => {
  it('refreshes an expired id-token once, uses it while valid, and writes the rotated tokens back', async () => {
    const provider = await identityProvider();
    const login = provider.login('alice');
    const file = kubeconfigFile(provider, {
      idToken: provider.expiredIdToken('alice'),
      refreshToken: login.refreshToken,
    });
    const original = readFileSync(file, 'utf8').split('\n');
    const kubeconfig = Kubeconfig.fromFiles([file]);
    const first = listPods(file, kubeconfig);
    try {
      const pods = await first.list();
      expect(pods.items.length).toBeGreaterThan(0);
      expect(provider.requests).toEqual(['GET /.well-known/openid-configuration', 'POST /token (basic)']);
      // Later requests use the new id-token: no refresh before each (client-node's provider refreshes
      // before every request once it has refreshed once).
      await first.list();
      await Promise.all([first.list(), first.list()]);
      expect(provider.requests).toHaveLength(2);

      const written = aliceConfig(file);
      expect(provider.verify(written['id-token']!)).toBe('alice');
      expect(written['refresh-token']).not.toBe(login.refreshToken);
      expect(written['client-secret']).toBe(clientSecret);
      const text = readFileSync(file, 'utf8');
      expect(text.startsWith("# alice's kubeconfig, written by hand")).toBe(true);
      expect(text).toContain('bobs-token');
      // Line for line as it was, but for the two tokens.
      const changed = text.split('\n').filter((line, index) => line !== original[index]);
      expect(changed.map((line) => line.trim().split(':')[0])).toEqual(['id-token', 'refresh-token']);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(existsSync(`${file}.lock`)).toBe(false);

      // Another connection of the same kubeconfig (a reconnect) shares the tokens: no refresh.
      const second = listPods(file, kubeconfig);
      await second.list();
      second.connection.close();
      expect(provider.requests).toHaveLength(2);
    } finally {
      first.connection.close();
    }
  });

  it('hands the refresh-token chain to kubectl and back, each writing what the other reads', async () => {
    const provider = await identityProvider();
    const file = kubeconfigFile(provider, {
      idToken: provider.expiredIdToken('alice'),
      refreshToken: provider.login('alice').refreshToken,
    });
    const ours = listPods(file);
    await ours.list();
    ours.connection.close();
    const afterKubetide = aliceConfig(file);

    // kubectl reads Kubetide's id-token as valid, and refreshes with its rotated refresh-token.
    expect(await kubectl(file, 'get', 'pods', '-A', '-o', 'name')).toContain('pod/');
    expect(provider.requests).toHaveLength(2);
    expireIdToken(file, provider);
    expect(await kubectl(file, 'get', 'pods', '-A', '-o', 'name')).toContain('pod/');
    expect(provider.requests.slice(2)).toEqual([
      'GET /.well-known/openid-configuration',
      'POST /token (basic)',
    ]);
    const afterKubectl = aliceConfig(file);
    expect(afterKubectl['refresh-token']).not.toBe(afterKubetide['refresh-token']);

    // And Kubetide refreshes with the refresh-token kubectl wrote.
    expireIdToken(file, provider);
    const again = listPods(file);
    try {
      expect((await again.list()).items.length).toBeGreaterThan(0);
    } finally {
      again.connection.close();
    }
    expect(provider.requests).toHaveLength(6);
    expect(aliceConfig(file)['refresh-token']).not.toBe(afterKubectl['refresh-token']);
  });

  for (const [where, authProviderFiles] of [
    ['in place', undefined],
    ["on the app's worker thread", workerAuthProviderFiles],
  ] as const) {
    it(`takes the tokens kubectl wrote meanwhile instead of presenting a refresh-token it spent (${where})`, async () => {
      const provider = await identityProvider();
      const file = kubeconfigFile(provider, {
        idToken: provider.expiredIdToken('alice'),
        refreshToken: provider.login('alice').refreshToken,
      });
      // Kubetide stays open (one Kubeconfig, one provider) on a clock it can move past its id-token's life.
      const clock = new FakeClock(Date.now());
      const kubeconfig = Kubeconfig.fromFiles([file]);
      const list = async () => {
        const connection = kubeconfig.connect(undefined, {
          clock,
          ...(authProviderFiles ? { authProviderFiles } : {}),
        });
        try {
          return await new RestClient(connection, { clock }).list<KubeList>({
            path: '/api/v1/pods',
            description: { verb: 'list', resource: 'pods' },
          });
        } finally {
          connection.close();
        }
      };
      await list();
      // kubectl, in a terminal meanwhile, finds the id-token expired and refreshes: the refresh-token
      // Kubetide holds is spent, and kubectl's are in the file.
      expireIdToken(file, provider);
      expect(await kubectl(file, 'get', 'pods', '-A', '-o', 'name')).toContain('pod/');
      const kubectlTokens = aliceConfig(file);
      clock.step(2 * 3_600_000);
      expect((await list()).items.length).toBeGreaterThan(0);
      // It refreshed with kubectl's refresh-token (the spent one would be refused with invalid_grant).
      expect(provider.requests.filter((request) => request.startsWith('POST'))).toHaveLength(3);
      expect(aliceConfig(file)['refresh-token']).not.toBe(kubectlTokens['refresh-token']);
    });
  }

  it('waits for another writer lock, and keeps using new tokens it could not write back', async () => {
    const provider = await identityProvider();
    const file = kubeconfigFile(provider, { refreshToken: provider.login('alice').refreshToken });
    const kubeconfig = Kubeconfig.fromFiles([file]);
    writeFileSync(`${file}.lock`, '');
    setTimeout(() => rmSync(`${file}.lock`), 300);
    const held = listPods(file, kubeconfig);
    await held.list();
    held.connection.close();
    expect(provider.verify(aliceConfig(file)['id-token']!)).toBe('alice');

    // The user is gone from the file (edited meanwhile): the write fails, the session goes on.
    const other = await identityProvider();
    const gone = kubeconfigFile(other, { refreshToken: other.login('alice').refreshToken });
    const loaded = Kubeconfig.fromFiles([gone]);
    writeFileSync(gone, readFileSync(gone, 'utf8').replace('name: alice', 'name: alice-renamed'));
    const logged: string[] = [];
    const connection = loaded.connect(undefined, { log: (line) => logged.push(line) });
    try {
      const rest = new RestClient(connection);
      const pods = await rest.list<KubeList>({
        path: '/api/v1/pods',
        description: { verb: 'list', resource: 'pods' },
      });
      expect(pods.items.length).toBeGreaterThan(0);
    } finally {
      connection.close();
    }
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('are in use but could not be written');
    expect(logged[0]).not.toContain(clientSecret);
  });

  it('authenticates the client in the form when the provider refuses Basic, and remembers it', async () => {
    const provider = await identityProvider({ clientAuthentication: 'form', idTokenSeconds: 5 });
    const file = kubeconfigFile(provider, { refreshToken: provider.login('alice').refreshToken });
    const kube = listPods(file);
    try {
      await kube.list();
      // A 5 s token is inside client-go's 10 s margin: every request refreshes, now in the form at once.
      await kube.list();
    } finally {
      kube.connection.close();
    }
    expect(provider.requests.filter((request) => request.startsWith('POST'))).toEqual([
      'POST /token (basic)',
      'POST /token (form)',
      'POST /token (form)',
    ]);
  });

  it("fails with client-go's words when it cannot refresh", async () => {
    const provider = await identityProvider({ omitIdToken: true });
    const cases: [Record<string, string | undefined>, RegExp][] = [
      [
        { idToken: provider.expiredIdToken('alice') },
        /No valid id-token, and cannot refresh without refresh-token/,
      ],
      [{ refreshToken: provider.login('alice').refreshToken }, /token response did not contain an id_token/],
      [{ refreshToken: 'spent' }, /failed to refresh token: .*400.*invalid_grant/],
      [{ idToken: 'not-a-jwt' }, /ID Token is not a valid JWT/],
    ];
    for (const [tokens, message] of cases) {
      const kube = listPods(kubeconfigFile(provider, tokens));
      try {
        const failure = await kube.list().then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(failure).toBeInstanceOf(AuthProviderError);
        expect(String((failure as Error).message)).toMatch(message);
      } finally {
        kube.connection.close();
      }
    }
  });
});
