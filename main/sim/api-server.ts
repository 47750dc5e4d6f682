// The HTTP front of the embedded cluster: health and version, legacy discovery, the resource verbs,
// and the /_sim admin endpoints. Served over TLS with HTTP/2 and HTTP/1.1 (node:http2's compatibility
// API hands both the same request and response shapes), or plain HTTP/1.1, on loopback.
//
// Admin endpoints (JSON in, JSON out):
//   POST /_sim/faults  a FaultCommand, e.g. {"action":"failNext","count":2,"code":429,"verb":"list","path":"/pods"},
//                      {"action":"dropWatches"}, {"action":"stallWatches","seconds":5},
//                      {"action":"corruptWatches","mode":"malformed"|"truncated"},
//                      {"action":"expireContinueTokens"}, {"action":"restartCompacted"},
//                      {"action":"blackholeConnections"}, {"action":"clear"}
//   GET  /_sim/faults  the pending request faults
//   POST /_sim/churn   {"changesPerSecond": 50}
//   GET  /_sim/stats   object counts, resourceVersion, open watches, connections, requests by verb and resource,
//                      bodies gzipped (compressedResponses)
//
// Every request is authenticated (sim-users.ts) and authorized (rbac-authorizer.ts) first, as
// kube-apiserver's filter chain does: an unknown token is 401, a denied request 403 with the API
// server's own Status message. The /_sim endpoints are an administrator's.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { newStatus } from '../../shared/kube/status';
import {
  handleAccessReview,
  isAccessReviewPath,
  reviewGroupEntries,
  reviewsDiscovery,
} from './access-reviews';
import { badRequest, methodNotAllowed } from './api-errors';
import { containerStreamRefusal, isContainerStream } from './container-streams';
import { apiGroup, apiGroupList, apiResourceList, apiVersions } from './discovery';
import {
  aggregatedContentType,
  aggregatedDiscovery,
  negotiatedAggregatedDiscovery,
} from './aggregated-discovery';
import type { LegacyGroup } from './aggregated-discovery';
import type { MetricsApi } from './metrics-api';
import { metricsDiscovery, metricsGroup, metricsGroupEntry } from './metrics-api';
import type { FaultCommand } from './faults';
import { openApiDocument, openApiIndex } from './openapi';
import { readBody, responseGone, sendJson, sendStatus, sendText, statusOfError } from './http-io';
import { negotiateRendering } from './media';
import { impersonatedUser } from './impersonation';
import { authorizeNonResource, authorizeResource, forbidden, forbiddenPath } from './rbac-authorizer';
import type { RequestLog } from './request-log';
import type { PodLogServer } from './pod-log-server';
import { parseApiPath } from './request-path';
import type { ResourcePath } from './request-path';
import type { ResourceHandlerContext } from './resource-handler';
import { handleResource, verbOf } from './resource-handler';
import type { SimUser, SimUsers } from './sim-users';
import type { WatchHub } from './watch-session';

export interface AdminHooks {
  setChurn(changesPerSecond: number): void;
  stats(): object;
}

export interface ApiServerContext extends ResourceHandlerContext {
  hub: WatchHub;
  admin: AdminHooks;
  users: SimUsers;
  requests: RequestLog;
  logs: PodLogServer;
  /** metrics.k8s.io, as metrics-server's APIService adds it; absent when the cluster runs without it. */
  metrics?: MetricsApi;
  /** Answer legacy discovery only, as a server before aggregated discovery (1.26) does. */
  legacyDiscoveryOnly?: boolean;
}

const versionInfo = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.0-kubetide',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2026-01-01T00:00:00Z',
  goVersion: 'go1.23.0',
  compiler: 'gc',
  platform: 'linux/amd64',
};

function notFoundPath(response: ServerResponse): void {
  sendStatus(response, newStatus(404, 'NotFound', 'the server could not find the requested resource', {}));
}

