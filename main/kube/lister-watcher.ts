// client-go's ListWatch over HTTP (NewFilteredListWatchFromClient): paged LIST and streaming WATCH of
// one resource, in one namespace or all, with every ListOptions field the Reflector sets passed
// through. The metadata-only variant is client-go's metadata informer: the server sends
// PartialObjectMetadata, a fraction of a full object's bytes, for kinds whose tables need only names,
// labels and timestamps.
import type { Clock } from '../cache/clock';
import type { ListerWatcherFactory, TweakListOptions } from '../cache/informer-factory';
import type { DecodeHints, ListOptions, ListerWatcher, Watcher } from '../cache/lister-watcher';
import { realClock } from '../cache/real-clock';
import type { GroupVersionResource, KubeList, KubeObject, WatchEvent } from '../../shared/kube/object';
import { ListDecodeError, describeRequest, toApiStatusError } from './errors';
import type { RequestDescription } from './errors';
import type { QueryValue, RestClient } from './rest-client';
import { WatchStream, defaultWatchInactivityTimeoutMs } from './watch-stream';

export interface HttpListerWatcherOptions {
  /** Request PartialObjectMetadata instead of full objects. */
  metadataOnly?: boolean;
  /** Runs the watch inactivity timer (default: the real clock). */
  clock?: Clock;
  /**
   * Watch silence that fails the watch, over either protocol (tests shorten it). Default: none over
   * HTTP/2, whose connection health check finds dead connections (its PINGs are answered however
   * quiet the watch), and defaultWatchInactivityTimeoutMs over HTTP/1.1, which has no PING.
   */
  inactivityTimeoutMs?: number;
  /** Set false when the server is known not to serve sendInitialEvents. */
  supportsWatchList?: boolean;
}

const partialObjectMetadataList = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
const partialObjectMetadata = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';

/**
 * The collection path: /api/v1/pods, /apis/apps/v1/namespaces/payments/deployments. An empty namespace
 * means all namespaces (and is the only choice for cluster-scoped kinds).
 */
export function resourcePath(resource: GroupVersionResource, namespace = ''): string {
  const groupVersion =
    resource.group === '' ? `/api/${resource.version}` : `/apis/${resource.group}/${resource.version}`;
  const scope = namespace === '' ? '' : `/namespaces/${encodeURIComponent(namespace)}`;
  return `${groupVersion}${scope}/${resource.resource}`;
}

function listQuery(options: ListOptions): Record<string, QueryValue> {
  return {
    labelSelector: options.labelSelector,
    fieldSelector: options.fieldSelector,
    resourceVersion: options.resourceVersion,
    resourceVersionMatch: options.resourceVersionMatch,
    limit: options.limit && options.limit > 0 ? options.limit : undefined,
    continue: options.continue,
    timeoutSeconds: options.timeoutSeconds,
  };
}

function watchQuery(options: ListOptions): Record<string, QueryValue> {
  return {
    watch: 1,
    labelSelector: options.labelSelector,
    fieldSelector: options.fieldSelector,
    resourceVersion: options.resourceVersion,
    resourceVersionMatch: options.resourceVersionMatch,
    timeoutSeconds: options.timeoutSeconds,
    allowWatchBookmarks: options.allowWatchBookmarks ? true : undefined,
    sendInitialEvents: options.sendInitialEvents === undefined ? undefined : options.sendInitialEvents,
  };
}

