// How objects are written for a negotiated rendering: as themselves, as rows of a meta.k8s.io/v1
// Table, or as PartialObjectMetadata. LIST bodies are assembled from these fragments; WATCH events
// wrap eventObject().
import type { KubeObject } from '../../shared/kube/object';
import type { Rendering } from './media';
import type { StoredObject } from './object-store';
import type { ResourceType } from './resource-type';
import { apiVersionOf, isCustomResource } from './resource-type';
import type { TableConverter } from './table';
import { unstructuredJson } from './unstructured-json';

/** A list's metadata, its members in ListMeta's field order. */
export interface ListMeta {
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

export interface Presenter {
  /** The list body up to the opening of its items array. */
  listHead(meta: ListMeta): string;
  /** One element of the items (or rows) array. */
  item(stored: StoredObject): string;
  /** The list body from the end of its items array. */
  listTail(meta: ListMeta): string;
  /** The `object` of a watch event. */
  eventObject(stored: StoredObject): string;
  /** The `object` of a BOOKMARK event. */
  bookmarkObject(resourceVersion: number, annotations?: Record<string, string>): string;
  /** The body of a single-object GET. */
  single(stored: StoredObject): string;
}

function partialMetadata(object: KubeObject): string {
  return `{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":${JSON.stringify(object.metadata)}}`;
}

function bookmark(
  kind: string,
  apiVersion: string,
  resourceVersion: number,
  annotations?: Record<string, string>,
): string {
  const metadata: Record<string, unknown> = { resourceVersion: String(resourceVersion) };
  if (annotations) metadata.annotations = annotations;
  return JSON.stringify({ kind, apiVersion, metadata });
}

export function objectPresenter(type: ResourceType): Presenter {
  const apiVersion = apiVersionOf(type);
  const typeOpening = `{"apiVersion":${JSON.stringify(apiVersion)},"kind":${JSON.stringify(type.kind)},`;
  // A custom resource's list is unstructured, its members sorted as Go writes a map: the items come
  // before the list's kind and metadata (unstructured-json.ts).
  const unstructured = isCustomResource(type);
  return {
    listHead: unstructured
      ? () => `{"apiVersion":${JSON.stringify(apiVersion)},"items":[`
      : (meta) =>
          `{"kind":"${type.listKind}","apiVersion":"${apiVersion}","metadata":${JSON.stringify(meta)},"items":[`,
    item: unstructured ? (stored) => stored.json : (stored) => stored.typedListItemJson(typeOpening),
    listTail: unstructured
      ? (meta) => `],"kind":${JSON.stringify(type.listKind)},"metadata":${unstructuredJson(meta)}}`
      : () => ']}',
    eventObject: (stored) => stored.json,
    bookmarkObject: (resourceVersion, annotations) =>
      bookmark(type.kind, apiVersion, resourceVersion, annotations),
    single: (stored) => stored.json,
  };
}

export function metadataPresenter(): Presenter {
  return {
    listHead: (meta) =>
      `{"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1","metadata":${JSON.stringify(meta)},"items":[`,
    item: (stored) => partialMetadata(stored.object),
    listTail: () => ']}',
    eventObject: (stored) => partialMetadata(stored.object),
    bookmarkObject: (resourceVersion, annotations) =>
      bookmark('PartialObjectMetadata', 'meta.k8s.io/v1', resourceVersion, annotations),
    single: (stored) => partialMetadata(stored.object),
  };
}

export function tablePresenter(
  type: ResourceType,
  table: TableConverter,
  includeObject: 'Object' | 'Metadata' | 'None',
  now: () => number,
): Presenter {
  const columns = JSON.stringify(table.columnDefinitions(type));
  const row = (stored: StoredObject) => {
    const cells = JSON.stringify(table.cells(type, stored.object, now()));
    const object =
      includeObject === 'Object'
        ? stored.json
        : includeObject === 'Metadata'
          ? partialMetadata(stored.object)
          : undefined;
    return object === undefined ? `{"cells":${cells}}` : `{"cells":${cells},"object":${object}}`;
  };
  const head = (meta: ListMeta) =>
    `{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":${JSON.stringify(meta)},"columnDefinitions":${columns},"rows":[`;
  return {
    listHead: head,
    item: row,
    listTail: () => ']}',
    eventObject: (stored) => `${head({ resourceVersion: String(stored.resourceVersion) })}${row(stored)}]}`,
    bookmarkObject: (resourceVersion, annotations) =>
      bookmark(type.kind, apiVersionOf(type), resourceVersion, annotations),
    single: (stored) => `${head({ resourceVersion: String(stored.resourceVersion) })}${row(stored)}]}`,
  };
}

export function presenterFor(
  rendering: Rendering,
  type: ResourceType,
  table: TableConverter,
  includeObject: 'Object' | 'Metadata' | 'None',
  now: () => number,
): Presenter {
  if (rendering === 'table') return tablePresenter(type, table, includeObject, now);
  if (rendering === 'metadata') return metadataPresenter();
  return objectPresenter(type);
}
