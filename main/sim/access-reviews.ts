// POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews and .../selfsubjectrulesreviews, as
// kube-apiserver answers them: the request's spec comes back with a status computed for the caller
// (rbac-authorizer.ts). Every authenticated user may create both (system:basic-user). Neither is
// stored, so they are served here rather than by the resource catalog.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { badRequest, methodNotAllowed } from './api-errors';
import { readBody, sendJson } from './http-io';
import { authorizeNonResource, authorizeResource, rulesReviewStatus } from './rbac-authorizer';
import type { ResourcePath } from './request-path';
import type { SimUser } from './sim-users';

export const authorizationGroup = 'authorization.k8s.io';
const reviewResources = new Set(['selfsubjectaccessreviews', 'selfsubjectrulesreviews']);

/** True for the two review collections (any method: a GET is then refused with 405). */
export function isAccessReviewPath(path: ResourcePath): boolean {
  return (
    path.group === authorizationGroup &&
    path.version === 'v1' &&
    reviewResources.has(path.resource) &&
    path.namespace === undefined &&
    path.name === undefined
  );
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

async function readReview(request: IncomingMessage): Promise<ReviewBody> {
  let body: unknown;
  try {
    body = JSON.parse(await readBody(request));
  } catch (error) {
    throw badRequest(`the object provided is unrecognized: ${(error as Error).message}`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badRequest('the object provided is not a JSON object');
  return body as ReviewBody;
}

export async function handleAccessReview(
  user: SimUser,
  path: ResourcePath,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  if (request.method !== 'POST') throw methodNotAllowed();
  const review = await readReview(request);
  const spec = review.spec ?? {};
  const echo = { apiVersion: `${authorizationGroup}/v1`, metadata: { creationTimestamp: null } };
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
