// SelfSubjectReview: "who am I to you?" (kubectl auth whoami; authentication.k8s.io/v1, served since
// Kubernetes 1.28). Kubetide asks it with a session's credentials when the session opens, and with the
// kubeconfig's new credentials when only they change (a token renewed by `oc login`, a certificate
// reissued): the same user keeps the session, so nothing is listed again.
import type { RestClient } from './rest-client';

/** authentication/v1 UserInfo: what authorizers decide by. */
export interface UserInfo {
  username: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/** The caller as the API server authenticated it (impersonation applied). */
export async function selfSubjectReview(client: RestClient, signal?: AbortSignal): Promise<UserInfo> {
  const review = await client.json<{ status?: { userInfo?: Partial<UserInfo> } }>({
    path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
    method: 'POST',
    contentType: 'application/json',
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
    description: { verb: 'create', resource: 'selfsubjectreviews' },
    ...(signal ? { signal } : {}),
  });
  const userInfo = review.status?.userInfo;
  if (typeof userInfo?.username !== 'string' || userInfo.username === '')
    throw new Error('the API server answered a SelfSubjectReview without a username');
  return userInfo as UserInfo;
}

/**
 * Whether two answers are one user to every authorizer: the same name, uid, groups and extra fields
 * (groups and extra values compared as sets; RBAC reads name and groups, webhooks may read the rest).
 */
export function sameUser(left: UserInfo, right: UserInfo): boolean {
  return (
    left.username === right.username &&
    (left.uid ?? '') === (right.uid ?? '') &&
    sameSet(left.groups, right.groups) &&
    sameExtra(left.extra ?? {}, right.extra ?? {})
  );
}

/** "jane (groups dev, system:authenticated)", for the log. */
export function describeUser(user: UserInfo): string {
  const groups = user.groups ?? [];
  return groups.length > 0 ? `${user.username} (groups ${[...groups].sort().join(', ')})` : user.username;
}

function sameSet(left: readonly string[] = [], right: readonly string[] = []): boolean {
  const values = new Set(left);
  return values.size === new Set(right).size && right.every((value) => values.has(value));
}

function sameExtra(left: Record<string, string[]>, right: Record<string, string[]>): boolean {
  const keys = Object.keys(left);
  return (
    keys.length === Object.keys(right).length &&
    keys.every((key) => Object.hasOwn(right, key) && sameSet(left[key], right[key]))
  );
}
