import { afterEach, describe, expect, it } from 'vitest';
import { BridgeHost } from '../../../main/bridge/bridge-host';
import { ClusterSession } from '../../../main/bridge/cluster-session';
import { createInMemoryTransportPair } from '../../../main/bridge/in-memory-transport';
import { FakeClock, flushMicrotasks } from '../../../main/cache/fake-clock';
import type { ServerMessage } from '../../../shared/protocol/server-messages';
import { FakeApi, pod } from './fake-api';

const pods = { group: '', version: 'v1', resource: 'pods' };
const hosts: BridgeHost[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
});

function connect() {
  const clock = new FakeClock();
  const apis = new Map([
    ['one', new FakeApi()],
    ['two', new FakeApi()],
  ]);
  apis.get('two')!.apply(pod('default', 'from-two'));
  const open = (context: string) =>
    new ClusterSession({ context, clock, newListerWatcher: () => apis.get(context)!.listerWatcher() });
  const logged: string[] = [];
  const host = new BridgeHost({
    session: open('one'),
    listContexts: () => [...apis.keys()].map((name) => ({ name, cluster: name })),
    openSession: async (context) => {
      if (!apis.has(context)) throw new Error(`context ${context} not found`);
      return open(context);
    },
    log: (message) => logged.push(message),
  });
  hosts.push(host);
  const pair = createInMemoryTransportPair();
  host.accept(pair.server);
  const received: ServerMessage[] = [];
  pair.client.onMessage((message) => received.push(message));
  const send = async (message: unknown) => {
    pair.client.send(message);
    await flushMicrotasks();
    await flushMicrotasks();
  };
  const replyTo = (requestId: number) =>
    received.find((message) => message.type === 'reply' && message.requestId === requestId);
  return { clock, host, received, send, replyTo, logged };
}

describe('BridgeConnection', () => {
  it('refuses anything before hello, saying why', async () => {
    const { send, replyTo, logged } = connect();
    await send({ type: 'listContexts', requestId: 1 });
    expect(replyTo(1)).toEqual({
      type: 'reply',
      requestId: 1,
      ok: false,
      error: { code: 400, reason: 'BadRequest', message: 'listContexts before hello' },
    });
    expect(logged[0]).toMatch(/refused a message: listContexts before hello/);
  });

  it('answers hello with the protocol version, then pushes contexts and kinds', async () => {
    const { send, received } = connect();
    await send({ type: 'hello', requestId: 1, protocolVersion: 1 });
    expect(received.map((message) => message.type)).toEqual(['contexts', 'kinds', 'reply']);
    expect(received[0]).toMatchObject({ current: 'one', contexts: [{ name: 'one' }, { name: 'two' }] });
    expect(received[2]).toEqual({ type: 'reply', requestId: 1, ok: true, value: { protocolVersion: 1 } });
  });

  it('refuses a hello of another protocol version', async () => {
    const { send, replyTo } = connect();
    await send({ type: 'hello', requestId: 1, protocolVersion: 2 });
    expect(replyTo(1)).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/protocol version 2/) },
    });
  });

  it('replies to a malformed request with the validator reason, and rejects one without an id', async () => {
    const { send, replyTo, received } = connect();
    await send({ type: 'hello', requestId: 1, protocolVersion: 1 });
    await send({
      type: 'subscribe',
      requestId: 2,
      subscriptionId: 's',
      gvr: { group: '', version: 'v1', resource: 'Pods' },
    });
    expect(replyTo(2)).toMatchObject({ ok: false, error: { message: 'gvr.resource "Pods" is malformed' } });
    await send('junk');
    expect(received.at(-1)).toEqual({ type: 'rejected', reason: 'message must be an object' });
  });

  it('refuses a subscription id already in use on the connection', async () => {
    const { send, replyTo } = connect();
    await send({ type: 'hello', requestId: 1, protocolVersion: 1 });
    await send({ type: 'subscribe', requestId: 2, subscriptionId: 's', gvr: pods });
    await send({ type: 'subscribe', requestId: 3, subscriptionId: 's', gvr: pods });
    expect(replyTo(2)).toMatchObject({ ok: true });
    expect(replyTo(3)).toMatchObject({
      ok: false,
      error: { message: 'subscription s already exists on this connection' },
    });
  });

  it('resumes subscriptions named in hello with a snapshot numbered after their lastSeq', async () => {
    const { send, received, clock } = connect();
    await send({
      type: 'hello',
      requestId: 1,
      protocolVersion: 1,
      resume: [{ subscriptionId: 's', gvr: pods, lastSeq: 17 }],
    });
    await clock.stepAsync(100);
    const batch = received.find((message) => message.type === 'batch');
    expect(batch).toMatchObject({ subscriptionId: 's', seq: 18, replace: true, snapshotEnd: true });
  });

  it('switches context: drops subscriptions, pushes the new context, serves the new cluster', async () => {
    const { send, received, replyTo, host, clock } = connect();
    await send({ type: 'hello', requestId: 1, protocolVersion: 1 });
    await send({ type: 'subscribe', requestId: 2, subscriptionId: 's', gvr: pods });
    await send({ type: 'switchContext', requestId: 3, context: 'two' });
    await clock.stepAsync(0);
    expect(replyTo(3)).toMatchObject({ ok: true });
    expect(host.session.context).toBe('two');
    expect(received.filter((message) => message.type === 'contexts').at(-1)).toMatchObject({
      current: 'two',
    });
    received.length = 0;
    await send({ type: 'subscribe', requestId: 4, subscriptionId: 's', gvr: pods });
    await clock.stepAsync(100);
    const batches = received.filter((message) => message.type === 'batch');
    expect(batches.flatMap((batch) => batch.upserts.map((row) => row.name))).toEqual(['from-two']);
  });

  it('keeps the current context when switching to an unknown one fails', async () => {
    const { send, replyTo, host } = connect();
    await send({ type: 'hello', requestId: 1, protocolVersion: 1 });
    await send({ type: 'switchContext', requestId: 2, context: 'nope' });
    expect(replyTo(2)).toMatchObject({ ok: false, error: { message: 'context nope not found' } });
    expect(host.session.context).toBe('one');
  });
});

describe('manual resync', () => {
  it('relists and then sends every subscriber a fresh snapshot', async () => {
    const clock = new FakeClock();
    const api = new FakeApi();
    api.apply(pod('default', 'a'));
    api.apply(pod('default', 'b'));
    const host = new BridgeHost({
      session: new ClusterSession({ context: 'one', clock, newListerWatcher: () => api.listerWatcher() }),
      listContexts: () => [],
      openSession: () => Promise.reject(new Error('one context')),
      log: () => {},
    });
    hosts.push(host);
    const pair = createInMemoryTransportPair();
    host.accept(pair.server);
    const received: ServerMessage[] = [];
    pair.client.onMessage((message) => received.push(message));
    pair.client.send({ type: 'hello', requestId: 1, protocolVersion: 1 });
    pair.client.send({ type: 'subscribe', requestId: 2, subscriptionId: 's', gvr: pods });
    await clock.stepAsync(500);
    api.remove('default', 'a');
    await clock.stepAsync(500);
    const listsBefore = api.lists;
    received.length = 0;
    pair.client.send({ type: 'resync', requestId: 3, subscriptionId: 's' });
    await clock.stepAsync(500);
    expect(api.lists).toBe(listsBefore + 1);
    const snapshot = received.find((message) => message.type === 'batch' && message.replace);
    expect(snapshot).toMatchObject({ snapshotEnd: true });
    expect(snapshot?.type === 'batch' && snapshot.upserts.map((row) => row.key)).toEqual(['default/b']);
  });
});
