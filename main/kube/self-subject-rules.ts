// SelfSubjectRulesReview: "what may I do in this namespace?", asked of the API server once per
// namespace (kubectl auth can-i --list). Kubetide plans its informers by it when the cluster scope is
// forbidden. The answer is advisory: a server may mark it incomplete (webhook authorizers cannot
// enumerate rules), and an older or locked-down server may not serve it at all.
import type { RestClient } from './rest-client';

/** authorization/v1 ResourceRule. */
export interface ResourceRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
}

export interface SubjectRules {
  resourceRules: ResourceRule[];
  /** True when the server could not list every rule (then a missing rule proves nothing). */
  incomplete: boolean;
}

/** The caller's rules in `namespace` ("" for those granted cluster-wide). */
export async function selfSubjectRules(
  client: RestClient,
  namespace: string,
  signal?: AbortSignal,
): Promise<SubjectRules> {
  const review = await client.json<{ status?: Partial<SubjectRules> }>({
    path: '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews',
    method: 'POST',
    contentType: 'application/json',
    body: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectRulesReview',
      spec: { namespace },
    },
    description: { verb: 'create', resource: 'selfsubjectrulesreviews', ...(namespace ? { namespace } : {}) },
    ...(signal ? { signal } : {}),
  });
  return {
    resourceRules: Array.isArray(review.status?.resourceRules) ? review.status.resourceRules : [],
    incomplete: review.status?.incomplete === true,
  };
}
