// What a kubeconfig says that client-go reads and client-node drops: a cluster's `disable-compression`
// (kubectl 1.26+: ask this server for no gzip, where the network is fast enough that compressing
// costs more than it saves); a user's `tokenFile` (client-node looks for "token-file", a key kubectl
// never writes), and impersonation beyond `as`: `as-uid`, `as-groups` and `as-user-extra`. Read from
// the same text client-node parsed, and put on its entries, which it keeps as given.
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import type { Cluster, User } from '@kubernetes/client-node';
import { parse as parseYaml } from 'yaml';

/** A cluster entry with `disable-compression`. */
export type KubeconfigCluster = Cluster & { readonly disableCompression?: boolean };

/** Who to act as besides `as` (the user name, which client-node reads): client-go's ImpersonationConfig. */
export interface Impersonation {
  readonly uid?: string;
  readonly groups?: readonly string[];
  /** as-user-extra: each key's values. */
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/** A user entry with `tokenFile` (made absolute) and the rest of its impersonation. */
export type KubeconfigUser = User & { readonly tokenFile?: string; readonly impersonation?: Impersonation };

interface Entries {
  clusters?: { name?: string; cluster?: Record<string, unknown> }[];
  users?: { name?: string; user?: Record<string, unknown> }[];
}

/** `config` with the fields above added from `text`; relative token files resolved against `directory`. */
export function withKubectlFields(config: KubeConfig, text: string, directory: string): KubeConfig {
  const document = parseYaml(text) as Entries | null;
  const compressionOff = new Set(
    (document?.clusters ?? [])
      .filter((entry) => entry?.cluster?.['disable-compression'] === true)
      .map((entry) => entry.name),
  );
  const userFields = new Map<string, { tokenFile?: string; impersonation?: Impersonation }>();
  for (const entry of document?.users ?? []) {
    const fields = entry?.user && userFieldsOf(entry.user, directory);
    if (entry?.name && fields) userFields.set(entry.name, fields);
  }
  if (compressionOff.size === 0 && userFields.size === 0) return config;
  const updated = new KubeConfig();
  updated.loadFromOptions({
    clusters: config
      .getClusters()
      .map((cluster) =>
        compressionOff.has(cluster.name) ? { ...cluster, disableCompression: true } : cluster,
      ),
    users: config.getUsers().map((user) => ({ ...user, ...userFields.get(user.name) })),
    contexts: config.getContexts(),
    currentContext: config.getCurrentContext(),
  });
  return updated;
}

function userFieldsOf(
  user: Record<string, unknown>,
  directory: string,
): { tokenFile?: string; impersonation?: Impersonation } | undefined {
  const tokenFile = nonEmptyString(user.tokenFile);
  const uid = nonEmptyString(user['as-uid']);
  const groups = Array.isArray(user['as-groups']) ? user['as-groups'].map(String) : [];
  const extra = Object.fromEntries(
    Object.entries((user['as-user-extra'] ?? {}) as Record<string, unknown>)
      .filter(([, values]) => Array.isArray(values) && values.length > 0)
      .map(([key, values]) => [key, (values as unknown[]).map(String)]),
  );
  const impersonation: Impersonation = {
    ...(uid ? { uid } : {}),
    ...(groups.length > 0 ? { groups } : {}),
    ...(Object.keys(extra).length > 0 ? { extra } : {}),
  };
  const hasImpersonation = Object.keys(impersonation).length > 0;
  if (!tokenFile && !hasImpersonation) return undefined;
  return {
    // clientcmd resolves tokenFile against the kubeconfig's folder, as certificate paths.
    ...(tokenFile ? { tokenFile: path.resolve(directory, tokenFile) } : {}),
    ...(hasImpersonation ? { impersonation } : {}),
  };
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
