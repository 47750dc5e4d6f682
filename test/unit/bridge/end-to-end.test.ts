import { afterEach, describe, expect, it } from 'vitest';
import { ClusterSession } from '../../../main/bridge/cluster-session';
import { FakeClock } from '../../../main/cache/fake-clock';
import { connectInMemory } from '../../support/in-memory-bridge';
import { FakeApi, pod } from './fake-api';
import { seededRandom } from './fixtures';

const pods = { group: '', version: 'v1', resource: 'pods' };
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function setUp(api: FakeApi) {
  const clock = new FakeClock();
  const session = new ClusterSession({
    context: 'test',
    newListerWatcher: () => api.listerWatcher(),
    clock,
    batch: { maxBatchRows: 50 },
  });
  const { host, client, settle, links, close } = connectInMemory(session, clock);
  cleanups.push(close);
  return { clock, session, host, client, settle, links };
}

describe('bridge end to end', () => {
  it('mirrors the informer cache in the renderer after churn', async () => {
    const api = new FakeApi();
    for (let index = 0; index < 120; index++)
      api.apply(pod(`ns${index % 3}`, `p${index}`, { app: `a${index % 4}` }));
    const { client, settle, session } = setUp(api);
    client.start();
    await settle(2);
    const subscriptionId = await client.subscribe(pods);
    await settle();
    expect(client.store.mirror(subscriptionId)!.rows.size).toBe(120);

    const random = seededRandom(5);
    for (let step = 0; step < 400; step++) {
      const name = `p${Math.floor(random() * 160)}`;
      const namespace = `ns${Math.floor(random() * 3)}`;
      if (random() < 0.3) api.remove(namespace, name);
      else api.apply(pod(namespace, name, { app: `a${step % 5}` }, `n${step % 3}`));
      if (step % 25 === 0) await settle(1);
    }
    await settle();

    const mirror = client.store.mirror(subscriptionId)!;
    const cache = session.feeds.find(pods, '')!;
    const expected = new Map([...api.objects].map(([key, object]) => [key, object.metadata.resourceVersion]));
    expect(new Map([...mirror.rows].map(([key, row]) => [key, row.resourceVersion]))).toEqual(expected);
    expect(new Map(cache.rows().map((row) => [row.key, row.resourceVersion]))).toEqual(expected);
    expect(client.state.getState().syncStates[subscriptionId]?.phase).toBe('synced');
  });

  it('resumes after a lost connection with a snapshot that continues the sequence', async () => {
    const api = new FakeApi();
    api.apply(pod('default', 'a'));
    const { client, settle, links } = setUp(api);
    client.start();
    await settle(2);
    const subscriptionId = await client.subscribe(pods);
    await settle();
    const before = client.store.mirror(subscriptionId)!.lastSeq;
    links[0].client.close('network blip');
    api.apply(pod('default', 'b'));
    api.remove('default', 'a');
    await settle(40);
    expect(links).toHaveLength(2);
    const mirror = client.store.mirror(subscriptionId)!;
    expect([...mirror.rows.keys()]).toEqual(['default/b']);
    expect(mirror.lastSeq).toBeGreaterThan(before);
    expect(client.state.getState().connection.phase).toBe('open');
  });

  it('stops the informer a quiet period after the last subscription leaves', async () => {
    const api = new FakeApi();
    const { client, settle, session, clock } = setUp(api);
    client.start();
    await settle(2);
    const subscriptionId = await client.subscribe(pods);
    await settle(2);
    expect(session.feeds.find(pods, '')).toBeDefined();
    client.unsubscribe(subscriptionId);
    await settle(2);
    await clock.stepAsync(60_000);
    expect(session.feeds.find(pods, '')).toBeUndefined();
  });

  it('serves getObject from the cache with managedFields stripped', async () => {
    const api = new FakeApi();
    api.apply({
      ...pod('default', 'a'),
      metadata: { namespace: 'default', name: 'a', managedFields: [{ manager: 'kubectl' }] },
    });
    const { client, settle } = setUp(api);
    client.start();
    await settle(2);
    await client.subscribe(pods);
    await settle();
    const object = client.getObject(pods, 'default', 'a');
    await settle(1);
    expect((await object).metadata).not.toHaveProperty('managedFields');
    const missing = expect(client.getObject(pods, 'default', 'zzz')).rejects.toMatchObject({
      error: { code: 404, reason: 'NotFound' },
    });
    await settle(1);
    await missing;
  });
});
