// Just enough OpenAPI v3 for kubectl: the /openapi/v3 index and, per group/version, a document
// whose PATCH operations name their GroupVersionKind and accept the fieldValidation parameter.
// kubectl's query-param verifier then validates on the server side (fieldValidation=Strict) instead
// of downloading schemas for client-side validation, which the simulator does not have. No
// component schemas are published, so kubectl apply computes strategic merge patches from its
// compiled-in types (and JSON merge patches for custom resources).
import type { ResourceCatalog } from './resource-catalog';

function groupVersionPath(group: string, version: string): string {
  return group === '' ? `api/${version}` : `apis/${group}/${version}`;
}

export function openApiIndex(catalog: ResourceCatalog): object {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  const seen = new Set<string>();
  for (const type of catalog.all()) {
    const path = groupVersionPath(type.group, type.version);
    if (seen.has(path)) continue;
    seen.add(path);
    paths[path] = { serverRelativeURL: `/openapi/v3/${path}` };
  }
  return { paths };
}

/** The document for "api/v1" or "apis/{group}/{version}"; undefined if nothing is served there. */
export function openApiDocument(catalog: ResourceCatalog, path: string): object | undefined {
  const types = catalog.all().filter((type) => groupVersionPath(type.group, type.version) === path);
  if (types.length === 0) return undefined;
  const paths: Record<string, object> = {};
  for (const type of types) {
    const scope = type.namespaced ? '/namespaces/{namespace}' : '';
    const operation = {
      'x-kubernetes-group-version-kind': { group: type.group, version: type.version, kind: type.kind },
      parameters: [
        { name: 'fieldValidation', in: 'query', schema: { type: 'string', uniqueItems: true } },
        { name: 'fieldManager', in: 'query', schema: { type: 'string', uniqueItems: true } },
        { name: 'dryRun', in: 'query', schema: { type: 'string', uniqueItems: true } },
      ],
      responses: { '200': { description: 'OK' } },
    };
    paths[`/${path}${scope}/${type.resource}/{name}`] = { patch: operation, put: operation };
    paths[`/${path}${scope}/${type.resource}`] = { post: operation };
  }
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: 'v1.32.0' }, paths };
}
