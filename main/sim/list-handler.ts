// LIST with the apiserver's resourceVersion rules (resourceVersion "", "0", N with Exact or
// NotOlderThan), limit/continue pagination over a consistent snapshot, selectors, and a body streamed
// out in chunks so a 150,000-pod list never becomes one giant string.
import type { ServerResponse } from 'node:http';
import { badRequest, continueTooOldMessage, resourceExpired, tooLargeResourceVersion } from './api-errors';
import type { FaultInjector } from './faults';
import type { ObjectFilter } from './filter';
import type { ListOptions } from './list-options';
import { decodeContinue, encodeContinue, parseResourceVersion } from './list-options';
import { streamList } from './list-stream';
import type { ResponseCompression } from './response-compression';
import type { ObjectStore, StoredObject } from './object-store';
import type { ListMeta, Presenter } from './presenter';
import { snapshotEntries } from './snapshot';

export interface ListRequest {
  resource: string;
  namespace?: string;
  options: ListOptions;
  filter: ObjectFilter;
  presenter: Presenter;
}

interface ListPlan {
  snapshot: number;
  startKey?: string;
  /** 0: unpaginated. */
  limit: number;
}

/** Decides which snapshot to read and whether to paginate, or throws the Status the apiserver would. */
export function planList(store: ObjectStore, faults: FaultInjector, options: ListOptions): ListPlan {
  const current = store.resourceVersion;
  // Served from etcd, whose compaction is global (a watch reads its resource's own window).
  const oldest = store.oldestReadableResourceVersion;
  if (options.continueToken) {
    if (options.resourceVersion && options.resourceVersion !== '0')
      throw badRequest('specifying resource version is not allowed when using continue');
    const { resourceVersion, startKey } = decodeContinue(options.continueToken);
    if (resourceVersion < oldest || faults.continueExpired(resourceVersion))
      throw resourceExpired(continueTooOldMessage);
    return { snapshot: resourceVersion, startKey, limit: options.limit };
  }
  const match = options.resourceVersionMatch;
  const requested = options.resourceVersion;
  if (match && requested === undefined)
    throw badRequest(
      'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
    );
  if (requested === undefined) return { snapshot: current, limit: options.limit };
  const version = parseResourceVersion(requested);
  if (version === 0) {
    if (match === 'Exact')
      throw badRequest(
        'resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
      );
    // Served from the watch cache, which ignores limit and never paginates.
    return { snapshot: current, limit: 0 };
  }
  if (version > current) throw tooLargeResourceVersion(version, current);
  const exact = match === 'Exact' || (match === undefined && options.limit > 0);
  if (!exact) return { snapshot: current, limit: match === 'NotOlderThan' ? options.limit : 0 };
  if (version < oldest) throw resourceExpired(`too old resource version: ${version} (${oldest})`);
  return { snapshot: version, limit: options.limit };
}

/** Collects one page; `continueToken` is set when the scan stopped at the limit with keys left. */
export function readPage(
  store: ObjectStore,
  request: ListRequest,
  plan: ListPlan,
): { items: StoredObject[]; continueToken?: string; remaining?: number } {
  const overlay =
    plan.snapshot < store.resourceVersion ? store.rewind(request.resource, plan.snapshot) : undefined;
  if (plan.snapshot < store.resourceVersion && !overlay)
    throw resourceExpired(
      `too old resource version: ${plan.snapshot} (${store.oldestReadableResourceVersion})`,
    );
  const items: StoredObject[] = [];
  let lastKey: string | undefined;
  let full = false;
  let more = false;
  for (const entry of snapshotEntries(store, request.resource, overlay, {
    namespace: request.namespace,
    startKey: plan.startKey,
  })) {
    if (full) {
      more = true;
      break;
    }
    if (!request.filter.matches(entry.stored.object)) continue;
    items.push(entry.stored);
    lastKey = entry.key;
    if (plan.limit > 0 && items.length >= plan.limit) full = true;
  }
  if (!more || lastKey === undefined) return { items };
  // Counted only where it is cheap and exact, as the apiserver omits it when selectors are set.
  const countable = request.filter.isEverything && !request.namespace && !overlay;
  const keys = store.sortedKeys(request.resource);
  return {
    items,
    continueToken: encodeContinue(plan.snapshot, lastKey),
    remaining: countable ? keys.size - keys.lowerBound(lastKey, true) : undefined,
  };
}

export async function serveList(
  response: ServerResponse,
  store: ObjectStore,
  faults: FaultInjector,
  request: ListRequest,
  /** Gzips the body over 128 KiB: the client accepts it and the cluster compresses. */
  compression?: ResponseCompression,
): Promise<void> {
  const plan = planList(store, faults, request.options);
  const page = readPage(store, request, plan);
  const meta: ListMeta = { resourceVersion: String(plan.snapshot) };
  if (page.continueToken) meta.continue = page.continueToken;
  if (page.remaining !== undefined) meta.remainingItemCount = page.remaining;
  const { presenter } = request;
  await streamList(
    response,
    presenter.listHead(meta),
    page.items,
    (stored) => presenter.item(stored),
    presenter.listTail(meta),
    compression,
  );
}
