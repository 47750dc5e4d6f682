// The kubeconfig that points kubectl (or main/kube) at an embedded cluster on loopback: over TLS,
// trusting the cluster's own CA (certificate-authority-data), or over plain HTTP; a static token user,
// and the context "kubetide-embedded" (for another user than the administrator,
// "kubetide-embedded-NAME", in the user's own namespace).
import { stringify } from 'yaml';
import type { SimUser } from './sim-users';
import { administratorToken } from './sim-users';

export const embeddedContextName = 'kubetide-embedded';

/**
 * `certificateAuthority`: the CA's PEM, for an https:// URL; `user`: the administrator when absent,
 * with the token `administratorSecret` (default the well-known one, see SimUsers).
 */
export function embeddedKubeconfig(
  url: string,
  certificateAuthority?: string,
  user?: SimUser,
  administratorSecret = administratorToken,
): string {
  const context = user ? `${embeddedContextName}-${user.name}` : embeddedContextName;
  const userEntry = user ? user.name : `${embeddedContextName}-user`;
  // kubectl refuses plain http:// with certificate-authority-data, and needs neither for it.
  const cluster = certificateAuthority
    ? { server: url, 'certificate-authority-data': Buffer.from(certificateAuthority).toString('base64') }
    : { server: url };
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: embeddedContextName, cluster }],
    users: [{ name: userEntry, user: { token: user?.token ?? administratorSecret } }],
    contexts: [
      {
        name: context,
        context: { cluster: embeddedContextName, user: userEntry, namespace: user?.namespace ?? 'default' },
      },
    ],
    'current-context': context,
    preferences: {},
  });
}
