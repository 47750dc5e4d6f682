// Ports client-go tools/pager TestListPager_List, plus the option-clearing rules the Reflector relies on.
import { describe, expect, it } from 'vitest';
import type { ListOptions } from '../../../main/cache/lister-watcher';
import { ListPager, defaultPageSize } from '../../../main/cache/pager';
import type { KubeList, KubeObject } from '../../../shared/kube/object';
import { StatusError, isResourceExpired, newStatus } from '../../../shared/kube/status';

const expired = () => new StatusError(newStatus(410, 'Expired', 'this list has expired'));

function item(index: number): KubeObject {
  return { metadata: { name: String(index) } };
}

function items(count: number): KubeObject[] {
  return Array.from({ length: count }, (_, index) => item(index));
}

/** A server holding `remaining` objects, answering pages of at most `limit` with "rv:index" continues. */
class TestServer {
  readonly calls: ListOptions[] = [];
  private index = 0;
  private continuing = false;

  constructor(
    private remaining: number,
    private readonly resourceVersion: string,
    private expectedLimit: number,
  ) {}

  paged = async (options: ListOptions): Promise<KubeList> => {
    this.calls.push({ ...options });
    expect(options.limit ?? 0).toBe(this.expectedLimit);
    if (this.continuing) expect(options.continue).toBe(`${this.resourceVersion}:${this.index}`);
    if (options.continue) {
      expect(options.resourceVersion).toBeUndefined();
      expect(options.resourceVersionMatch).toBeUndefined();
    }
    const total = options.limit ? options.limit : this.remaining;
    const page: KubeObject[] = [];
    for (let i = 0; i < total && this.remaining > 0; i++, this.remaining--) page.push(item(this.index++));
    const metadata: KubeList['metadata'] = { resourceVersion: this.resourceVersion };
    if (this.remaining > 0) {
      metadata.continue = `${this.resourceVersion}:${this.index}`;
      this.continuing = true;
    }
    return { metadata, items: page };
  };

  expiresOnSecondPage = async (options: ListOptions): Promise<KubeList> => {
    if (this.continuing) {
      this.calls.push({ ...options });
      throw expired();
    }
    return this.paged(options);
  };

  expiresOnSecondPageThenFullList = async (options: ListOptions): Promise<KubeList> => {
    if (this.continuing) {
      this.calls.push({ ...options });
      this.remaining += this.index;
      this.index = 0;
      this.continuing = false;
      this.expectedLimit = 0;
      throw expired();
    }
    return this.paged(options);
  };
}

const signal = new AbortController().signal;

describe('ListPager.list (TestListPager_List)', () => {
  it('returns an empty single page unchanged and not paginated', async () => {
    const server = new TestServer(0, 'rv:20', 10);
    const result = await new ListPager(server.paged, { pageSize: 10 }).list({}, signal);
    expect(result).toEqual({ list: { metadata: { resourceVersion: 'rv:20' }, items: [] }, paginated: false });
  });

  it('returns one page of fewer than limit items unchanged', async () => {
    const server = new TestServer(9, 'rv:20', 10);
    const result = await new ListPager(server.paged, { pageSize: 10 }).list({}, signal);
    expect(result.list.items).toEqual(items(9));
    expect(result.paginated).toBe(false);
  });

  it('returns one full page unchanged', async () => {
    const server = new TestServer(10, 'rv:20', 10);
    const result = await new ListPager(server.paged, { pageSize: 10 }).list({}, signal);
    expect(result.list.items).toEqual(items(10));
    expect(result.paginated).toBe(false);
  });

  it('concatenates two pages and reports paginated', async () => {
    const server = new TestServer(11, 'rv:20', 10);
    const result = await new ListPager(server.paged, { pageSize: 10 }).list({}, signal);
    expect(result).toEqual({
      list: { metadata: { resourceVersion: 'rv:20' }, items: items(11) },
      paginated: true,
    });
  });

  it('concatenates three pages', async () => {
    const server = new TestServer(21, 'rv:20', 10);
    const result = await new ListPager(server.paged, { pageSize: 10 }).list({}, signal);
    expect(result.list.items).toEqual(items(21));
    expect(result.list.metadata.continue).toBeUndefined();
    expect(server.calls.map((call) => call.continue)).toEqual([undefined, 'rv:20:10', 'rv:20:20']);
  });

  it('fails with the 410 of a continue page when full lists are off', async () => {
    const server = new TestServer(21, 'rv:20', 10);
    const pager = new ListPager(server.expiresOnSecondPage, { pageSize: 10, fullListIfExpired: false });
    const failure = await pager.list({}, signal).catch((error: unknown) => error);
    expect(isResourceExpired(failure)).toBe(true);
  });

  it('lists everything in one request when a continue page expires', async () => {
    const server = new TestServer(21, 'rv:20', 10);
    const pager = new ListPager(server.expiresOnSecondPageThenFullList, { pageSize: 10 });
    const result = await pager.list(
      { resourceVersion: 'rv:10', resourceVersionMatch: 'NotOlderThan' },
      signal,
    );
    expect(result.list.items).toEqual(items(21));
    expect(result.paginated).toBe(true);
    expect(server.calls[2]).toEqual({ resourceVersion: 'rv:10', resourceVersionMatch: 'NotOlderThan' });
  });

  it('clears resourceVersion on continue pages', async () => {
    const server = new TestServer(11, 'rv:20', 10);
    await new ListPager(server.paged, { pageSize: 10 }).list({ resourceVersion: 'rv:10' }, signal);
    expect(server.calls).toEqual([
      { resourceVersion: 'rv:10', limit: 10 },
      { limit: 10, continue: 'rv:20:10' },
    ]);
  });

  it('clears resourceVersion and resourceVersionMatch on continue pages', async () => {
    const server = new TestServer(11, 'rv:20', 10);
    const options: ListOptions = { resourceVersion: 'rv:10', resourceVersionMatch: 'NotOlderThan' };
    await new ListPager(server.paged, { pageSize: 10 }).list(options, signal);
    expect(server.calls[1]).toEqual({ limit: 10, continue: 'rv:20:10' });
    expect(options).toEqual({ resourceVersion: 'rv:10', resourceVersionMatch: 'NotOlderThan' });
  });
});

describe('ListPager options', () => {
  it('pages by 500 by default', async () => {
    const server = new TestServer(3, '7', defaultPageSize);
    await new ListPager(server.paged).list({}, signal);
    expect(server.calls).toEqual([{ limit: 500 }]);
  });

  it('sends no limit when the page size is 0', async () => {
    const server = new TestServer(3, '7', 0);
    const result = await new ListPager(server.paged, { pageSize: 0 }).list({ resourceVersion: '5' }, signal);
    expect(server.calls).toEqual([{ resourceVersion: '5' }]);
    expect(result.list.items).toHaveLength(3);
  });

  it("keeps the caller's own limit", async () => {
    const server = new TestServer(3, '7', 2);
    const result = await new ListPager(server.paged, { pageSize: 10 }).list({ limit: 2 }, signal);
    expect(result.list.items).toEqual(items(3));
  });

  it('stops between pages once the signal aborts', async () => {
    const controller = new AbortController();
    const server = new TestServer(21, 'rv:20', 10);
    const pageFunc = async (options: ListOptions) => {
      const page = await server.paged(options);
      controller.abort(new Error('stopped'));
      return page;
    };
    const failure = await new ListPager(pageFunc, { pageSize: 10 })
      .list({}, controller.signal)
      .catch((error: unknown) => error);
    expect(failure).toEqual(new Error('stopped'));
    expect(server.calls).toHaveLength(1);
  });
});
