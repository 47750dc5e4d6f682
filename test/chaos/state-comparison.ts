// What "equal to the server" means in a chaos run: the same keys, each at the same resourceVersion.
// Comparing resourceVersions (not whole objects) is what proves the copy current: the server writes a
// new one with every change, so an equal version is an equal object.
import type { KubeObject } from '../../shared/kube/object';

/** namespace/name (or name) -> resourceVersion. */
export type VersionMap = Map<string, string>;

export function keyOf(object: KubeObject): string {
  const { namespace, name } = object.metadata;
  return namespace ? `${namespace}/${name}` : (name ?? '');
}

export function versionsOf(objects: Iterable<KubeObject>): VersionMap {
  const versions: VersionMap = new Map();
  for (const object of objects) versions.set(keyOf(object), object.metadata.resourceVersion ?? '');
  return versions;
}

export interface VersionDifference {
  /** On the server, not in the copy. */
  missing: string[];
  /** In the copy, gone from the server. */
  extra: string[];
  /** In both, at different resourceVersions: "key (copy 12, server 15)". */
  stale: string[];
}

export function compareVersions(server: VersionMap, copy: VersionMap): VersionDifference {
  const difference: VersionDifference = { missing: [], extra: [], stale: [] };
  for (const [key, version] of server) {
    const copied = copy.get(key);
    if (copied === undefined) difference.missing.push(key);
    else if (copied !== version) difference.stale.push(`${key} (copy ${copied}, server ${version})`);
  }
  for (const key of copy.keys()) if (!server.has(key)) difference.extra.push(key);
  return difference;
}

export function isEqual(difference: VersionDifference): boolean {
  return difference.missing.length + difference.extra.length + difference.stale.length === 0;
}

/** "3 missing (a, b, c), 1 stale (d (copy 4, server 7))", at most three examples of each. */
export function describeDifference(difference: VersionDifference): string {
  const part = (label: string, keys: string[]) => {
    const examples = keys.slice(0, 3).join(', ');
    return `${keys.length} ${label} (${examples}${keys.length > 3 ? ', ...' : ''})`;
  };
  const parts: string[] = [];
  if (difference.missing.length) parts.push(part('missing', difference.missing));
  if (difference.extra.length) parts.push(part('extra', difference.extra));
  if (difference.stale.length) parts.push(part('stale', difference.stale));
  return parts.length ? parts.join(', ') : 'equal';
}