async function handleAdmin(
  context: ApiServerContext,
  request: IncomingMessage,
  response: ServerResponse,
  pathname: string,
): Promise<void> {
  const method = request.method ?? 'GET';
  if (pathname === '/_sim/faults' && method === 'GET')
    return sendJson(response, 200, { pending: context.faults.pending() });
  if (pathname === '/_sim/stats' && method === 'GET') return sendJson(response, 200, context.admin.stats());
  if (method !== 'POST') return notFoundPath(response);
  let body: unknown;
  try {
    body = JSON.parse((await readBody(request)) || '{}');
  } catch {
    throw badRequest('the body must be JSON');
  }
  if (pathname === '/_sim/faults' && (body as FaultCommand).action === 'blackholeConnections') {
    // The reply leaves on one of the connections about to hang, so they hang a moment later.
    return sendJson(response, 200, { ok: true, affected: context.faults.blackholeConnections(50) });
  }
  if (pathname === '/_sim/faults') {
    try {
      return sendJson(response, 200, { ok: true, ...context.faults.run(body as FaultCommand) });
    } catch (error) {
      throw badRequest((error as Error).message);
    }
  }
  if (pathname === '/_sim/churn') {
    const rate = (body as { changesPerSecond?: unknown }).changesPerSecond;
    if (typeof rate !== 'number' || rate < 0) throw badRequest('changesPerSecond must be a number >= 0');
    context.admin.setChurn(rate);
    return sendJson(response, 200, { ok: true, changesPerSecond: rate });
  }
  return notFoundPath(response);
}

