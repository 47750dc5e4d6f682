// The /scale subresource: an autoscaling/v1 Scale view of anything with a ScaleSubresource
// (deployments, replicasets, statefulsets, CRDs that declare one), which is what `kubectl scale`
// reads and patches.
import type { KubeObject } from '../../shared/kube/object';
import type { StoredObject } from './object-store';
import type { ResourceType, ScaleSubresource } from './resource-type';

function read(object: unknown, path: string): unknown {
  let node = object;
  for (const segment of path.split('.').filter(Boolean)) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

function write(object: Record<string, unknown>, path: string, value: unknown): void {
  const segments = path.split('.').filter(Boolean);
  let node = object;
  for (const segment of segments.slice(0, -1)) {
    if (typeof node[segment] !== 'object' || node[segment] === null) node[segment] = {};
    node = node[segment] as Record<string, unknown>;
  }
  node[segments[segments.length - 1]] = value;
}

function selectorText(selector: unknown): string | undefined {
  if (typeof selector === 'string') return selector;
  const matchLabels = (selector as { matchLabels?: Record<string, string> } | undefined)?.matchLabels;
  if (!matchLabels) return undefined;
  return Object.entries(matchLabels)
    .map(([key, value]) => `${key}=${value}`)
    .join(',');
}

export function scaleOf(type: ResourceType, stored: StoredObject): KubeObject {
  const scale = type.scale as ScaleSubresource;
  const { object } = stored;
  const selector = selectorText(
    (scale.labelSelectorPath ? read(object, scale.labelSelectorPath) : undefined) ??
      read(object, '.spec.selector'),
  );
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: object.metadata.name,
      namespace: object.metadata.namespace,
      uid: object.metadata.uid,
      resourceVersion: String(stored.resourceVersion),
      creationTimestamp: object.metadata.creationTimestamp,
    },
    spec: { replicas: Number(read(object, scale.specReplicasPath) ?? 0) },
    status: {
      replicas: Number(read(object, scale.statusReplicasPath) ?? 0),
      ...(selector ? { selector } : {}),
    },
  };
}

/** The parent object with spec replicas taken from `scale` (a private copy; the caller stores it). */
export function applyScale(type: ResourceType, current: KubeObject, scale: KubeObject): KubeObject {
  const replicas = (scale.spec as { replicas?: unknown } | undefined)?.replicas;
  const next = structuredClone(current);
  write(
    next as Record<string, unknown>,
    (type.scale as ScaleSubresource).specReplicasPath,
    typeof replicas === 'number' ? replicas : 0,
  );
  const requestedVersion = scale.metadata?.resourceVersion;
  if (requestedVersion) next.metadata.resourceVersion = requestedVersion;
  return next;
}
