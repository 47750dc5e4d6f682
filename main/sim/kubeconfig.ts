// The kubeconfig that points kubectl (or main/kube) at an embedded cluster: plain HTTP on loopback,
// a static token user, and the context "kubetide-embedded" (for another user than the administrator,
// "kubetide-embedded-NAME", in the user's own namespace).
import { stringify } from 'yaml';
import type { SimUser } from './sim-users';
import { administratorToken } from './sim-users';

export const embeddedContextName = 'kubetide-embedded';

export function embeddedKubeconfig(url: string, user?: SimUser): string {
  const context = user ? `${embeddedContextName}-${user.name}` : embeddedContextName;
  const userEntry = user ? user.name : `${embeddedContextName}-user`;
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: embeddedContextName, cluster: { server: url, 'insecure-skip-tls-verify': true } }],
    users: [{ name: userEntry, user: { token: user?.token ?? administratorToken } }],
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