async function route(
  context: ApiServerContext,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  const { pathname } = url;
  const method = request.method ?? 'GET';
  const user = impersonatedUser(
    context.users.authenticate(request.headers.authorization),
    request.rawHeaders,
    context.users,
  );
  const parsed = parseApiPath(pathname);
  if (parsed?.kind !== 'resource') {
    const attributes = { verb: method.toLowerCase(), path: pathname };
    if (!authorizeNonResource(user, attributes).allowed) throw forbiddenPath(user, attributes);
  }
  if (pathname.startsWith('/_sim/')) return handleAdmin(context, request, response, pathname);
  if (pathname === '/healthz' || pathname === '/readyz' || pathname === '/livez')
    return sendText(response, 200, 'ok', { 'Content-Type': 'text/plain; charset=utf-8' });
  if (pathname === '/version') return sendJson(response, 200, versionInfo);
  if (pathname === '/openapi/v3') return sendJson(response, 200, openApiIndex(context.storage.catalog));
  if (pathname.startsWith('/openapi/v3/')) {
    const document = openApiDocument(context.storage.catalog, pathname.slice('/openapi/v3/'.length));
    return document ? sendJson(response, 200, document) : notFoundPath(response);
  }
  if (!parsed) return notFoundPath(response);
  const { catalog } = context.storage;
  if (parsed.kind !== 'resource') {
    if (method !== 'GET') throw methodNotAllowed();
    const version = parsed.kind === 'groupVersion' ? parsed.version : undefined;
    const host = request.headers.host ?? '127.0.0.1';
    const metricsServed = context.metrics !== undefined;
    const legacy = (group: string, groupVersion?: string) =>
      (metricsServed && metricsDiscovery(group, groupVersion)) ||
      reviewsDiscovery(group, groupVersion) ||
      (groupVersion === undefined ? apiGroup(catalog, group) : apiResourceList(catalog, group, groupVersion));
    const core = parsed.kind === 'root' && parsed.segments[0] === 'api';
    const groups = () => withServedGroups(apiGroupList(catalog), metricsServed);
    const aggregated = context.legacyDiscoveryOnly
      ? undefined
      : negotiatedAggregatedDiscovery(request.headers.accept);
    if (parsed.kind === 'root' && aggregated) {
      const listed = core
        ? [{ name: '', versions: [{ version: 'v1' }] }]
        : (groups() as { groups: LegacyGroup[] }).groups;
      return sendJson(response, 200, aggregatedDiscovery(aggregated, listed, legacy), {
        'Content-Type': aggregatedContentType(aggregated),
        Vary: 'Accept',
      });
    }
    const body =
      parsed.kind === 'root' ? (core ? apiVersions(host) : groups()) : legacy(parsed.group, version);
    return body ? sendJson(response, 200, body) : notFoundPath(response);
  }
  const path = parsed.path;
  if (isAccessReviewPath(path)) return handleAccessReview(user, path, request, response);
  if (context.metrics && path.group === metricsGroup) {
    const verb = verbOf(method, path, url.searchParams);
    if (!verb) throw methodNotAllowed();
    authorize(user, path, verb);
    context.requests.record(verb, `${path.resource}.${metricsGroup}`);
    const fault = context.faults.take(verb, pathname);
    if (fault) return sendStatus(response, fault);
    const compression = context.compression?.for(request);
    return context.metrics.handle(path, verb, url.searchParams, response, compression);
  }
  const type = catalog.find(path.group, path.version, path.resource);
  if (!type) return notFoundPath(response);
  if (isContainerStream(type, path)) {
    // RBAC names these `create` (a POST) or `get` (a WebSocket's GET), as kube-apiserver checks them.
    authorize(user, path, method === 'GET' ? 'get' : 'create');
    throw containerStreamRefusal(path);
  }
  const verb = verbOf(method, path, url.searchParams);
  if (!verb) throw methodNotAllowed();
  authorize(user, path, verb);
  context.requests.record(
    verb,
    type.group === '' ? type.resource : `${type.resource}.${type.group}`,
    url.searchParams.has('continue'),
  );
  const fault = context.faults.take(verb, pathname);
  if (fault) return sendStatus(response, fault);
  if (
    type.group === '' &&
    type.resource === 'pods' &&
    path.subresource === 'log' &&
    path.name !== undefined
  ) {
    if (verb !== 'get') throw methodNotAllowed();
    return context.logs.serve(path.namespace, path.name, url.searchParams, response);
  }
  const rendering = negotiateRendering(request.headers.accept);
  if (!rendering)
    return sendStatus(
      response,
      newStatus(
        406,
        'NotAcceptable',
        `only the following media types are accepted: application/json, application/json;as=Table;v=v1;g=meta.k8s.io, application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io`,
      ),
    );
  return handleResource(context, type, path, verb, rendering, request, response, url.searchParams);
}

/**
 * The group list with the review groups kube-apiserver serves beside the stored kinds, and
 * metrics.k8s.io appended where the aggregator would list its APIService.
 */
function withServedGroups(groupList: object, metricsServed: boolean): object {
  const list = groupList as { groups: object[] };
  const groups = [...list.groups, ...reviewGroupEntries()];
  return { ...list, groups: metricsServed ? [...groups, metricsGroupEntry()] : groups };
}

/** Throws the API server's 403 unless RBAC lets `user` do `verb` on `path`. */
function authorize(user: SimUser, path: ResourcePath, verb: string): void {
  const attributes = {
    verb,
    group: path.group,
    resource: path.resource,
    ...(path.subresource ? { subresource: path.subresource } : {}),
    // A Namespace's own namespace attribute is its name (apiserver's RequestInfoFactory), so a
    // RoleBinding in "payments" lets its subject get the Namespace "payments".
    namespace: path.namespace ?? (path.resource === 'namespaces' ? (path.name ?? '') : ''),
    ...(path.name ? { name: path.name } : {}),
  };
  if (!authorizeResource(user, attributes).allowed) throw forbidden(user, attributes);
}

/** The node:http request listener; never throws, every failure becomes a Status reply. */
export function createRequestListener(
  context: ApiServerContext,
): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    route(context, request, response).catch((error: unknown) => {
      if (!responseGone(response)) sendStatus(response, statusOfError(error));
    });
  };
}
