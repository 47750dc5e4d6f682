// Parses the REST paths of the Kubernetes API:
//   /api/v1/[watch/][namespaces/{namespace}/]{resource}[/{name}[/{subresource}]]
//   /apis/{group}/{version}/... likewise.
// "namespaces/{name}/status" is the status of a Namespace, not a resource inside it.

export interface ResourcePath {
  group: string;
  version: string;
  resource: string;
  namespace?: string;
  name?: string;
  subresource?: string;
  /** The deprecated /watch/ prefix was used. */
  watchPrefix: boolean;
}

export type ApiPath =
  | { kind: 'root'; segments: string[] }
  | { kind: 'groupVersion'; group: string; version: string }
  | { kind: 'group'; group: string }
  | { kind: 'resource'; path: ResourcePath };

function decode(segment: string): string {
  return decodeURIComponent(segment);
}

export function parseApiPath(pathname: string): ApiPath | undefined {
  const segments = pathname.split('/').filter(Boolean).map(decode);
  let group: string;
  let version: string;
  let rest: string[];
  if (segments[0] === 'api') {
    if (segments.length === 1) return { kind: 'root', segments };
    group = '';
    version = segments[1];
    rest = segments.slice(2);
  } else if (segments[0] === 'apis') {
    if (segments.length === 1) return { kind: 'root', segments };
    group = segments[1];
    if (segments.length === 2) return { kind: 'group', group };
    version = segments[2];
    rest = segments.slice(3);
  } else {
    return undefined;
  }
  if (rest.length === 0) return { kind: 'groupVersion', group, version };
  let watchPrefix = false;
  if (rest[0] === 'watch') {
    watchPrefix = true;
    rest = rest.slice(1);
  }
  let namespace: string | undefined;
  if (
    rest[0] === 'namespaces' &&
    rest.length >= 3 &&
    !(rest.length === 3 && (rest[2] === 'status' || rest[2] === 'finalize'))
  ) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  if (rest.length === 0 || rest.length > 3) return undefined;
  const [resource, name, subresource] = rest;
  return { kind: 'resource', path: { group, version, resource, namespace, name, subresource, watchPrefix } };
}
