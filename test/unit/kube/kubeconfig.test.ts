import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ClusterConnection } from '../../../main/kube/cluster-connection';
import {
  ContextNotFoundError,
  KubeconfigMalformedError,
  KubeconfigUnreadableError,
} from '../../../main/kube/errors';
import { Kubeconfig, noKubeconfigFound } from '../../../main/kube/kubeconfig';
import { RestClient } from '../../../main/kube/rest-client';
import { kubeconfigYaml, sendJson, startServer } from './local-server';
import type { LocalServer } from './local-server';

const directory = mkdtempSync(path.join(tmpdir(), 'kubetide-kubeconfig-'));
let server: LocalServer | undefined;
let connection: ClusterConnection | undefined;

afterEach(async () => {
  connection?.close();
  await server?.close();
  server = connection = undefined;
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function writeConfig(name: string, config: object | string): string {
  const file = path.join(directory, name);
  writeFileSync(file, typeof config === 'string' ? config : JSON.stringify(config));
  return file;
}

function config(contexts: [context: string, cluster: string, server: string][], current?: string) {
  return {
    apiVersion: 'v1',
    kind: 'Config',
    ...(current ? { 'current-context': current } : {}),
    clusters: contexts.map(([, cluster, url]) => ({ name: cluster, cluster: { server: url } })),
    users: [{ name: 'someone', user: { token: 't' } }],
    contexts: contexts.map(([context, cluster]) => ({
      name: context,
      context: { cluster, user: 'someone' },
    })),
  };
}

/** Starts an echo server and returns the Authorization header a request through `user` carries. */
async function authorizationSentFor(user: Record<string, unknown>): Promise<string | undefined> {
  let seen: string | undefined;
  server = await startServer((request, response) => {
    seen = request.headers.authorization;
    sendJson(response, 200, {});
  });
  connection = Kubeconfig.fromString(kubeconfigYaml(server.url, user)).connect();
  await new RestClient(connection).json({
    path: '/api',
    description: { verb: 'get', resource: 'discovery' },
  });
  return seen;
}

describe('Kubeconfig loading', () => {
  it('merges every KUBECONFIG file; the first current-context and the first definition of a name win', () => {
    const first = writeConfig(
      'first.yaml',
      config([['alpha', 'alpha-cluster', 'https://alpha:6443']], 'alpha'),
    );
    const second = writeConfig(
      'second.yaml',
      config(
        [
          ['beta', 'beta-cluster', 'https://beta:6443'],
          ['alpha', 'alpha-cluster', 'https://ignored:6443'],
        ],
        'beta',
      ),
    );
    const missing = path.join(directory, 'absent.yaml');
    const kubeconfig = Kubeconfig.load({ kubeconfig: [first, missing, second].join(path.delimiter) });
    expect(kubeconfig.currentContext).toBe('alpha');
    expect(kubeconfig.listContexts().map((context) => [context.name, context.server])).toEqual([
      ['alpha', 'https://alpha:6443'],
      ['beta', 'https://beta:6443'],
    ]);
  });

  it('falls back to ~/.kube/config when KUBECONFIG is empty', () => {
    const home = path.join(directory, 'home');
    mkdirSync(path.join(home, '.kube'), { recursive: true });
    writeFileSync(
      path.join(home, '.kube', 'config'),
      JSON.stringify(config([['home', 'home-cluster', 'https://h']], 'home')),
    );
    expect(Kubeconfig.load({ kubeconfig: '', homeDirectory: home }).currentContext).toBe('home');
    expect(noKubeconfigFound({ kubeconfig: '', homeDirectory: home, serviceHost: '' })).toBe(false);
  });

  it('detects that there is no kubeconfig and no in-cluster account', () => {
    const empty = path.join(directory, 'empty-home');
    mkdirSync(empty, { recursive: true });
    expect(noKubeconfigFound({ kubeconfig: '', homeDirectory: empty, serviceHost: '' })).toBe(true);
    expect(
      noKubeconfigFound({
        kubeconfig: path.join(directory, 'nope.yaml'),
        homeDirectory: empty,
        serviceHost: '',
      }),
    ).toBe(true);
  });

  it('uses the in-cluster service account when there is no kubeconfig', () => {
    const root = path.join(directory, 'pod-root');
    const account = path.join(root, 'var/run/secrets/kubernetes.io/serviceaccount');
    mkdirSync(account, { recursive: true });
    writeFileSync(path.join(account, 'token'), 'service-account-token');
    writeFileSync(path.join(account, 'namespace'), 'payments');
    const previous = { host: process.env.KUBERNETES_SERVICE_HOST, port: process.env.KUBERNETES_SERVICE_PORT };
    process.env.KUBERNETES_SERVICE_HOST = '10.96.0.1';
    process.env.KUBERNETES_SERVICE_PORT = '443';
    try {
      const environment = {
        kubeconfig: '',
        homeDirectory: path.join(directory, 'empty-home'),
        serviceAccountRoot: root,
      };
      expect(noKubeconfigFound(environment)).toBe(false);
      const description = Kubeconfig.load(environment).describeContext();
      expect(description).toMatchObject({
        server: 'https://10.96.0.1:443',
        namespace: 'payments',
        authKind: 'in-cluster',
      });
    } finally {
      process.env.KUBERNETES_SERVICE_HOST = previous.host;
      process.env.KUBERNETES_SERVICE_PORT = previous.port;
      if (previous.host === undefined) delete process.env.KUBERNETES_SERVICE_HOST;
      if (previous.port === undefined) delete process.env.KUBERNETES_SERVICE_PORT;
    }
  });

  it('reports malformed YAML with the file path and the parser message', () => {
    const file = writeConfig('broken.yaml', 'clusters:\n  - name: a\n    cluster: {server: "https://a"\n');
    const error = (() => {
      try {
        Kubeconfig.fromFiles([file]);
      } catch (caught) {
        return caught as KubeconfigMalformedError;
      }
    })();
    expect(error).toBeInstanceOf(KubeconfigMalformedError);
    expect(error?.path).toBe(file);
    expect(error?.message).toContain(file);
    expect(error?.parseError).not.toBe('');
  });

  it('reports a kubeconfig entry missing a required field as malformed', () => {
    const file = writeConfig('no-server.yaml', { clusters: [{ name: 'a', cluster: {} }] });
    expect(() => Kubeconfig.fromFiles([file])).toThrow(
      /no-server.yaml is malformed: clusters\[0\].cluster.server is missing/,
    );
  });

  it('reports an empty kubeconfig as empty, not as a parser crash', () => {
    const file = writeConfig('empty.yaml', '\n');
    expect(() => Kubeconfig.fromFiles([file])).toThrow(/empty.yaml is malformed: the file is empty$/);
  });

  it('reports an unreadable kubeconfig with its path', () => {
    const folder = path.join(directory, 'a-folder');
    mkdirSync(folder, { recursive: true });
    expect(() => Kubeconfig.fromFiles([folder])).toThrow(KubeconfigUnreadableError);
  });

  it('names the missing context and the available ones', () => {
    const kubeconfig = Kubeconfig.fromString(
      JSON.stringify(
        config(
          [
            ['alpha', 'a', 'https://a'],
            ['beta', 'b', 'https://b'],
          ],
          'alpha',
        ),
      ),
    );
    expect(() => kubeconfig.useContext('gamma')).toThrow(ContextNotFoundError);
    expect(() => kubeconfig.useContext('gamma')).toThrow(
      'context "gamma" not found in kubeconfig; available contexts: alpha, beta',
    );
    kubeconfig.useContext('beta');
    expect(kubeconfig.currentContext).toBe('beta');
  });

  it('describes a context without any credential', () => {
    const kubeconfig = Kubeconfig.fromString(
      kubeconfigYaml('https://a:6443', { username: 'admin', password: 'hunter2' }),
    );
    const description = kubeconfig.describeContext();
    expect(description).toEqual({
      name: 'test',
      clusterName: 'test-cluster',
      server: 'https://a:6443',
      namespace: 'payments',
      userName: 'test-user',
      authKind: 'basic',
    });
    expect(JSON.stringify(kubeconfig.listContexts())).not.toContain('hunter2');
  });

  it("names a cluster's proxy-url without its credentials, and one client-go refuses as invalid", () => {
    const withProxy = (proxyUrl: string) => {
      const text = JSON.parse(JSON.stringify(config([['alpha', 'a', 'https://a:6443']], 'alpha'))) as {
        clusters: { cluster: Record<string, string> }[];
      };
      text.clusters[0]!.cluster['proxy-url'] = proxyUrl;
      return Kubeconfig.fromString(JSON.stringify(text)).describeContext();
    };
    expect(withProxy('socks5://ada:s3cret@bastion:1080').proxy).toBe('socks5://bastion:1080');
    expect(JSON.stringify(withProxy('http://ada:s3cret@proxy:3128'))).not.toContain('s3cret');
    expect(withProxy('socks4://bastion:1080').proxy).toBe('invalid proxy-url');
  });
});

describe('Kubeconfig authentication on our requests', () => {
  it('sends a token as a bearer token', async () => {
    expect(await authorizationSentFor({ token: 'abc.def' })).toBe('Bearer abc.def');
  });

  it('sends a token file as a bearer token', async () => {
    const file = writeConfig('token.txt', 'from-a-file');
    expect(await authorizationSentFor({ 'token-file': file })).toBe('Bearer from-a-file');
  });

  it('sends username and password as basic auth', async () => {
    expect(await authorizationSentFor({ username: 'admin', password: 'p@ss' })).toBe(
      `Basic ${Buffer.from('admin:p@ss').toString('base64')}`,
    );
  });

  it('sends nothing for a user without credentials', async () => {
    expect(await authorizationSentFor({})).toBeUndefined();
  });
});
