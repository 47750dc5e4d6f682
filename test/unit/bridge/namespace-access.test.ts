// The fallback from a forbidden cluster scope to per-namespace informers, and their merge: which
// namespaces are tried, what the rules allow, the one sync state a union shows, and a union of real
// Feeds over an API that refuses the cluster scope (as the sim's namespace-limited user meets it).
import { describe, expect, it } from 'vitest';
import { ClusterSession } from '../../../main/bridge/cluster-session';
import { mergeSyncStates } from '../../../main/bridge/merged-sync-state';
import { NamespaceAccess, allowsListAndWatch, kindAccessIn } from '../../../main/bridge/namespace-access';
import type { AccessAwareFeed } from '../../../main/bridge/access-aware-feed';
import { FakeClock } from '../../../main/cache/fake-clock';
import type { ListerWatcher, Watcher } from '../../../main/cache/lister-watcher';
import type { SubjectRules } from '../../../main/kube/self-subject-rules';
import type { GroupVersionResource } from '../../../shared/kube/object';
import { StatusError, newStatus } from '../../../shared/kube/status';
import { FakeApi, pod } from './fake-api';

const pods: GroupVersionResource = { group: '', version: 'v1', resource: 'pods' };
const secrets: GroupVersionResource = { group: '', version: 'v1', resource: 'secrets' };
const nodes: GroupVersionResource = { group: '', version: 'v1', resource: 'nodes' };
const denied = { code: 403, reason: 'Forbidden', message: 'pods is forbidden: at the cluster scope' };

