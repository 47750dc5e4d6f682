// The kubeconfig that points kubectl (or main/kube) at an embedded cluster on loopback: over TLS,
// trusting the cluster's own CA (certificate-authority-data), or over plain HTTP; a static token
// user, and the context "kubetide-embedded".
import { stringify } from 'yaml';

export const embeddedContextName = 'kubetide-embedded';

/** `certificateAuthority`: the CA's PEM, for an https:// URL. */
export function embeddedKubeconfig(
  url: string,
  certificateAuthority?: string,
  token = 'kubetide-embedded-token',
): string {
  // kubectl refuses plain http:// with certificate-authority-data, and needs neither for it.
  const cluster = certificateAuthority
    ? { server: url, 'certificate-authority-data': Buffer.from(certificateAuthority).toString('base64') }
    : { server: url };
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: embeddedContextName, cluster }],
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
