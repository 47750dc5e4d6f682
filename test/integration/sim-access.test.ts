// The embedded cluster's authentication and RBAC over real HTTP: bearer tokens, a user limited to two
// namespaces (no cluster scope, no Secrets), kube-apiserver's exact 401/403 Status bodies, and the
// SelfSubjectRulesReview / SelfSubjectAccessReview answers a client plans its informers by.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import { namespaceViewer } from '../../main/sim/sim-users';
import { parse } from 'yaml';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

let cluster: EmbeddedCluster;
const jane = namespaceViewer({ name: 'jane', namespaces: ['alpha', 'beta'], token: 'jane-token' });

async function call(path: string, token: string | undefined, init: RequestInit = {}) {
  const headers: Record<string, string> = { ...(init.headers as Record<string, string>) };
  if (token !== undefined) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(`${cluster.url}${path}`, { ...init, headers });
  return { code: response.status, body: (await response.json()) as Json };
}

function review(resource: string, spec: object) {
  return call(`/apis/authorization.k8s.io/v1/${resource}`, jane.token, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec }),
  });
}

beforeAll(async () => {
  cluster = await startEmbeddedCluster({ seed: 3, simulate: false, users: [jane] });
  for (const name of ['alpha', 'beta', 'gamma'])
    cluster.storage.create(cluster.resource('namespaces'), undefined, { metadata: { name } });
  for (const namespace of ['alpha', 'gamma'])
    cluster.storage.create(cluster.resource('configmaps'), namespace, { metadata: { name: 'settings' } });
});

afterAll(async () => {
  await cluster.close();
});

describe('authentication', () => {
  it('answers an unknown token with 401 and the API server Status body', async () => {
    const { code, body } = await call('/api/v1/pods', 'not-a-token');
    expect(code).toBe(401);
    expect(body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Unauthorized',
      reason: 'Unauthorized',
      code: 401,
    });
  });

  it('gives the default kubeconfig user full access', async () => {
    const token = (parse(cluster.kubeconfigYaml()) as Json).users[0].user.token;
    expect((await call('/api/v1/secrets', token)).code).toBe(200);
    expect((await call('/api/v1/nodes', token)).code).toBe(200);
  });

  it('writes a kubeconfig for a limited user in its first namespace', () => {
    const config = parse(cluster.kubeconfigYaml('jane')) as Json;
    expect(config.users[0].user.token).toBe('jane-token');
    expect(config.contexts[0].context.namespace).toBe('alpha');
  });
});

describe('a user limited to two namespaces', () => {
  it('lists and watches what it may read in its namespaces', async () => {
    const list = await call('/api/v1/namespaces/alpha/configmaps', jane.token);
    expect(list.code).toBe(200);
    expect(list.body.items.map((item: Json) => item.metadata.name)).toEqual(['settings']);
    const watch = await fetch(
      `${cluster.url}/apis/apps/v1/namespaces/beta/deployments?watch=1&timeoutSeconds=1`,
      {
        headers: { Authorization: `Bearer ${jane.token}` },
      },
    );
    expect(watch.status).toBe(200);
    await watch.body?.cancel();
  });

  it('is refused at the cluster scope with the API server message', async () => {
    const { code, body } = await call('/api/v1/pods', jane.token);
    expect(code).toBe(403);
    expect(body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'pods is forbidden: User "jane" cannot list resource "pods" in API group "" at the cluster scope',
      reason: 'Forbidden',
      details: { kind: 'pods' },
      code: 403,
    });
  });

  it('is refused in another namespace, naming the group and namespace', async () => {
    const { code, body } = await call('/apis/apps/v1/namespaces/gamma/deployments?watch=true', jane.token);
    expect(code).toBe(403);
    expect(body.message).toBe(
      'deployments.apps is forbidden: User "jane" cannot watch resource "deployments" in API group "apps" in the namespace "gamma"',
    );
    expect(body.details).toEqual({ group: 'apps', kind: 'deployments' });
  });

  it('is refused Secrets even in its own namespaces, and any write', async () => {
    const secrets = await call('/api/v1/namespaces/alpha/secrets/token', jane.token);
    expect(secrets.body.message).toBe(
      'secrets "token" is forbidden: User "jane" cannot get resource "secrets" in API group "" in the namespace "alpha"',
    );
    const write = await call('/api/v1/namespaces/alpha/configmaps', jane.token, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ metadata: { name: 'new' } }),
    });
    expect(write.code).toBe(403);
  });

  it('still reads discovery but not the admin endpoints', async () => {
    expect((await call('/api/v1', jane.token)).code).toBe(200);
    const admin = await call('/_sim/stats', jane.token);
    expect(admin.code).toBe(403);
    expect(admin.body.message).toBe('forbidden: User "jane" cannot get path "/_sim/stats"');
  });
});

describe('access reviews', () => {
  it('lists the rules the user holds in a namespace (SelfSubjectRulesReview)', async () => {
    const inside = await review('selfsubjectrulesreviews', { namespace: 'alpha' });
    expect(inside.code).toBe(201);
    expect(inside.body.kind).toBe('SelfSubjectRulesReview');
    expect(inside.body.status.incomplete).toBe(false);
    expect(inside.body.status.resourceRules).toContainEqual({
      verbs: ['get', 'list', 'watch'],
      apiGroups: ['apps'],
      resources: ['deployments', 'deployments/scale', 'replicasets', 'statefulsets', 'daemonsets'],
    });
    const outside = await review('selfsubjectrulesreviews', { namespace: 'gamma' });
    const resources = outside.body.status.resourceRules.flatMap((rule: Json) => rule.resources);
    // system:basic-user's two rules: the authorization reviews, and authentication's "who am I".
    expect(resources).toEqual(['selfsubjectaccessreviews', 'selfsubjectrulesreviews', 'selfsubjectreviews']);
  });

  it('answers one question (SelfSubjectAccessReview)', async () => {
    const allowed = await review('selfsubjectaccessreviews', {
      resourceAttributes: { namespace: 'beta', verb: 'watch', resource: 'pods' },
    });
    expect(allowed.body.status.allowed).toBe(true);
    expect(allowed.body.status.reason).toMatch(/^RBAC: allowed by RoleBinding/);
    const denied = await review('selfsubjectaccessreviews', {
      resourceAttributes: { verb: 'list', resource: 'pods' },
    });
    expect(denied.body.status).toEqual({ allowed: false });
  });
});
