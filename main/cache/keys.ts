// Object keys (client-go store.go / controller.go): how stores, queues and indexes name an object.
// A key is "namespace/name" for namespaced objects and "name" for cluster-scoped ones.

/** A key handed to a key function in place of an object: it is already the answer, so it passes through. */
export type ExplicitKey = string;

/**
 * Raised when a key cannot be computed for an object. Stores wrap every key-function failure in it,
 * so callers can branch on `instanceof KeyError` and still reach the original failure as `cause`.
 */
export class KeyError extends Error {
  readonly obj: unknown;
  declare readonly cause: unknown;

  constructor(obj: unknown, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`couldn't create key for object ${describe(obj)}: ${reason}`, { cause });
    this.name = 'KeyError';
    this.obj = obj;
  }
}

/**
 * What a DeltaFIFO queues (and an informer delivers to OnDelete) when an object was deleted while the
 * watch was disconnected: a relist no longer contains it, so its final state is unknown. `obj` is the
 * last state the cache knew, possibly stale, and may be undefined when nothing was known.
 */
export class DeletedFinalStateUnknown<T = unknown> {
  constructor(
    readonly key: string,
    readonly obj: T | undefined,
  ) {}
}

/**
 * The default key function: "namespace/name", or "name" when the namespace is empty. A string is taken
 * as an ExplicitKey and returned unchanged. Throws a KeyError for anything without `metadata.name`.
 */
export function metaNamespaceKeyFunc(obj: unknown): string {
  if (typeof obj === 'string') return obj;
  const metadata = metadataOf(obj);
  const name = metadata?.name;
  if (typeof name !== 'string' || name === '') {
    throw new KeyError(obj, new Error(metadata ? 'object has no name' : 'object has no meta'));
  }
  const namespace = metadata?.namespace;
  return typeof namespace === 'string' && namespace !== '' ? `${namespace}/${name}` : name;
}

/**
 * Like metaNamespaceKeyFunc, but a DeletedFinalStateUnknown yields the key it carries: use it wherever
 * tombstones can reach a store (an informer's indexer, a watch-list's temporary store).
 */
export function deletionHandlingMetaNamespaceKeyFunc(obj: unknown): string {
  if (obj instanceof DeletedFinalStateUnknown) return obj.key;
  return metaNamespaceKeyFunc(obj);
}

/** The inverse of metaNamespaceKeyFunc. Throws for keys with more than one "/". */
export function splitMetaNamespaceKey(key: string): { namespace: string; name: string } {
  const parts = key.split('/');
  if (parts.length === 1) return { namespace: '', name: parts[0] };
  if (parts.length === 2) return { namespace: parts[0], name: parts[1] };
  throw new Error(`unexpected key format: "${key}"`);
}

/** `obj.metadata` when it is an object, else undefined: key and index functions accept untyped input. */
export function metadataOf(obj: unknown): { name?: unknown; namespace?: unknown } | undefined {
  if (typeof obj !== 'object' || obj === null) return undefined;
  const metadata = (obj as { metadata?: unknown }).metadata;
  return typeof metadata === 'object' && metadata !== null ? metadata : undefined;
}

/** A short rendering of the object for the error message; objects can be kilobytes of JSON. */
function describe(obj: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(obj) ?? String(obj);
  } catch {
    text = String(obj);
  }
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}
