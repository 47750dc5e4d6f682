// The three PATCH content types the apiserver accepts: JSON merge patch (RFC 7386), JSON patch
// (RFC 6902) and strategic merge patch, the last with the merge keys and directives kubectl apply,
// scale, label and annotate produce ($patch, $retainKeys, $setElementOrder, $deleteFromPrimitiveList).
import { badRequest, unsupportedMediaType } from './api-errors';

type Json = null | boolean | number | string | Json[] | { [field: string]: Json };
type JsonObject = { [field: string]: Json };

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** RFC 7386: maps merge recursively, null deletes, anything else (lists included) replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return structuredClone(patch);
  const result: JsonObject = isObject(target) ? { ...target } : {};
  for (const [field, value] of Object.entries(patch)) {
    if (value === null) delete result[field];
    else result[field] = mergePatch(result[field], value) as Json;
  }
  return result;
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function pointerSegments(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw badRequest(`invalid JSON pointer "${path}"`);
  return path.slice(1).split('/').map(unescapePointer);
}

interface Operation {
  op: string;
  path: string;
  from?: string;
  value?: Json;
}

function parentOf(
  document: Json,
  segments: string[],
  path: string,
): { parent: JsonObject | Json[]; last: string } {
  let node: Json = document;
  for (const segment of segments.slice(0, -1)) {
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isObject(node)) node = node[segment];
    else node = null;
    if (node === undefined || node === null || typeof node !== 'object')
      throw badRequest(
        `the server rejected our request due to an error in our request: doc is missing path: "${path}"`,
      );
  }
  return { parent: node as JsonObject | Json[], last: segments[segments.length - 1] };
}

function readPointer(document: Json, path: string): Json {
  let node: Json | undefined = document;
  for (const segment of pointerSegments(path)) {
    node = Array.isArray(node) ? node[Number(segment)] : isObject(node) ? node[segment] : undefined;
    if (node === undefined)
      throw badRequest(
        `the server rejected our request due to an error in our request: doc is missing path: "${path}"`,
      );
  }
  return structuredClone(node);
}

function removeAt(document: Json, path: string): Json {
  const { parent, last } = parentOf(document, pointerSegments(path), path);
  if (Array.isArray(parent)) {
    const index = Number(last);
    if (!(index >= 0 && index < parent.length)) throw badRequest(`doc is missing path: "${path}"`);
    return parent.splice(index, 1)[0];
  }
  if (!(last in parent)) throw badRequest(`doc is missing path: "${path}"`);
  const removed = parent[last];
  delete parent[last];
  return removed;
}

function addAt(document: Json, path: string, value: Json, replace: boolean): Json {
  const segments = pointerSegments(path);
  if (segments.length === 0) return value;
  const { parent, last } = parentOf(document, segments, path);
  if (Array.isArray(parent)) {
    const index = last === '-' ? parent.length : Number(last);
    if (!(index >= 0 && index <= parent.length) || (replace && index >= parent.length))
      throw badRequest(`doc is missing path: "${path}"`);
    if (replace) parent[index] = value;
    else parent.splice(index, 0, value);
  } else {
    if (replace && !(last in parent)) throw badRequest(`doc is missing path: "${path}"`);
    parent[last] = value;
  }
  return document;
}

/** RFC 6902, applied to a copy; `test` failures and missing paths are 422/400 as the apiserver answers. */
export function jsonPatch(target: unknown, operations: unknown): unknown {
  if (!Array.isArray(operations)) throw badRequest('the JSON patch must be an array of operations');
  let document = structuredClone(target) as Json;
  for (const operation of operations as Operation[]) {
    switch (operation.op) {
      case 'add':
        document = addAt(document, operation.path, structuredClone(operation.value ?? null), false);
        break;
      case 'replace':
        document = addAt(document, operation.path, structuredClone(operation.value ?? null), true);
        break;
      case 'remove':
        removeAt(document, operation.path);
        break;
      case 'move': {
        const value = readPointer(document, operation.from ?? '');
        removeAt(document, operation.from ?? '');
        document = addAt(document, operation.path, value, false);
        break;
      }
      case 'copy':
        document = addAt(document, operation.path, readPointer(document, operation.from ?? ''), false);
        break;
      case 'test':
        if (JSON.stringify(readPointer(document, operation.path)) !== JSON.stringify(operation.value ?? null))
          throw badRequest(
            `the server rejected our request due to an error in our request: testing value ${operation.path} failed`,
          );
        break;
      default:
        throw badRequest(`unexpected JSON patch operation "${operation.op}"`);
    }
  }
  return document;
}

