// The verbs on one resource path: get, list, watch, create, update, patch, delete, deletecollection,
// and the status and scale subresources. Everything is validated before a byte of the reply is sent,
// so errors are always a proper Status.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject } from '../../shared/kube/object';
import { badRequest, methodNotAllowed, notFound } from './api-errors';
import type { ClusterStorage } from './cluster-storage';
import type { FaultInjector, Verb } from './faults';
import { parseObjectFilter } from './filter';
import { readBody, sendText } from './http-io';
import { readListOptions } from './list-options';
import { planList, readPage, serveList } from './list-handler';
import type { ResponseCompression } from './response-compression';
import type { Rendering } from './media';
import { applyPatch, patchMediaType } from './patch';
import { presenterFor } from './presenter';
import { readDeleteOptions, readObject } from './request-body';
import type { ResourcePath } from './request-path';
import type { ResourceType } from './resource-type';
import { resourceKey } from './resource-type';
import { applyScale, scaleOf } from './scale';
import type { TableConverter } from './table';
import type { WatchServer } from './watch-handler';

export interface ResourceHandlerContext {
  storage: ClusterStorage;
  faults: FaultInjector;
  watches: WatchServer;
  table: TableConverter;
  now: () => number;
  /** Gzips a LIST over 128 KiB for a client that accepts it, as kube-apiserver does; absent: never. */
  compression?: ResponseCompression;
}

export function verbOf(method: string, path: ResourcePath, query: URLSearchParams): Verb | undefined {
  const named = path.name !== undefined;
  switch (method) {
    case 'GET':
      if (path.watchPrefix || query.get('watch') === 'true' || query.get('watch') === '1') return 'watch';
      return named ? 'get' : 'list';
    case 'POST':
      return named ? undefined : 'create';
    case 'PUT':
      return named ? 'update' : undefined;
    case 'PATCH':
      return named ? 'patch' : undefined;
    case 'DELETE':
      return named ? 'delete' : 'deletecollection';
    default:
      return undefined;
  }
}

export async function handleResource(
  context: ResourceHandlerContext,
  type: ResourceType,
  path: ResourcePath,
  verb: Verb,
  rendering: Rendering,
  request: IncomingMessage,
  response: ServerResponse,
  query: URLSearchParams,
): Promise<void> {
  const { storage } = context;
  if (!type.namespaced && path.namespace !== undefined) throw notFound(type, path.name ?? '');
  const namespace = type.namespaced ? path.namespace : undefined;
  const subresource = path.subresource;
  if (subresource !== undefined && subresource !== 'status' && !(subresource === 'scale' && type.scale))
    throw notFound(type, `${path.name}/${subresource}`);
  if (subresource && !['get', 'update', 'patch'].includes(verb)) throw methodNotAllowed();
  if (verb === 'list' || verb === 'watch' || verb === 'deletecollection') {
    const options = readListOptions(query, path.watchPrefix);
    const filter = parseObjectFilter(type, options.labelSelector, options.fieldSelector);
    const presenter = presenterFor(rendering, type, context.table, options.includeObject, context.now);
    const listRequest = { resource: resourceKey(type), namespace, options, filter, presenter };
    if (verb === 'watch')
      return context.watches.serve(response, { ...listRequest, shared: rendering === 'object' });
    if (verb === 'list') {
      return serveList(
        response,
        storage.store,
        context.faults,
        listRequest,
        context.compression?.for(request),
      );
    }
    const page = readPage(
      storage.store,
      listRequest,
      planList(storage.store, context.faults, { ...options, limit: 0, continueToken: undefined }),
    );
    const deleteOptions = await readDeleteOptions(request, query);
    const removed = page.items.map((stored) =>
      storage.delete(
        type,
        stored.object.metadata.namespace,
        stored.object.metadata.name ?? '',
        deleteOptions,
      ),
    );
    // The deleted objects as a LIST of them, written as a LIST is (a built-in type's items untyped).
    const meta = { resourceVersion: String(storage.store.resourceVersion) };
    const items = removed.map((stored) => presenter.item(stored)).join(',');
    return sendText(response, 200, `${presenter.listHead(meta)}${items}${presenter.listTail(meta)}`);
  }
  const presenter = presenterFor(
    rendering,
    type,
    context.table,
    (query.get('includeObject') as 'Object' | 'Metadata' | 'None' | null) ?? 'Metadata',
    context.now,
  );
  const name = path.name ?? '';
  const dryRunText = query.get('dryRun');
  if (dryRunText !== null && dryRunText !== 'All')
    throw badRequest(`dryRun: Unsupported value: "${dryRunText}": supported values: "All"`);
  const dryRun = dryRunText === 'All';
  switch (verb) {
    case 'get': {
      const stored = storage.get(type, namespace, name);
      if (subresource === 'scale') return sendText(response, 200, JSON.stringify(scaleOf(type, stored)));
      return sendText(response, 200, presenter.single(stored));
    }
    case 'create': {
      const stored = storage.create(type, path.namespace, await readObject(request), dryRun);
      return sendText(response, 201, presenter.single(stored));
    }
    case 'update': {
      const input = await readObject(request);
      if (subresource === 'scale') {
        const current = storage.get(type, namespace, name);
        const stored = storage.update(
          type,
          namespace,
          name,
          applyScale(type, current.object, input),
          undefined,
          dryRun,
        );
        return sendText(response, 200, JSON.stringify(scaleOf(type, stored)));
      }
      const stored = storage.update(
        type,
        namespace,
        name,
        input,
        subresource === 'status' ? 'status' : undefined,
        dryRun,
      );
      return sendText(response, 200, presenter.single(stored));
    }
    case 'patch': {
      const contentType = request.headers['content-type'] ?? '';
      patchMediaType(contentType);
      const body = await readBody(request);
      const current = storage.get(type, namespace, name);
      if (subresource === 'scale') {
        const patched = applyPatch(contentType, scaleOf(type, current), body) as KubeObject;
        const stored = storage.update(
          type,
          namespace,
          name,
          applyScale(type, current.object, patched),
          undefined,
          dryRun,
        );
        return sendText(response, 200, JSON.stringify(scaleOf(type, stored)));
      }
      const patched = applyPatch(contentType, current.object, body) as KubeObject;
      if (typeof patched !== 'object' || patched === null || Array.isArray(patched))
        throw badRequest('the patch did not produce an object');
      patched.metadata ??= {};
      patched.metadata.resourceVersion ||= String(current.resourceVersion);
      const stored = storage.update(
        type,
        namespace,
        name,
        patched,
        subresource === 'status' ? 'status' : undefined,
        dryRun,
      );
      return sendText(response, 200, presenter.single(stored));
    }
    case 'delete': {
      const stored = storage.delete(type, namespace, name, await readDeleteOptions(request, query));
      return sendText(response, 200, presenter.single(stored));
    }
  }
}