/** A ListerWatcher for `resource` in `namespace` ("" for all) over `client`'s connection. */
export function httpListerWatcher<T extends KubeObject = KubeObject>(
  client: RestClient,
  resource: GroupVersionResource,
  namespace = '',
  tweak?: TweakListOptions,
  options: HttpListerWatcherOptions = {},
): ListerWatcher<T> {
  const path = resourcePath(resource, namespace);
  const clock = options.clock ?? realClock;
  const describe = (verb: string): RequestDescription => ({
    verb,
    resource: resource.group === '' ? resource.resource : `${resource.resource}.${resource.group}`,
    ...(namespace === '' ? {} : { namespace }),
  });
  const tweaked = (given: ListOptions): ListOptions => {
    const copy = { ...given };
    tweak?.(copy);
    return copy;
  };

  return {
    supportsWatchList: options.supportsWatchList,

    async list(
      given: ListOptions,
      signal: AbortSignal,
      transformItem?: (item: T) => T,
      hints?: DecodeHints,
    ): Promise<KubeList<T>> {
      // A metadata-only list may still need converting to PartialObjectMetadata below, which must
      // come first: its items are left to the caller's own pass.
      const mapItem = options.metadataOnly
        ? undefined
        : (transformItem as ((item: unknown) => unknown) | undefined);
      const list = await client.list<KubeList<T>>(
        {
          path,
          query: listQuery(tweaked(given)),
          accept: options.metadataOnly ? `${partialObjectMetadataList},application/json` : 'application/json',
          description: describe('list'),
          signal,
        },
        mapItem,
        !options.metadataOnly && hints?.omitManagedFields === true,
      );
      checkListShape(list, describeRequest(describe('list')));
      if (options.metadataOnly && list.kind !== 'PartialObjectMetadataList') {
        list.items = list.items.map((item) => toPartialObjectMetadata(item) as T);
      }
      return list;
    },

    async watch(given: ListOptions, signal: AbortSignal, hints?: DecodeHints): Promise<Watcher<T>> {
      const description = describe('watch');
      const response = await client.stream({
        path,
        query: watchQuery(tweaked(given)),
        accept: options.metadataOnly ? `${partialObjectMetadata},application/json` : 'application/json',
        description,
        signal,
      });
      const stream = new WatchStream<T>(response.body, {
        request: describeRequest(description),
        clock,
        inactivityTimeoutMs:
          options.inactivityTimeoutMs ?? (response.protocol === 'h2' ? 0 : defaultWatchInactivityTimeoutMs),
        statusError: (status) => toApiStatusError(status, description),
        signal,
        omitManagedFields: !options.metadataOnly && hints?.omitManagedFields === true,
        // A watch-list's initial events are the whole list, replaced into the cache at its end: texts
        // kept for them would all wait that long (object-text.ts keeps them for queued deltas only).
        keepObjectTexts: !options.metadataOnly && given.sendInitialEvents !== true,
      });
      return options.metadataOnly ? metadataOnlyWatcher(stream) : stream;
    },
  };
}

/**
 * What SharedInformerFactory takes: one httpListerWatcher per resource and namespace, all over
 * `client` (and so over one connection pool).
 */
export function httpListerWatcherFactory(
  client: RestClient,
  options: HttpListerWatcherOptions = {},
): ListerWatcherFactory {
  return (gvr, namespace, tweak) => httpListerWatcher(client, gvr, namespace, tweak, options);
}

/** httpListerWatcher with metadataOnly set: items and events are PartialObjectMetadata. */
export function metadataListerWatcher(
  client: RestClient,
  resource: GroupVersionResource,
  namespace = '',
  tweak?: TweakListOptions,
  options: Omit<HttpListerWatcherOptions, 'metadataOnly'> = {},
): ListerWatcher<KubeObject> {
  return httpListerWatcher(client, resource, namespace, tweak, { ...options, metadataOnly: true });
}

/** A full object cut down to what a metadata request returns, for servers that ignore `as=`. */
export function toPartialObjectMetadata(object: KubeObject): KubeObject {
  if (object.kind === 'PartialObjectMetadata') return object;
  return { apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata', metadata: object.metadata };
}

function metadataOnlyWatcher<T extends KubeObject>(stream: WatchStream<T>): Watcher<T> {
  return {
    stop: () => stream.stop(),
    [Symbol.asyncIterator](): AsyncIterator<WatchEvent<T>> {
      const inner = stream[Symbol.asyncIterator]();
      return {
        async next() {
          const result = await inner.next();
          if (result.done) return result;
          const event = result.value;
          if (event.type === 'BOOKMARK' || event.object.kind === 'PartialObjectMetadata') return result;
          return {
            done: false,
            value: { type: event.type, object: toPartialObjectMetadata(event.object) as T },
          };
        },
        return: () => inner.return?.() ?? Promise.resolve({ done: true, value: undefined }),
      };
    },
  };
}

/** Refuses JSON that is not a list (see ListDecodeError); fills in what a valid list may omit. */
function checkListShape(value: unknown, request: string): asserts value is KubeList {
  const isObject = (candidate: unknown): candidate is Record<string, unknown> =>
    typeof candidate === 'object' && candidate !== null && !Array.isArray(candidate);
  if (!isObject(value))
    throw new ListDecodeError(
      request,
      `got ${value === null ? 'null' : typeof value === 'object' ? 'an array' : typeof value}`,
    );
  value.metadata ??= {};
  value.items ??= [];
  if (!isObject(value.metadata)) throw new ListDecodeError(request, 'metadata is not an object');
  const items = value.items;
  if (!Array.isArray(items)) throw new ListDecodeError(request, 'items is not an array');
  const bad = items.findIndex((item) => !isObject(item) || !isObject(item.metadata));
  if (bad !== -1) throw new ListDecodeError(request, `items[${bad}] is not an object with metadata`);
}
