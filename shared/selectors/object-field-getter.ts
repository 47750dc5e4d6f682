// What a field selector compares against: the API server's per-kind "selectable fields"
// (ToSelectableFields in pkg/registry/*/strategy.go) where they differ from the object's JSON, and any
// other dotted path into the JSON, so client-side filtering agrees with server-side filtering.

import type { KubeObject } from '../kube/object';

type Json = unknown;

function scalarText(value: Json): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/**
 * Follows `path` through nested objects. A segment that is not a key at its level is joined with the
 * following segments and retried, so `metadata.labels.app.kubernetes.io/name` reaches a dotted label.
 */
function resolvePath(value: Json, segments: readonly string[]): Json {
  if (segments.length === 0) return value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, Json>;
  for (let taken = 1; taken <= segments.length; taken++) {
    const key = segments.slice(0, taken).join('.');
    if (Object.hasOwn(record, key)) {
      const found = resolvePath(record[key], segments.slice(taken));
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** Fields whose selectable value is not simply the JSON at the same path. */
const derivedFields: Readonly<Record<string, (object: KubeObject) => string | undefined>> = {
  // The pod's first IP, as ToSelectableFields reads status.podIPs[0].
  'status.podIP': (object) => {
    const status = object['status'] as { podIP?: string; podIPs?: { ip?: string }[] } | undefined;
    return status?.podIPs?.[0]?.ip ?? status?.podIP ?? '';
  },
  // Booleans the server prints with strconv.FormatBool even when the JSON omits them.
  'spec.hostNetwork': (object) =>
    String((object['spec'] as { hostNetwork?: boolean } | undefined)?.hostNetwork ?? false),
  'spec.unschedulable': (object) =>
    String((object['spec'] as { unschedulable?: boolean } | undefined)?.unschedulable ?? false),
  // Jobs select on "status.successful", which is status.succeeded.
  'status.successful': (object) =>
    String((object['status'] as { succeeded?: number } | undefined)?.succeeded ?? 0),
  'status.replicas': (object) =>
    String((object['status'] as { replicas?: number } | undefined)?.replicas ?? 0),
  // Events: the component that reported, from the old or the new API's field.
  source: (object) => {
    const component = (object['source'] as { component?: string } | undefined)?.component;
    return component || scalarText(object['reportingComponent']) || '';
  },
  reportingComponent: (object) => scalarText(object['reportingComponent']) ?? '',
  // Namespaces also select on a bare "name", kept by the API server for compatibility.
  name: (object) => object.metadata.name ?? '',
};

/**
 * A getter for FieldSelector.matches over `object`: metadata.name, metadata.namespace, spec.nodeName,
 * status.phase, spec.restartPolicy, spec.schedulerName, spec.serviceAccountName, status.podIP, the events'
 * involvedObject.*, reason, type and source, and any other dotted path (strings, numbers and booleans as
 * text; objects, arrays and missing fields as undefined).
 */
export function objectFieldGetter(object: KubeObject): (field: string) => string | undefined {
  return (field) => {
    const derived = Object.hasOwn(derivedFields, field) ? derivedFields[field] : undefined;
    if (derived !== undefined) return derived(object);
    return scalarText(resolvePath(object, field.split('.')));
  };
}
