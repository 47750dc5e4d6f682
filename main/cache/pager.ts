// client-go tools/pager.ListPager: one logical LIST served as pages of `limit` items, stitched back
// together. Pages keep a large LIST from holding the API server (and etcd) in one huge response.
import type { KubeList, KubeObject } from '../../shared/kube/object';
import { isResourceExpired } from '../../shared/kube/status';
import type { ListOptions } from './lister-watcher';

/** The pager's default page size (tools/pager defaultPageSize). */
export const defaultPageSize = 500;

/** Fetches one page. The signal aborts the request when the caller stops. */
export type ListPageFunc<T extends KubeObject = KubeObject> = (
  options: ListOptions,
  signal: AbortSignal,
) => Promise<KubeList<T>>;

export interface ListPagerOptions {
  /** Items per page when the caller's options set no limit; 0 asks for everything at once. */
  pageSize?: number;
  /**
   * When a continue page answers 410 Expired, list everything in one request at the original
   * resourceVersion instead of failing (the continue token outlived etcd's compaction).
   */
  fullListIfExpired?: boolean;
}

export interface PagedListResult<T extends KubeObject = KubeObject> {
  /**
   * Every item of every page. Its metadata is the first page's resourceVersion (without a continue
   * token), or the unpaged response itself when the first page was the only one.
   */
  list: KubeList<T>;
  /** True when the server answered with more than one page. */
  paginated: boolean;
}

export class ListPager<T extends KubeObject = KubeObject> {
  readonly pageSize: number;
  readonly fullListIfExpired: boolean;

  constructor(
    private readonly pageFunc: ListPageFunc<T>,
    options: ListPagerOptions = {},
  ) {
    this.pageSize = options.pageSize ?? defaultPageSize;
    this.fullListIfExpired = options.fullListIfExpired ?? true;
  }

  /**
   * Lists everything `options` selects. Later pages send only the continue token: resourceVersion and
   * resourceVersionMatch are cleared, because the token already pins the snapshot. Rejects with the
   * page's error, or with the signal's reason once it aborts.
   */
  async list(options: ListOptions, signal: AbortSignal): Promise<PagedListResult<T>> {
    const requested = { ...options };
    if (!requested.limit) requested.limit = this.pageSize;
    if (!requested.limit) delete requested.limit;
    let pageOptions: ListOptions = requested;
    let items: T[] | undefined;
    let metadata: KubeList<T>['metadata'] | undefined;
    let head: Omit<KubeList<T>, 'items' | 'metadata'> = {};
    let paginated = false;

    for (;;) {
      signal.throwIfAborted();
      let page: KubeList<T>;
      try {
        page = await this.pageFunc(pageOptions, signal);
      } catch (error) {
        if (!isResourceExpired(error) || !this.fullListIfExpired || !pageOptions.continue) throw error;
        const fullOptions: ListOptions = { ...requested };
        delete fullOptions.limit;
        delete fullOptions.continue;
        signal.throwIfAborted();
        return { list: await this.pageFunc(fullOptions, signal), paginated };
      }
      const continueToken = page.metadata?.continue;
      if (!continueToken && items === undefined) return { list: page, paginated };

      if (items === undefined) {
        items = [];
        metadata = { resourceVersion: page.metadata?.resourceVersion };
        head = { apiVersion: page.apiVersion, kind: page.kind };
      }
      for (const item of page.items ?? []) items.push(item);
      if (!continueToken) return { list: { ...head, metadata: metadata ?? {}, items }, paginated };

      pageOptions = { ...pageOptions, continue: continueToken };
      delete pageOptions.resourceVersion;
      delete pageOptions.resourceVersionMatch;
      paginated = true;
    }
  }
}
