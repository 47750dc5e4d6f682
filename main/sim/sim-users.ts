// Who may call the embedded cluster: users authenticated by bearer token, each with RBAC-shaped rules,
// as a real cluster's token authenticator and Roles/ClusterRoles would give them. The kubeconfig user
// the cluster writes by default is an administrator, so tools and tests that know nothing of users
// keep full access; requests without any credentials are served as that administrator too (the
// embedded cluster listens on loopback only, and curl against /_sim must keep working), unless the
// administrator's token is a secret of its own (the app's embedded cluster): then, as on a cluster
// with anonymous requests off, a request without it is 401, and the well-known token is no one's.
import { randomBytes } from 'node:crypto';
import { StatusError, newStatus } from '../../shared/kube/status';

/**
 * One RBAC PolicyRule with the binding that grants it: `namespaces` lists the namespaces a RoleBinding
 * grants it in; absent, a ClusterRoleBinding grants it everywhere, the cluster scope included.
 * "*" in verbs, apiGroups or resources matches anything, as in RBAC.
 */
export interface AccessRule {
  readonly verbs: readonly string[];
  readonly apiGroups: readonly string[];
  /** Plural resources, "pods/log" for a subresource. */
  readonly resources: readonly string[];
  readonly namespaces?: readonly string[];
}

export interface SimUser {
  readonly name: string;
  readonly token: string;
  readonly groups: readonly string[];
  readonly rules: readonly AccessRule[];
  /** The namespace the user's kubeconfig context names (the first it may read, for a limited user). */
  readonly namespace?: string;
  /** An impersonated identity's uid and extra fields (impersonation.ts), as SelfSubjectReview shows them. */
  readonly uid?: string;
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/** The name and token of the kubeconfig user an embedded cluster writes by default. */
export const administratorName = 'kubetide-admin';
export const administratorToken = 'kubetide-embedded-token';

export const administrator: SimUser = {
  name: administratorName,
  token: administratorToken,
  groups: ['system:masters', 'system:authenticated'],
  rules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
};

/**
 * What the built-in "view" ClusterRole lets a user read (kubernetes/plugin/pkg/auth/authorizer/rbac/
 * bootstrappolicy): workloads, services, config, events; never Secrets, Roles or RoleBindings.
 */
export const viewRoleResources: ReadonlyArray<{ group: string; resources: readonly string[] }> = [
  {
    group: '',
    resources: [
      'pods',
      'pods/log',
      'pods/status',
      'services',
      'endpoints',
      'configmaps',
      'events',
      'persistentvolumeclaims',
      'replicationcontrollers',
      'serviceaccounts',
      'limitranges',
      'resourcequotas',
    ],
  },
  {
    group: 'apps',
    resources: ['deployments', 'deployments/scale', 'replicasets', 'statefulsets', 'daemonsets'],
  },
  { group: 'batch', resources: ['jobs', 'cronjobs'] },
  { group: 'autoscaling', resources: ['horizontalpodautoscalers'] },
  { group: 'policy', resources: ['poddisruptionbudgets'] },
  { group: 'networking.k8s.io', resources: ['ingresses', 'networkpolicies'] },
  // metrics-server's system:aggregated-metrics-reader, aggregated into "view" by its label.
  { group: 'metrics.k8s.io', resources: ['pods', 'nodes'] },
  { group: 'discovery.k8s.io', resources: ['endpointslices'] },
  { group: 'events.k8s.io', resources: ['events'] },
];

export interface NamespaceViewerOptions {
  name: string;
  /** The namespaces the user may read; the first is its kubeconfig context's namespace. */
  namespaces: readonly string[];
  /** Default: 32 random bytes, hex. */
  token?: string;
}

/**
 * The user most companies hand out: "view" bound by RoleBindings in a few namespaces, nothing at the
 * cluster scope (no Nodes, no Namespaces, no listing across namespaces), no Secrets.
 */
export function namespaceViewer(options: NamespaceViewerOptions): SimUser {
  if (options.namespaces.length === 0) throw new Error(`user ${options.name} needs at least one namespace`);
  return {
    name: options.name,
    token: options.token ?? randomBytes(32).toString('hex'),
    groups: ['system:authenticated'],
    namespace: options.namespaces[0],
    rules: viewRoleResources.map(({ group, resources }) => ({
      verbs: ['get', 'list', 'watch'],
      apiGroups: [group],
      resources,
      namespaces: options.namespaces,
    })),
  };
}

/** Users by bearer token. */
export class SimUsers {
  private readonly byToken = new Map<string, SimUser>();

  /** The kubeconfig user the cluster writes by default. */
  readonly administrator: SimUser;
  /** Requests without credentials are the administrator's: no token of its own was given. */
  private readonly anonymousAdministrator: boolean;

  constructor(
    users: readonly SimUser[],
    /** Tokens no user holds, authenticated as an OIDC or webhook authenticator would (undefined: 401). */
    private readonly authenticateToken?: (token: string) => SimUser | undefined,
    /** The administrator's token, a secret: requests must then carry a token (default: the well-known one). */
    administratorSecret?: string,
  ) {
    this.administrator =
      administratorSecret === undefined ? administrator : { ...administrator, token: administratorSecret };
    this.anonymousAdministrator = administratorSecret === undefined;
    for (const user of [this.administrator, ...users]) {
      const taken = this.byToken.get(user.token);
      if (taken) throw new Error(`users ${taken.name} and ${user.name} have the same token`);
      this.byToken.set(user.token, user);
    }
  }

  find(name: string): SimUser | undefined {
    return [...this.byToken.values()].find((user) => user.name === name);
  }

  /**
   * The user an Authorization header names. No header is the administrator unless its token is a
   * secret (see the file comment); any other scheme or an unknown token is 401 with kube-apiserver's
   * body, as its token authenticator answers.
   */
  authenticate(authorization: string | undefined): SimUser {
    if (authorization === undefined && this.anonymousAdministrator) return this.administrator;
    if (authorization === undefined) throw new StatusError(newStatus(401, 'Unauthorized', 'Unauthorized'));
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    const user = match ? (this.byToken.get(match[1]!) ?? this.authenticateToken?.(match[1]!)) : undefined;
    if (!user) throw new StatusError(newStatus(401, 'Unauthorized', 'Unauthorized'));
    return user;
  }
}
