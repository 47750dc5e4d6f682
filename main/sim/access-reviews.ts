// The reviews a caller asks about itself, as kube-apiserver answers them: POST
// /apis/authorization.k8s.io/v1/selfsubjectaccessreviews and .../selfsubjectrulesreviews (the
// request's spec comes back with a status computed for the caller by rbac-authorizer.ts), and
// /apis/authentication.k8s.io/v1/selfsubjectreviews (who the caller is). Every authenticated user may
// create all three (system:basic-user). None is stored, so they are served here rather than by the
// resource catalog. The body comes as JSON or, from kubectl's typed clients (`kubectl auth can-i`,
// `kubectl auth whoami`), as protobuf.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { badRequest, methodNotAllowed } from './api-errors';
import { sendJson } from './http-io';
import { authorizeNonResource, authorizeResource, rulesReviewStatus } from './rbac-authorizer';
import { readObject } from './request-body';
import type { ResourcePath } from './request-path';
import type { SimUser } from './sim-users';

export const authorizationGroup = 'authorization.k8s.io';
const authenticationGroup = 'authentication.k8s.io';
/** Each review collection: its group and its kind. */
const reviewResources: ReadonlyMap<string, { group: string; kind: string }> = new Map([
  ['selfsubjectaccessreviews', { group: authorizationGroup, kind: 'SelfSubjectAccessReview' }],
  ['selfsubjectrulesreviews', { group: authorizationGroup, kind: 'SelfSubjectRulesReview' }],
  ['selfsubjectreviews', { group: authenticationGroup, kind: 'SelfSubjectReview' }],
]);

/** True for the three review collections (any method: a GET is then refused with 405). */
export function isAccessReviewPath(path: ResourcePath): boolean {
  return (
    reviewResources.get(path.resource)?.group === path.group &&
    path.version === 'v1' &&
    path.namespace === undefined &&
    path.name === undefined
  );
}

function reviewGroupEntry(group: string): object {
  const version = { groupVersion: `${group}/v1`, version: 'v1' };
  return { name: group, versions: [version], preferredVersion: version };
}

/** The APIGroup entries of the two review groups, for the group list (as kube-apiserver lists them). */
export function reviewGroupEntries(): object[] {
  return [authenticationGroup, authorizationGroup].map(reviewGroupEntry);
}

/** Discovery of a review group or of its v1 resources (create only); undefined for any other. */
export function reviewsDiscovery(group: string, version?: string): object | undefined {
  if (group !== authorizationGroup && group !== authenticationGroup) return undefined;
  if (version === undefined) return { kind: 'APIGroup', apiVersion: 'v1', ...reviewGroupEntry(group) };
  if (version !== 'v1') return undefined;
  const resources = [...reviewResources]
    .filter(([, review]) => review.group === group)
    .map(([name, { kind }]) => ({ name, singularName: '', namespaced: false, kind, verbs: ['create'] }));
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: `${group}/v1`, resources };
}

interface ReviewBody {
  apiVersion?: unknown;
  kind?: unknown;
  metadata?: unknown;
  spec?: {
    namespace?: unknown;
    resourceAttributes?: Record<string, unknown>;
    nonResourceAttributes?: Record<string, unknown>;
  };
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export async function handleAccessReview(
  user: SimUser,
  path: ResourcePath,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  if (request.method !== 'POST') throw methodNotAllowed();
  const review = (await readObject(request)) as ReviewBody;
  const spec = review.spec ?? {};
  const echo = { apiVersion: `${path.group}/v1`, metadata: { creationTimestamp: null } };
  if (path.resource === 'selfsubjectreviews')
    return sendJson(response, 201, {
      kind: 'SelfSubjectReview',
      ...echo,
      status: {
        userInfo: {
          username: user.name,
          ...(user.uid !== undefined ? { uid: user.uid } : {}),
          groups: [...user.groups],
          ...(user.extra ? { extra: user.extra } : {}),
        },
      },
    });
  if (path.resource === 'selfsubjectrulesreviews') {
    const namespace = text(spec.namespace);
    return sendJson(response, 201, {
      kind: 'SelfSubjectRulesReview',
      ...echo,
      spec: { namespace },
      status: rulesReviewStatus(user, namespace),
    });
  }
  const resource = spec.resourceAttributes;
  const nonResource = spec.nonResourceAttributes;
  if (!resource && !nonResource)
    throw badRequest('exactly one of nonResourceAttributes or resourceAttributes must be specified');
  const decision = resource
    ? authorizeResource(user, {
        verb: text(resource.verb),
        group: text(resource.group),
        resource: text(resource.resource),
        subresource: text(resource.subresource),
        namespace: text(resource.namespace),
        name: text(resource.name),
      })
    : authorizeNonResource(user, { verb: text(nonResource!.verb), path: text(nonResource!.path) });
  return sendJson(response, 201, {
    kind: 'SelfSubjectAccessReview',
    ...echo,
    spec,
    status: decision.reason ? decision : { allowed: decision.allowed },
  });
}
