// kubectl's questions about the caller against the embedded cluster: `auth can-i` (a
// SelfSubjectAccessReview, or with --list a SelfSubjectRulesReview) and `auth whoami` (a
// SelfSubjectReview), each posted in protobuf by kubectl's typed clients, for the administrator and
// for a user whose RBAC lets it read two namespaces. A real kube-apiserver answers all three for
// every authenticated user, and lists both review groups in discovery. And exec and port-forward,
// which the cluster refuses with a reason once RBAC allowed them. Over TLS: kubectl sends no bearer
// token over plain HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import { namespaceViewer } from '../../main/sim/sim-users';
import type { KubectlHarness } from './kubectl-harness';
import { kubectlHarness } from './kubectl-harness';

let cluster: EmbeddedCluster;
let administrator: KubectlHarness;
let jane: KubectlHarness;

beforeAll(async () => {
  cluster = await startEmbeddedCluster({
    tls: true,
    seed: 3,
    pods: 4,
    nodes: 1,
    namespaces: 1,
    users: [namespaceViewer({ name: 'jane', namespaces: ['web', 'payments'], token: 'jane-token' })],
  });
  administrator = kubectlHarness(cluster);
  jane = kubectlHarness(cluster, 'jane');
});

afterAll(async () => {
  administrator?.close();
  jane?.close();
  await cluster?.close();
});

/** `kubectl auth can-i` prints yes or no, and exits 1 for no. */
async function canI(harness: KubectlHarness, ...args: string[]): Promise<string> {
  const argv = ['auth', 'can-i', ...args];
  try {
    return (await harness.kubectl(argv)).trim();
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error).trim();
  }
}

describe('kubectl auth against the embedded cluster', () => {
  it('can-i answers as RBAC would, for the administrator and for a namespace-limited user', async () => {
    expect(await canI(administrator, 'delete', 'nodes')).toBe('yes');
    expect(await canI(jane, 'watch', 'pods', '-n', 'web')).toBe('yes');
    expect(await canI(jane, 'get', 'pods/log', '-n', 'payments')).toBe('yes');
    expect(await canI(jane, 'list', 'pods', '--all-namespaces')).toBe('no');
    expect(await canI(jane, 'get', 'secrets', '-n', 'web')).toBe('no');
    expect(await canI(jane, 'list', 'pods', '-n', 'kube-system')).toBe('no');
    expect(await canI(jane, 'get', '/healthz')).toBe('yes');
    expect(await canI(jane, 'list', 'serviceaccounts', '-n', 'web')).toBe('yes');
    expect(await canI(jane, 'list', 'clusterroles')).toBe('no');
    expect(await canI(jane, 'create', 'selfsubjectreviews.authentication.k8s.io')).toBe('yes');
  });

  it('can-i --list prints the rules the user holds in a namespace', async () => {
    const lines = (await jane.kubectl(['auth', 'can-i', '--list', '-n', 'web'])).trim().split('\n');
    expect(lines[0].split(/\s{2,}/)).toEqual(['Resources', 'Non-Resource URLs', 'Resource Names', 'Verbs']);
    const rule = (resource: string) => lines.find((line) => line.startsWith(`${resource} `))?.split(/\s{2,}/);
    expect(rule('pods')?.at(-1)).toBe('[get list watch]');
    expect(rule('selfsubjectreviews.authentication.k8s.io')?.at(-1)).toBe('[create]');
    expect(rule('secrets')).toBeUndefined();
  });

  it('whoami names the caller and its groups', async () => {
    const review = JSON.parse(await jane.kubectl(['auth', 'whoami', '-o', 'json']));
    expect(review).toMatchObject({
      kind: 'SelfSubjectReview',
      apiVersion: 'authentication.k8s.io/v1',
      status: { userInfo: { username: 'jane', groups: ['system:authenticated'] } },
    });
    expect(await administrator.kubectl(['auth', 'whoami'])).toMatch(/Username\s+kubetide-admin/);
  });

  it('discovery lists the review groups, create only, which kubectl cannot get', async () => {
    const names = async (...args: string[]) =>
      (await administrator.kubectl(['api-resources', ...args, '-o', 'name'])).trim().split('\n');
    expect(await names('--api-group=authorization.k8s.io', '--verbs=create')).toEqual([
      'selfsubjectaccessreviews.authorization.k8s.io',
      'selfsubjectrulesreviews.authorization.k8s.io',
    ]);
    expect(await names('--api-group=authentication.k8s.io')).toEqual([
      'selfsubjectreviews.authentication.k8s.io',
    ]);
    expect(await names('--verbs=list')).not.toContain('selfsubjectreviews.authentication.k8s.io');
    expect(await administrator.kubectlFailure(['get', 'selfsubjectreviews'])).toMatch(/MethodNotAllowed/);
  });

  it('exec and port-forward are refused as the cluster runs no containers, after RBAC had its say', async () => {
    const [namespace, name] = (
      await administrator.kubectl([
        'get',
        'pods',
        '-A',
        '-o',
        'jsonpath={.items[0].metadata.namespace} {.items[0].metadata.name}',
      ])
    ).split(' ');
    expect(await administrator.kubectlFailure(['exec', '-n', namespace, name, '--', 'ls'])).toMatch(
      /BadRequest.*runs no containers, so pods\/exec is not served/,
    );
    expect(
      await administrator.kubectlFailure(['port-forward', '-n', namespace, `pod/${name}`, '0:80']),
    ).toMatch(/runs no containers, so pods\/portforward is not served/);
    // The view role grants no exec: jane, who may read pods in web, hears 403 first, as from
    // kube-apiserver.
    await administrator.kubectl(['create', 'namespace', 'web']);
    const pod = `apiVersion: v1\nkind: Pod\nmetadata: {name: shell, namespace: web}\nspec:\n  containers: [{name: shell, image: busybox}]\n`;
    await administrator.kubectl(['apply', '-f', administrator.file('shell.yaml', pod)]);
    expect(await jane.kubectlFailure(['exec', '-n', 'web', 'shell', '--', 'ls'])).toMatch(
      /User "jane" cannot create resource "pods\/exec"/,
    );
  });
});
