// The Kubernetes object shapes every layer agrees on. Objects travel as plain JSON (what JSON.parse
// returns), never as generated model classes: one shape from LIST and WATCH alike (client-node mixes two).

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: unknown[];
  [field: string]: unknown;
}

/** Any Kubernetes object: typed metadata, everything else left as JSON. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

export interface KubeList<T extends KubeObject = KubeObject> {
  apiVersion?: string;
  kind?: string;
  metadata: ListMeta;
  items: T[];
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** One event of a WATCH stream. For ERROR, `object` is a Status. */
export interface WatchEvent<T extends KubeObject = KubeObject> {
  type: WatchEventType;
  object: T;
}

/** Group, version and resource: the identity of a served kind (core group is ""). */
export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

/** "pods" for the core group, "deployments.v1.apps" otherwise: stable, readable, usable as a map key. */
export function gvrKey(gvr: GroupVersionResource): string {
  return gvr.group === '' ? `${gvr.resource}.${gvr.version}` : `${gvr.resource}.${gvr.version}.${gvr.group}`;
}

/** The resource gvrKey names (resources and versions hold no dots; a group may). */
export function parseGvrKey(key: string): GroupVersionResource {
  const [resource = '', version = '', ...group] = key.split('.');
  return { group: group.join('.'), version, resource };
}

/** The annotation a watch-list stream puts on the bookmark that ends its initial events. */
export const initialEventsEndAnnotation = 'k8s.io/initial-events-end';
