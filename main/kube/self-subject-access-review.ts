// SelfSubjectAccessReview: "may I do this one thing?" (kubectl auth can-i). Kubetide asks it where
// SelfSubjectRulesReview cannot tell, i.e. where the server marks its rules incomplete (a webhook
// authorizer, as on GKE or EKS, decides requests it cannot enumerate as rules).
import type { GroupVersionResource } from '../../shared/kube/object';
import type { RestClient } from './rest-client';

/** True when the API server says the caller may `verb` `gvr` in `namespace` ("" for all). */
export async function selfSubjectAccessReview(
  client: RestClient,
  namespace: string,
  verb: string,
  gvr: GroupVersionResource,
  signal?: AbortSignal,
): Promise<boolean> {
  const review = await client.json<{ status?: { allowed?: unknown } }>({
    path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
    method: 'POST',
    contentType: 'application/json',
    body: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: { namespace, verb, group: gvr.group, resource: gvr.resource } },
    },
    description: {
      verb: 'create',
      resource: 'selfsubjectaccessreviews',
      ...(namespace ? { namespace } : {}),
    },
    ...(signal ? { signal } : {}),
  });
  return review.status?.allowed === true;
}
