// What a connection to one context is made from, as one text: the context's entry (its cluster and
// user) and the cluster's and user's entries, keys sorted so that a file rewritten in another key
// order reads the same. Two readings of the kubeconfig that give a context the same text connect
// alike; a different text means a session opened from the first no longer matches the file (a `kind`
// or `minikube` cluster recreated on a new port with a new CA, a token replaced), and the app opens
// the context again from the new entry (backend.ts).
//
// The context's namespace is left out: `kubens` and `kubectl config set-context --namespace` rewrite it
// all day, and an open session lists every namespace it may read whatever the context names (only a
// user refused the cluster scope starts from it, and adds others in the namespace picker), so opening
// the context again, relisting every kind, would cost a large cluster seconds for nothing it shows.
//
// An oidc user's id-token and refresh-token are left out: kubectl and Kubetide write both back at
// every refresh, and the provider reads them from the file itself before it refreshes
// (oidc-auth-provider.ts), so a refresh is not a change of entry. Files an entry names (a CA, a client
// certificate, a tokenFile) are not read here: client-node reads the certificate files again for
// every request and token-file.ts its token, so their rotation needs no new session.
import type { Cluster, Context, User } from '@kubernetes/client-node';
import { oidcConfigKeys } from './oidc-auth-provider';

export function connectionEntry(context: Context, cluster: Cluster | null, user: User | null): string {
  const { namespace: _namespace, ...connecting } = context;
  return JSON.stringify({ context: connecting, cluster, user: user && withoutOidcTokens(user) }, sortedKeys);
}

/**
 * The part of the entry that names the server and how to trust it: the context without its user, and
 * the cluster's entry. Two entries with the same server entry differ only in who connects (a token
 * renewed, a certificate reissued, another user entry named), which the session may take on in place
 * when the API server says they are the same user (backend.ts).
 */
export function serverEntry(context: Context, cluster: Cluster | null): string {
  const { namespace: _namespace, user: _user, ...server } = context;
  return JSON.stringify({ context: server, cluster }, sortedKeys);
}

function withoutOidcTokens(user: User): User {
  const provider = user.authProvider as { name?: string; config?: Record<string, string> } | undefined;
  if (provider?.name !== 'oidc' || !provider.config) return user;
  const {
    [oidcConfigKeys.idToken]: _idToken,
    [oidcConfigKeys.refreshToken]: _refreshToken,
    ...config
  } = provider.config;
  return { ...user, authProvider: { ...provider, config } };
}

/** JSON.stringify's replacer: each object's keys in one order, whatever order the file wrote them in. */
function sortedKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).sort(([left], [right]) =>
      left < right ? -1 : left > right ? 1 : 0,
    ),
  );
}
