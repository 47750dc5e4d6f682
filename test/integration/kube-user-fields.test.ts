// A kubeconfig user's fields that client-go reads and client-node drops, each shown against kubectl with
// the same file: `tokenFile` (relative to the kubeconfig, re-read once a minute, and after a 401) and
// impersonation beyond `as` (`as-groups`, `as-uid`, `as-user-extra`), answered by the embedded
// cluster's impersonation filter as kube-apiserver's. Who the cluster thinks the caller is comes from a
// SelfSubjectReview (`kubectl auth whoami`), asked by both clients.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { FakeClock } from '../../main/cache/fake-clock';
import type { Clock } from '../../main/cache/clock';
import { Kubeconfig } from '../../main/kube/kubeconfig';
import { RestClient } from '../../main/kube/rest-client';
import { tokenFilePeriodMs } from '../../main/kube/token-file';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { administratorToken, namespaceViewer } from '../../main/sim/sim-users';
import type { KubeList } from '../../shared/kube/object';

const run = promisify(execFile);
const janeToken = 'jane-token-for-user-fields';
let cluster: EmbeddedCluster;
let directory: string;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'kube-user-fields-'));
  cluster = await startEmbeddedCluster({
    tls: true,
    pods: 6,
    seed: 9,
    namespaces: 2,
    users: [namespaceViewer({ name: 'jane', namespaces: ['web'], token: janeToken })],
  });
});

afterAll(async () => {
  await cluster?.close();
  rmSync(directory, { recursive: true, force: true });
});

/** A kubeconfig whose one user is `user`, in `directory`. */
function kubeconfigFile(name: string, user: Record<string, unknown>): string {
  const embedded = parse(cluster.kubeconfigYaml()) as { clusters: unknown[] };
  const file = join(directory, name);
  writeFileSync(
    file,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: embedded.clusters,
      users: [{ name: 'someone', user }],
      contexts: [
        { name: 'here', context: { cluster: 'kubetide-embedded', user: 'someone', namespace: 'web' } },
      ],
      'current-context': 'here',
    }),
  );
  return file;
}

interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

function kubetide(file: string, clock?: Clock) {
  const connection = Kubeconfig.fromFiles([file]).connect(undefined, clock ? { clock } : {});
  const rest = new RestClient(connection, clock ? { clock } : {});
  return {
    connection,
    async whoami(): Promise<UserInfo> {
      const review = await rest.json<{ status: { userInfo: UserInfo } }>({
        path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
        method: 'POST',
        contentType: 'application/json',
        body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
        description: { verb: 'create', resource: 'selfsubjectreviews' },
      });
      return review.status.userInfo;
    },
    list: (path: string) => rest.list<KubeList>({ path, description: { verb: 'list', resource: 'pods' } }),
  };
}

async function kubectlWhoami(file: string): Promise<UserInfo> {
  const { stdout } = await run('kubectl', ['auth', 'whoami', '-o', 'json'], {
    env: { ...process.env, KUBECONFIG: file, HOME: directory, KUBECACHEDIR: join(directory, 'cache') },
    timeout: 20_000,
  });
  return (JSON.parse(stdout) as { status: { userInfo: UserInfo } }).status.userInfo;
}

describe("a kubeconfig user's kubectl-only fields", () => {
  it('reads tokenFile relative to the kubeconfig, and again once a minute', async () => {
    writeFileSync(join(directory, 'token'), `${janeToken}\n`);
    const file = kubeconfigFile('token-file', { tokenFile: 'token' });
    expect((await kubectlWhoami(file)).username).toBe('jane');
    const clock = new FakeClock(Date.now());
    const ours = kubetide(file, clock);
    try {
      expect((await ours.whoami()).username).toBe('jane');
      expect((await ours.list('/api/v1/namespaces/web/pods')).kind).toBe('PodList');
      await expect(ours.list('/api/v1/pods')).rejects.toThrow(/User "jane" cannot list resource "pods"/);

      // Rotated on disk: used once the minute is up, as kubectl's CachedFileTokenSource would.
      writeFileSync(join(directory, 'token'), administratorToken);
      clock.step(tokenFilePeriodMs - 1);
      expect((await ours.whoami()).username).toBe('jane');
      clock.step(1);
      expect((await ours.whoami()).username).toBe('kubetide-admin');
      expect((await kubectlWhoami(file)).username).toBe('kubetide-admin');

      // Read again only once the next minute is up: a change meanwhile waits for it.
      writeFileSync(join(directory, 'token'), janeToken);
      clock.step(tokenFilePeriodMs - 1);
      expect((await ours.whoami()).username).toBe('kubetide-admin');
    } finally {
      ours.connection.close();
    }
  });

  it('retries a 401 with the token the file holds now', async () => {
    writeFileSync(join(directory, 'rotating'), 'revoked-token');
    const file = kubeconfigFile('rotating-token', { tokenFile: join(directory, 'rotating') });
    const clock = new FakeClock(Date.now());
    const ours = kubetide(file, clock);
    try {
      // The stale token is still inside its minute; the 401 forces the read that finds jane's.
      await expect(ours.whoami()).rejects.toThrow(/Unauthorized/);
      writeFileSync(join(directory, 'rotating'), janeToken);
      expect((await ours.whoami()).username).toBe('jane');
    } finally {
      ours.connection.close();
    }
  });

  it('impersonates with as, as-groups, as-uid and as-user-extra as kubectl does', async () => {
    const file = kubeconfigFile('impersonating', {
      token: administratorToken,
      as: 'jane',
      'as-uid': 'uid-1234',
      'as-groups': ['developers', 'on-call'],
      'as-user-extra': { 'example.com/team': ['payments', 'web'], scopes: ['view'] },
    });
    const expected = {
      username: 'jane',
      uid: 'uid-1234',
      groups: ['developers', 'on-call', 'system:authenticated'],
      extra: { 'example.com/team': ['payments', 'web'], scopes: ['view'] },
    };
    expect(await kubectlWhoami(file)).toEqual(expected);
    const ours = kubetide(file);
    try {
      expect(await ours.whoami()).toEqual(expected);
      // Served with jane's rights, not the administrator's.
      await expect(ours.list('/api/v1/pods')).rejects.toThrow(/User "jane" cannot list resource "pods"/);
    } finally {
      ours.connection.close();
    }
  });

  it('is refused, as by kube-apiserver, when the caller may not impersonate', async () => {
    const file = kubeconfigFile('refused', {
      token: janeToken,
      as: 'kubetide-admin',
      'as-groups': ['system:masters'],
    });
    const kubectlFailure = await run('kubectl', ['get', '--raw', '/api/v1/namespaces/web/pods'], {
      env: {
        ...process.env,
        KUBECONFIG: file,
        HOME: directory,
        KUBECACHEDIR: join(directory, 'cache-refused'),
      },
      timeout: 20_000,
    }).then(
      () => 'succeeded',
      (error: { stderr?: string }) => error.stderr ?? '',
    );
    const message =
      'users "kubetide-admin" is forbidden: User "jane" cannot impersonate resource "users" in API group "" at the cluster scope';
    expect(kubectlFailure).toContain(message);
    const ours = kubetide(file);
    try {
      await expect(ours.list('/api/v1/namespaces/web/pods')).rejects.toThrow(message);
    } finally {
      ours.connection.close();
    }
  });
});
