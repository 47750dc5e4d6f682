// The kubeconfig that points kubectl (or main/kube) at an embedded cluster: plain HTTP on loopback,
// a static token user, and the context "kubetide-embedded".
import { stringify } from 'yaml';

export const embeddedContextName = 'kubetide-embedded';

export function embeddedKubeconfig(url: string, token = 'kubetide-embedded-token'): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: embeddedContextName, cluster: { server: url, 'insecure-skip-tls-verify': true } }],
    users: [{ name: `${embeddedContextName}-user`, user: { token } }],
    contexts: [
      {
        name: embeddedContextName,
        context: { cluster: embeddedContextName, user: `${embeddedContextName}-user`, namespace: 'default' },
      },
    ],
    'current-context': embeddedContextName,
    preferences: {},
  });
}