const viewRules: SubjectRules = {
  resourceRules: [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods', 'events'] }],
  incomplete: false,
};
const basicRules: SubjectRules = {
  resourceRules: [
    { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectrulesreviews'] },
  ],
  incomplete: false,
};

describe('what the rules allow', () => {
  it('needs list and watch on the resource, from one rule or several, never by resource name', () => {
    expect(allowsListAndWatch(viewRules.resourceRules, pods)).toBe(true);
    expect(allowsListAndWatch(viewRules.resourceRules, secrets)).toBe(false);
    const split = [
      { verbs: ['list'], apiGroups: [''], resources: ['pods'] },
      { verbs: ['watch'], apiGroups: ['*'], resources: ['*'] },
    ];
    expect(allowsListAndWatch(split, pods)).toBe(true);
    const named = [{ verbs: ['list', 'watch'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }];
    expect(allowsListAndWatch(named, pods)).toBe(false);
  });

  it('counts a missing rule as a denial only when the server says its list is complete', () => {
    expect(kindAccessIn(basicRules, pods)).toBe('denied');
    expect(kindAccessIn({ ...basicRules, incomplete: true }, pods)).toBe('unknown');
    expect(kindAccessIn(undefined, pods)).toBe('unknown');
  });
});

describe('NamespaceAccess', () => {
  it('tries the context namespace and the typed ones, dropping names that cannot be namespaces', () => {
    const saved: string[][] = [];
    const access = new NamespaceAccess({
      contextNamespace: 'default',
      list: { load: () => ['shop'], save: (names) => saved.push([...names]) },
    });
    expect(access.candidates()).toEqual(['default', 'shop']);
    access.setAddedNamespaces(['payments', 'Not A Namespace', 'shop', 'payments']);
    expect(access.candidates()).toEqual(['default', 'payments', 'shop']);
    expect(saved).toEqual([['payments', 'shop']]);
  });

  it('leaves out namespaces whose rules refuse the kind, and keeps those the server will not judge', async () => {
    const rules = async (namespace: string): Promise<SubjectRules> => {
      if (namespace === 'alpha') return viewRules;
      if (namespace === 'beta') return basicRules;
      throw new StatusError(newStatus(404, 'NotFound', 'not served'));
    };
    const access = new NamespaceAccess({ contextNamespace: 'alpha', rules });
    access.setAddedNamespaces(['beta', 'gamma']);
    expect(await access.readableNamespaces(pods)).toEqual(['alpha', 'gamma']);
  });

  it('asks SelfSubjectAccessReview where the rules are incomplete', async () => {
    const incomplete = async () => ({ ...basicRules, incomplete: true });
    const asked: string[] = [];
    const review = async (namespace: string, verb: string, gvr: GroupVersionResource) => {
      asked.push(`${verb} ${gvr.resource} in ${namespace || 'all'}`);
      return namespace === 'alpha';
    };
    const access = new NamespaceAccess({ contextNamespace: 'alpha', rules: incomplete, review });
    access.setAddedNamespaces(['beta']);
    expect(await access.readableNamespaces(pods)).toEqual(['alpha']);
    expect(await access.clusterAccess(pods)).toBe('denied');
    expect(asked.sort()).toEqual([
      'list pods in all',
      'list pods in alpha',
      'list pods in beta',
      'watch pods in all',
      'watch pods in alpha',
      'watch pods in beta',
    ]);
  });

  it('marks a kind denied only when no scope it could be read in allows it', async () => {
    const rules = async (namespace: string) => (namespace === 'alpha' ? viewRules : basicRules);
    const access = new NamespaceAccess({ contextNamespace: 'alpha', rules });
    expect(await access.kindAccess(pods, true)).toBe('allowed');
    expect(await access.kindAccess(secrets, true)).toBe('denied');
    expect(await access.kindAccess(nodes, false)).toBe('denied');
  });
});

describe('the merged sync state', () => {
  it('is listing while any member lists, with the counts summed', () => {
    expect(
      mergeSyncStates(
        [
          { phase: 'synced' },
          { phase: 'listing', listed: 3, total: 10 },
          { phase: 'listing', listed: 2, total: 5 },
        ],
        denied,
      ),
    ).toEqual({ phase: 'listing', listed: 5, total: 15 });
  });

  it('is synced when every member that can be served is, whatever the refused ones say', () => {
    const refused = { phase: 'error' as const, error: { code: 403, message: 'pods is forbidden in gamma' } };
    expect(mergeSyncStates([{ phase: 'synced' }, refused], denied)).toEqual({ phase: 'synced' });
  });

  it('shows the earliest failing member', () => {
    const late = { phase: 'reconnecting' as const, since: 20, retryAt: 30 };
    const early = { phase: 'reconnecting' as const, since: 10, retryAt: 40 };
    expect(mergeSyncStates([{ phase: 'synced' }, late, early], denied)).toEqual(early);
  });

  it('is the cluster refusal, with what to do, when there is no member or every one is refused', () => {
    const none = mergeSyncStates([], denied);
    expect(none.phase).toBe('error');
    expect(none.error?.code).toBe(403);
    expect(none.error?.message).toBe(
      'pods is forbidden: at the cluster scope; add namespaces you can read in the namespace picker',
    );
    expect(mergeSyncStates([], denied, ['default', 'shop']).error?.message).toBe(
      'pods is forbidden: at the cluster scope, nor in default, shop; add namespaces you can read in the namespace picker',
    );
    const refused = { phase: 'error' as const, error: { code: 403, message: 'no' } };
    expect(mergeSyncStates([refused, refused], denied)).toEqual({ phase: 'error', error: denied });
  });
});

/** The API as a namespace-limited user sees it: namespaces in `readable` only, never the cluster scope. */
function limitedListerWatcher(api: FakeApi, namespace: string, readable: readonly string[]): ListerWatcher {
  const inner = api.listerWatcher();
  const refuse = () => {
    const where = namespace ? `in the namespace "${namespace}"` : 'at the cluster scope';
    throw new StatusError(
      newStatus(
        403,
        'Forbidden',
        `pods is forbidden: User "jane" cannot list resource "pods" in API group "" ${where}`,
      ),
    );
  };
  return {
    supportsWatchList: false,
    list: async (options, signal) => {
      if (!readable.includes(namespace)) refuse();
      const list = await inner.list(options, signal);
      return { ...list, items: list.items.filter((item) => item.metadata.namespace === namespace) };
    },
    watch: async (options, signal) => {
      if (!readable.includes(namespace)) refuse();
      const watcher = await inner.watch(options, signal);
      return {
        stop: () => watcher.stop(),
        async *[Symbol.asyncIterator]() {
          for await (const event of watcher)
            if (
              event.type === 'BOOKMARK' ||
              (event.object as { metadata: { namespace?: string } }).metadata.namespace === namespace
            )
              yield event;
        },
      } satisfies Watcher;
    },
  };
}

function limitedSession(
  api: FakeApi,
  readable: readonly string[],
  access: NamespaceAccess,
  scopes: string[] = [],
) {
  const clock = new FakeClock();
  const session = new ClusterSession({
    context: 'limited',
    clock,
    access,
    newListerWatcher: (_gvr, namespace) => {
      scopes.push(namespace);
      return limitedListerWatcher(api, namespace, readable);
    },
    reflector: { backoff: () => 1_000 },
    log: () => undefined,
  });
  return { session, clock };
}

describe('a union of per-namespace informers', () => {
  it('serves the readable namespaces when the cluster scope is forbidden, and follows added ones', async () => {
    const api = new FakeApi();
    for (const namespace of ['alpha', 'beta', 'gamma']) api.apply(pod(namespace, `web-${namespace}`));
    const access = new NamespaceAccess({ contextNamespace: 'alpha' });
    const { session, clock } = limitedSession(api, ['alpha', 'beta'], access);
    const union = session.feeds.acquire(pods, '') as AccessAwareFeed;
    await clock.stepAsync(0);
    await clock.stepAsync(500);
    expect(union.memberNamespaces).toEqual(['alpha']);
    expect(union.rows().map((row) => row.key)).toEqual(['alpha/web-alpha']);
    expect(union.syncState()).toEqual({ phase: 'synced', namespaces: ['alpha'] });

    session.setAddedNamespaces(['beta']);
    await clock.stepAsync(0);
    await clock.stepAsync(500);
    expect(
      union
        .rows()
        .map((row) => row.key)
        .sort(),
    ).toEqual(['alpha/web-alpha', 'beta/web-beta']);
    // A subscription to one namespace gets the union's member, not another informer.
    expect(session.feeds.acquire(pods, 'beta')).toBe(session.feeds.find(pods, 'beta'));
    expect(session.feeds.references(pods, 'beta')).toBe(2);

    api.apply(pod('beta', 'api'));
    await clock.stepAsync(0);
    await clock.stepAsync(100);
    expect(union.count).toBe(3);
    await session.close();
  });

  it('stays synced when a typed namespace is refused, and marks a kind refused everywhere', async () => {
    const api = new FakeApi();
    api.apply(pod('alpha', 'web'));
    const access = new NamespaceAccess({ contextNamespace: 'alpha' });
    access.setAddedNamespaces(['gamma']);
    const { session, clock } = limitedSession(api, ['alpha'], access);
    const union = session.feeds.acquire(pods, '');
    await clock.stepAsync(0);
    await clock.stepAsync(500);
    expect(union.syncState()).toEqual({ phase: 'synced', namespaces: ['alpha'] });
    expect(union.count).toBe(1);
    await session.close();

    const nowhere = limitedSession(api, [], new NamespaceAccess({ contextNamespace: 'alpha' }));
    const refused = nowhere.session.feeds.acquire(pods, '');
    await nowhere.clock.stepAsync(0);
    await nowhere.clock.stepAsync(500);
    expect(refused.syncState().phase).toBe('error');
    expect(nowhere.session.kinds().find((kind) => kind.gvr.resource === 'pods')).toMatchObject({
      forbidden: expect.stringContaining('pods is forbidden'),
    });
    expect(nowhere.session.kinds().find((kind) => kind.gvr.resource === 'pods')?.count).toBeUndefined();
    await nowhere.session.close();
  });

  it('goes straight to the namespaces when the rules already refuse the cluster scope', async () => {
    const api = new FakeApi();
    api.apply(pod('alpha', 'web'));
    const rules = async (namespace: string) => (namespace === 'alpha' ? viewRules : basicRules);
    const scopes: string[] = [];
    const { session, clock } = limitedSession(
      api,
      ['alpha'],
      new NamespaceAccess({ contextNamespace: 'alpha', rules }),
      scopes,
    );
    const union = session.feeds.acquire(pods, '');
    const refusedNodes = session.feeds.acquire(nodes, '');
    await clock.stepAsync(0);
    await clock.stepAsync(500);
    expect(union.count).toBe(1);
    // Nodes are cluster-scoped: refused by the rules, they run no informer and show the reason.
    expect(refusedNodes.syncState()).toMatchObject({ phase: 'error', error: { code: 403 } });
    expect(scopes).toEqual(['alpha']);
    await session.close();
  });

  it('asks the rules again on a resync of a kind refused everywhere, once access is granted', async () => {
    const api = new FakeApi();
    api.apply(pod('alpha', 'web'));
    let granted = false;
    const rules = async () => (granted ? viewRules : basicRules);
    const { session, clock } = limitedSession(
      api,
      ['alpha'],
      new NamespaceAccess({ contextNamespace: 'alpha', rules }),
    );
    const feed = session.feeds.acquire(pods, '');
    await clock.stepAsync(0);
    expect(feed.syncState().phase).toBe('error');
    granted = true;
    await feed.resync();
    await clock.stepAsync(0);
    await clock.stepAsync(500);
    expect(feed.syncState()).toEqual({ phase: 'synced', namespaces: ['alpha'] });
    expect(feed.count).toBe(1);
    await session.close();
  });
});
