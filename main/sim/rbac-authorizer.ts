// RBAC's decision for one request, and the rules a user holds in a namespace, as kube-apiserver's RBAC
// authorizer computes them (plugin/pkg/auth/authorizer/rbac): a rule matches when its verbs, API
// groups and resources each hold the request's (or "*"); a RoleBinding's rules apply only to requests
// in its namespace, never at the cluster scope. Denials carry the API server's exact Status
// (apiserver/pkg/endpoints/handlers/responsewriters/errors.go forbiddenMessage, wrapped by
// apierrors.NewForbidden), because clients show that message and tests match it.
import { StatusError, newStatus } from '../../shared/kube/status';
import type { AccessRule, SimUser } from './sim-users';

/** authorizer.Attributes of a resource request. */
export interface ResourceAttributes {
  verb: string;
  group: string;
  resource: string;
  subresource?: string;
  /** "" (or absent) at the cluster scope. */
  namespace?: string;
  name?: string;
}

/** authorizer.Attributes of a request outside /api and /apis (e.g. /version, /_sim/faults). */
export interface NonResourceAttributes {
  verb: string;
  path: string;
}

export interface Decision {
  allowed: boolean;
  /** Why, as RBAC words it for SelfSubjectAccessReview; "" when nothing granted it. */
  reason: string;
}

/**
 * What every authenticated user may reach outside the resource API: the system:discovery,
 * system:public-info-viewer and system:basic-user ClusterRoles' rules.
 */
const discoveryPaths = [
  '/api',
  '/api/*',
  '/apis',
  '/apis/*',
  '/healthz',
  '/livez',
  '/readyz',
  '/openapi',
  '/openapi/*',
  '/version',
  '/version/',
];

/** The ClusterRole "system:basic-user" every authenticated user is bound to: asking about oneself. */
export const basicUserRules: readonly AccessRule[] = [
  {
    verbs: ['create'],
    apiGroups: ['authorization.k8s.io'],
    resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
  },
  { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] },
];

function holds(values: readonly string[], wanted: string): boolean {
  return values.includes('*') || values.includes(wanted);
}

function appliesIn(rule: AccessRule, namespace: string): boolean {
  return rule.namespaces === undefined || (namespace !== '' && rule.namespaces.includes(namespace));
}

function resourceOf(attributes: ResourceAttributes): string {
  return attributes.subresource ? `${attributes.resource}/${attributes.subresource}` : attributes.resource;
}

function isAdministrator(user: SimUser): boolean {
  return user.groups.includes('system:masters');
}

export function authorizeResource(user: SimUser, attributes: ResourceAttributes): Decision {
  // system:masters bypasses RBAC in kube-apiserver (the privileged-group authorizer), with no reason.
  if (isAdministrator(user)) return { allowed: true, reason: '' };
  const namespace = attributes.namespace ?? '';
  const resource = resourceOf(attributes);
  for (const rule of [...basicUserRules, ...user.rules]) {
    if (!appliesIn(rule, namespace)) continue;
    if (!holds(rule.verbs, attributes.verb) || !holds(rule.apiGroups, attributes.group)) continue;
    if (!holds(rule.resources, resource)) continue;
    const binding = basicUserRules.includes(rule)
      ? 'ClusterRoleBinding "system:basic-user" of ClusterRole "system:basic-user"'
      : rule.namespaces === undefined
        ? `ClusterRoleBinding "${user.name}" of ClusterRole "${user.name}"`
        : `RoleBinding "${user.name}/${namespace}" of ClusterRole "view"`;
    return { allowed: true, reason: `RBAC: allowed by ${binding} to User "${user.name}"` };
  }
  return { allowed: false, reason: '' };
}

export function authorizeNonResource(user: SimUser, attributes: NonResourceAttributes): Decision {
  if (isAdministrator(user)) return { allowed: true, reason: '' };
  const allowed =
    attributes.verb === 'get' &&
    discoveryPaths.some((path) =>
      path.endsWith('*') ? attributes.path.startsWith(path.slice(0, -1)) : attributes.path === path,
    );
  return allowed
    ? {
        allowed,
        reason: `RBAC: allowed by ClusterRoleBinding "system:discovery" of ClusterRole "system:discovery" to Group "system:authenticated"`,
      }
    : { allowed, reason: '' };
}

/** 403 for a resource request, word for word as kube-apiserver sends it. */
export function forbidden(user: SimUser, attributes: ResourceAttributes): StatusError {
  const resource = resourceOf(attributes);
  const scope = attributes.namespace ? `in the namespace "${attributes.namespace}"` : 'at the cluster scope';
  const cause = `User "${user.name}" cannot ${attributes.verb} resource "${resource}" in API group "${attributes.group}" ${scope}`;
  const qualified = attributes.group ? `${attributes.resource}.${attributes.group}` : attributes.resource;
  const subject = attributes.name ? `${qualified} "${attributes.name}"` : qualified;
  return new StatusError(
    newStatus(403, 'Forbidden', `${subject} is forbidden: ${cause}`, {
      // metav1.StatusDetails' fields are omitempty: the core group leaves `group` out.
      ...(attributes.name ? { name: attributes.name } : {}),
      ...(attributes.group ? { group: attributes.group } : {}),
      kind: attributes.resource,
    }),
  );
}

/** 403 for a non-resource request ("forbidden: User "jane" cannot get path "/_sim/stats""). */
export function forbiddenPath(user: SimUser, attributes: NonResourceAttributes): StatusError {
  return new StatusError(
    newStatus(
      403,
      'Forbidden',
      `forbidden: User "${user.name}" cannot ${attributes.verb} path "${attributes.path}"`,
      {},
    ),
  );
}

/** A SubjectRulesReviewStatus: the rules `user` holds in `namespace` ("" for cluster-wide ones only). */
export function rulesReviewStatus(user: SimUser, namespace: string): object {
  const applicable = isAdministrator(user)
    ? [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]
    : [...basicUserRules, ...user.rules].filter((rule) => appliesIn(rule, namespace));
  return {
    resourceRules: applicable.map((rule) => ({
      verbs: [...rule.verbs],
      apiGroups: [...rule.apiGroups],
      resources: [...rule.resources],
    })),
    nonResourceRules: isAdministrator(user)
      ? [{ verbs: ['*'], nonResourceURLs: ['*'] }]
      : [{ verbs: ['get'], nonResourceURLs: discoveryPaths }],
    incomplete: false,
  };
}
