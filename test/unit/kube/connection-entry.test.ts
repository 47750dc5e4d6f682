// A context's connection entry: the same text for readings that connect alike, another when anything
// a connection is made from changed, and an oidc refresh's token write-back not counted as a change.
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { Kubeconfig } from '../../../main/kube/kubeconfig';

interface Parts {
  server?: string;
  caData?: string;
  namespace?: string;
  user?: Record<string, unknown>;
}

function kubeconfig(parts: Parts = {}, options: { sortMapEntries?: boolean; extraContext?: boolean } = {}) {
  const document = {
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': 'work',
    clusters: [
      {
        name: 'kind-work',
        cluster: {
          server: parts.server ?? 'https://127.0.0.1:40123',
          'certificate-authority-data': parts.caData ?? 'Q0EtMQ==',
        },
      },
    ],
    users: [{ name: 'kind-work', user: parts.user ?? { token: 'first' } }],
    contexts: [
      {
        name: 'work',
        context: {
          cluster: 'kind-work',
          user: 'kind-work',
          ...(parts.namespace ? { namespace: parts.namespace } : {}),
        },
      },
      ...(options.extraContext
        ? [{ name: 'spare', context: { cluster: 'kind-work', user: 'kind-work' } }]
        : []),
    ],
  };
  return Kubeconfig.fromString(stringify(document, { sortMapEntries: options.sortMapEntries ?? false }));
}

const entry = (config: Kubeconfig) => config.connectionEntry('work');

function oidcUser(tokens: { idToken: string; refreshToken: string }, clientId = 'kubetide') {
  return {
    'auth-provider': {
      name: 'oidc',
      config: {
        'idp-issuer-url': 'https://issuer.example',
        'client-id': clientId,
        'id-token': tokens.idToken,
        'refresh-token': tokens.refreshToken,
      },
    },
  };
}

describe('Kubeconfig.connectionEntry', () => {
  it('reads the same for a rewrite in another key order, or with another context beside it', () => {
    expect(entry(kubeconfig({}, { sortMapEntries: true, extraContext: true }))).toBe(entry(kubeconfig()));
  });

  it('changes with the server, the CA, the user credentials and impersonation', () => {
    const before = entry(kubeconfig());
    for (const changed of [
      { server: 'https://127.0.0.1:40999' },
      { caData: 'Q0EtMg==' },
      { user: { token: 'second' } },
      { user: { token: 'first', as: 'someone-else' } },
    ])
      expect(entry(kubeconfig(changed)), JSON.stringify(changed)).not.toBe(before);
  });

  it("leaves out the context's namespace, which kubens rewrites all day", () => {
    expect(entry(kubeconfig({ namespace: 'shop' }))).toBe(entry(kubeconfig()));
  });

  it("leaves out an oidc user's id-token and refresh-token, which every refresh writes back", () => {
    const before = entry(kubeconfig({ user: oidcUser({ idToken: 'a.b.c', refreshToken: 'r1' }) }));
    const refreshed = entry(kubeconfig({ user: oidcUser({ idToken: 'd.e.f', refreshToken: 'r2' }) }));
    expect(refreshed).toBe(before);
    expect(before).not.toContain('r1');
    const otherClient = entry(
      kubeconfig({ user: oidcUser({ idToken: 'a.b.c', refreshToken: 'r1' }, 'another-client') }),
    );
    expect(otherClient).not.toBe(before);
  });

  it('is undefined for a context the file does not define', () => {
    expect(kubeconfig().connectionEntry('elsewhere')).toBeUndefined();
    expect(kubeconfig().connectionEntry('')).toBeUndefined();
  });
});

describe('Kubeconfig.serverEntry', () => {
  const server = (config: Kubeconfig) => config.serverEntry('work');

  it('stays the same when only who connects changes: a token, impersonation, the user entry', () => {
    const before = server(kubeconfig());
    for (const changed of [
      { user: { token: 'second' } },
      { user: { token: 'first', as: 'someone-else' } },
      { user: { 'client-certificate-data': 'Q0VSVA==', 'client-key-data': 'S0VZ' } },
    ])
      expect(server(kubeconfig(changed)), JSON.stringify(changed)).toBe(before);
  });

  it('changes with the server and the CA', () => {
    const before = server(kubeconfig());
    expect(server(kubeconfig({ server: 'https://127.0.0.1:40999' }))).not.toBe(before);
    expect(server(kubeconfig({ caData: 'Q0EtMg==' }))).not.toBe(before);
  });

  it('is undefined for a context the file does not define', () => {
    expect(kubeconfig().serverEntry('elsewhere')).toBeUndefined();
  });
});
