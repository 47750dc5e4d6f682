// kube-apiserver's impersonation filter (apiserver/pkg/endpoints/filters/impersonation.go): a request
// with Impersonate-* headers is served as the identity they name, once the requester may `impersonate`
// each part: the user (or, for system:serviceaccount:NS:NAME, that ServiceAccount), every group, the
// uid and every extra value (authentication.k8s.io's uids and userextras/KEY). A refusal is the filter's
// 403, naming the requester and the part. The identity gets the groups asked for, plus
// system:authenticated, and RBAC then grants it what is bound to its name (the users' rules here).
import { badRequest } from './api-errors';
import type { ResourceAttributes } from './rbac-authorizer';
import { authorizeResource, forbidden } from './rbac-authorizer';
import type { SimUser, SimUsers } from './sim-users';

/** A ServiceAccount's user name: its namespace and name. */
const serviceAccountUser = /^system:serviceaccount:([^:]+):([^:]+)$/;

interface Requested {
  user?: string;
  uid?: string;
  groups: string[];
  extra: Record<string, string[]>;
}

/** `requester`, or the identity its Impersonate-* headers (`rawHeaders`, Node's name/value list) name. */
export function impersonatedUser(
  requester: SimUser,
  rawHeaders: readonly string[],
  users: SimUsers,
): SimUser {
  const requested = requestedIdentity(rawHeaders);
  const asksMore =
    requested.uid !== undefined || requested.groups.length > 0 || Object.keys(requested.extra).length > 0;
  if (requested.user === undefined) {
    if (asksMore)
      throw badRequest(
        'requested impersonation of groups, a uid or extra fields without impersonating a user',
      );
    return requester;
  }
  for (const attributes of checks(requested as Requested & { user: string })) {
    if (!authorizeResource(requester, attributes).allowed) throw forbidden(requester, attributes);
  }
  const groups = [...requested.groups];
  const serviceAccount = serviceAccountUser.exec(requested.user);
  if (serviceAccount && groups.length === 0)
    groups.push('system:serviceaccounts', `system:serviceaccounts:${serviceAccount[1]}`);
  if (requested.user !== 'system:anonymous' && !groups.includes('system:authenticated'))
    groups.push('system:authenticated');
  const known = users.find(requested.user);
  return {
    name: requested.user,
    token: '',
    groups,
    rules: known?.rules ?? [],
    ...(known?.namespace ? { namespace: known.namespace } : {}),
    ...(requested.uid !== undefined ? { uid: requested.uid } : {}),
    ...(Object.keys(requested.extra).length > 0 ? { extra: requested.extra } : {}),
  };
}

function requestedIdentity(rawHeaders: readonly string[]): Requested {
  const requested: Requested = { groups: [], extra: {} };
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const name = rawHeaders[index]!.toLowerCase();
    const value = rawHeaders[index + 1]!;
    if (name === 'impersonate-user') requested.user ??= value;
    else if (name === 'impersonate-uid') requested.uid ??= value;
    else if (name === 'impersonate-group') requested.groups.push(value);
    else if (name.startsWith('impersonate-extra-')) {
      // Header names are case-insensitive, so the server lower-cases the key before unescaping it.
      const key = unescapeExtraKey(name.slice('impersonate-extra-'.length));
      (requested.extra[key] ??= []).push(value);
    }
  }
  return requested;
}

/** The `impersonate` checks the filter makes, in its order. */
function checks(requested: Requested & { user: string }): ResourceAttributes[] {
  const serviceAccount = serviceAccountUser.exec(requested.user);
  const impersonate = (attributes: Omit<ResourceAttributes, 'verb'>): ResourceAttributes => ({
    verb: 'impersonate',
    ...attributes,
  });
  return [
    serviceAccount
      ? impersonate({
          group: '',
          resource: 'serviceaccounts',
          namespace: serviceAccount[1]!,
          name: serviceAccount[2]!,
        })
      : impersonate({ group: '', resource: 'users', name: requested.user }),
    ...requested.groups.map((group) => impersonate({ group: '', resource: 'groups', name: group })),
    ...(requested.uid !== undefined
      ? [impersonate({ group: 'authentication.k8s.io', resource: 'uids', name: requested.uid })]
      : []),
    ...Object.entries(requested.extra).flatMap(([key, values]) =>
      values.map((value) =>
        impersonate({
          group: 'authentication.k8s.io',
          resource: 'userextras',
          subresource: key,
          name: value,
        }),
      ),
    ),
  ];
}

/** The filter's unescapeExtraKey: percent-decoded, or left as sent when that fails. */
function unescapeExtraKey(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}
