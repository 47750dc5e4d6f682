// A LIST's items as objects of their own. kube-apiserver leaves each item's apiVersion and kind out of a
// built-in type's list (the list's own say them; kubernetes/kubernetes#3030, open since 2014) while a
// GET, a watch event and a custom resource's list send them. client-go's unstructured decoding
// (UnstructuredJSONScheme's decodeToList) gives an item that has neither the list's apiVersion and the
// list's kind without its "List" suffix; so does ListReplyDecoder, so that a pod listed and the same pod
// watched are one object: in the detail's YAML, in the recording's versions and in their diffs.

/** What an untyped item of a list is: the list's apiVersion, and its kind less "List". */
export interface ListItemType {
  readonly apiVersion: string;
  readonly kind: string;
}

/** The type of the items of a list whose members so far are `members`; undefined if they do not say. */
export function listItemType(members: Record<string, unknown>): ListItemType | undefined {
  const { apiVersion, kind } = members;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || apiVersion === '' || kind === '')
    return undefined;
  const itemKind = kind.endsWith('List') ? kind.slice(0, -'List'.length) : kind;
  // A "List" of mixed kinds (kubectl's, never an API server's) names no kind for its items.
  return itemKind === '' ? undefined : { apiVersion, kind: itemKind };
}

/**
 * `item` with `type`'s apiVersion and kind first, when it has neither (client-go's test: each absent,
 * empty or not a string); any other item as it is.
 */
export function withListItemType(item: unknown, type: ListItemType): unknown {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
  const object = item as Record<string, unknown>;
  if (isNamed(object.apiVersion) || isNamed(object.kind)) return item;
  // First, as a GET and a watch event send them; the assignments keep that place when the item had
  // the members empty (which the spread would otherwise copy over them).
  const typed: Record<string, unknown> = { apiVersion: type.apiVersion, kind: type.kind, ...object };
  typed.apiVersion = type.apiVersion;
  typed.kind = type.kind;
  return typed;
}

function isNamed(value: unknown): boolean {
  return typeof value === 'string' && value !== '';
}