/** patchMergeKey of the Kubernetes list fields that merge by key instead of being replaced. */
const mergeKeys: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  env: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  volumeDevices: 'devicePath',
  imagePullSecrets: 'name',
  ownerReferences: 'uid',
  conditions: 'type',
  hostAliases: 'ip',
  topologySpreadConstraints: 'topologyKey',
  resourceClaims: 'name',
};

/** Lists of scalars whose patchStrategy is merge (a union). */
const primitiveMergeLists = new Set(['finalizers']);

function mergeKeyOf(field: string, items: Json[]): string | undefined {
  if (field === 'ports')
    return items.some((item) => isObject(item) && 'containerPort' in item) ? 'containerPort' : 'port';
  return mergeKeys[field];
}

function strategicList(field: string, target: Json[] | undefined, patch: Json[]): Json[] {
  if (primitiveMergeLists.has(field)) {
    const union = [...(target ?? [])];
    for (const value of patch) if (!union.includes(value)) union.push(value);
    return union;
  }
  const key = mergeKeyOf(field, [...(target ?? []), ...patch]);
  if (!key) return structuredClone(patch.filter((item) => !(isObject(item) && item.$patch)));
  if (patch.some((item) => isObject(item) && item.$patch === 'replace'))
    return structuredClone(patch.filter((item) => !(isObject(item) && item.$patch === 'replace')));
  const result: Json[] = (target ?? []).map((item) => structuredClone(item));
  for (const item of patch) {
    if (!isObject(item)) continue;
    const index = result.findIndex((existing) => isObject(existing) && existing[key] === item[key]);
    if (item.$patch === 'delete') {
      if (index >= 0) result.splice(index, 1);
    } else if (index >= 0) {
      result[index] = strategicMergePatch(result[index], item) as Json;
    } else {
      result.push(strategicMergePatch({}, item) as Json);
    }
  }
  return result;
}

/**
 * Strategic merge patch: like a merge patch, except lists of named items merge by their key,
 * `$patch: replace|delete` act on maps and list items, `$retainKeys` prunes a map,
 * `$deleteFromPrimitiveList/<field>` removes scalars, and `$setElementOrder/<field>` is accepted
 * (order is the patch's order for new items, the existing order otherwise).
 */
export function strategicMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return structuredClone(patch);
  if (patch.$patch === 'replace') {
    const { $patch: _directive, ...rest } = patch;
    return structuredClone(rest);
  }
  if (patch.$patch === 'delete') return undefined;
  const result: JsonObject = isObject(target) ? { ...target } : {};
  for (const [field, value] of Object.entries(patch)) {
    if (field === '$patch' || field === '$retainKeys' || field.startsWith('$setElementOrder/')) continue;
    if (field.startsWith('$deleteFromPrimitiveList/')) {
      const name = field.slice('$deleteFromPrimitiveList/'.length);
      const existing = result[name];
      if (Array.isArray(existing) && Array.isArray(value))
        result[name] = existing.filter((item) => !value.includes(item));
      continue;
    }
    if (value === null) delete result[field];
    else if (Array.isArray(value))
      result[field] = strategicList(
        field,
        Array.isArray(result[field]) ? (result[field] as Json[]) : undefined,
        value,
      );
    else if (isObject(value)) {
      const merged = strategicMergePatch(result[field], value);
      if (merged === undefined) delete result[field];
      else result[field] = merged as Json;
    } else result[field] = value;
  }
  const retained = patch.$retainKeys;
  if (Array.isArray(retained))
    for (const field of Object.keys(result)) if (!retained.includes(field)) delete result[field];
  return result;
}

const patchMediaTypes = new Set([
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/json-patch+json',
]);

/**
 * The PATCH media type, or 415 for any other (apply-patch+yaml included). The apiserver checks this
 * before it reads the object, so a server-side apply of an object that does not exist yet is a 415,
 * not a 404: that 415 is what kubectl reads as "Server-side apply not available on the server".
 */
export function patchMediaType(contentType: string): string {
  const mediaType = contentType.split(';')[0].trim().toLowerCase();
  if (!patchMediaTypes.has(mediaType)) throw unsupportedMediaType(mediaType);
  return mediaType;
}

/** Applies a PATCH body by its Content-Type (see patchMediaType). */
export function applyPatch(contentType: string, target: unknown, body: string): unknown {
  const mediaType = patchMediaType(contentType);
  let patch: unknown;
  try {
    patch = JSON.parse(body);
  } catch (error) {
    throw badRequest(`error decoding patch: ${(error as Error).message}`);
  }
  switch (mediaType) {
    case 'application/merge-patch+json':
      return mergePatch(target, patch);
    case 'application/strategic-merge-patch+json':
      return strategicMergePatch(target, patch);
    default:
      return jsonPatch(target, patch);
  }
}
