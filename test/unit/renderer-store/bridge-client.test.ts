import { describe, expect, it } from 'vitest';
import { createInMemoryTransportPair } from '../../../main/bridge/in-memory-transport';
import { FakeClock, flushMicrotasks } from '../../../main/cache/fake-clock';
import { ManualFrameScheduler } from '../../../renderer/store/frame-scheduler';
import { BridgeClient } from '../../../renderer/transport/bridge-client';
import type { BridgeLink } from '../../../renderer/transport/bridge-link';
import type { ClientMessage } from '../../../shared/protocol/client-messages';
import type { MetricsMessage } from '../../../shared/protocol/metrics-messages';
import { splitMetricsMessage } from '../../../shared/protocol/metrics-parts';
import { splitReplyValue } from '../../../shared/protocol/reply-parts';
import type { ServerMessage } from '../../../shared/protocol/server-messages';
import { row } from '../bridge/fixtures';

const pods = { group: '', version: 'v1', resource: 'pods' };

/** A client wired to a scripted main that answers every request with ok and records what it got. */
function scripted(
  options: {
    failOpens?: number;
    holdHello?: boolean;
    /** Answers a request itself (true), else it is answered ok with null. */
    answer?: (request: ClientMessage, send: (message: ServerMessage) => void) => boolean;
  } = {},
) {
  const heldReplies: (() => void)[] = [];
  const clock = new FakeClock();
  const scheduler = new ManualFrameScheduler();
  const received: ClientMessage[] = [];
  const mains: ((message: ServerMessage) => void)[] = [];
  const ends: ReturnType<typeof createInMemoryTransportPair>[] = [];
  let failures = options.failOpens ?? 0;
  const client = new BridgeClient({
    scheduler,
    timers: {
      now: () => clock.now(),
      setTimeout: (callback, delay) => clock.setTimeout(callback, delay),
      clearTimeout: (timer) => (timer as { stop(): void }).stop(),
    },
    open: async () => {
      if (failures-- > 0) throw new Error('main is not up yet');
      const pair = createInMemoryTransportPair();
      ends.push(pair);
      pair.server.onMessage((message) => {
        const request = message as ClientMessage;
        received.push(request);
        if ('requestId' in request && request.requestId !== undefined) {
          const requestId = request.requestId;
          const reply = () => pair.server.send({ type: 'reply', requestId, ok: true, value: null });
          if (options.answer?.(request, (message) => pair.server.send(message))) return;
          if (options.holdHello && request.type === 'hello') heldReplies.push(reply);
          else reply();
        }
      });
      mains.push((message) => pair.server.send(message));
      return pair.client as unknown as BridgeLink;
    },
  });
  const settle = async () => {
    for (let round = 0; round < 5; round++) await flushMicrotasks();
    scheduler.runFrame();
    await flushMicrotasks();
  };
  return {
    client,
    clock,
    scheduler,
    received,
    settle,
    main: (message: ServerMessage) => mains.at(-1)!(message),
    ends,
    releaseHello: () => heldReplies.splice(0).forEach((reply) => reply()),
  };
}

describe('BridgeClient', () => {
  it('asks for a resnapshot when a batch is missing, and acknowledges what it applied', async () => {
    const { client, received, settle, main } = scripted();
    client.start();
    await settle();
    const id = await client.subscribe(pods);
    main({
      type: 'batch',
      subscriptionId: id,
      seq: 1,
      replace: true,
      snapshotEnd: true,
      upserts: [row('a')],
      deletes: [],
    });
    main({ type: 'batch', subscriptionId: id, seq: 3, upserts: [row('c')], deletes: [] });
    await settle();
    expect(received.filter((message) => message.type === 'ack' || message.type === 'resnapshot')).toEqual([
      { type: 'resnapshot', subscriptionId: id },
      { type: 'ack', subscriptionId: id, seq: 1 },
    ]);
    expect([...client.store.mirror(id)!.rows.keys()]).toEqual(['a']);
  });

  it('retries a failed connection with growing delays and reports when it will retry', async () => {
    const { client, clock, settle } = scripted({ failOpens: 2 });
    client.start();
    await settle();
    expect(client.state.getState().connection).toEqual({
      phase: 'connecting',
      retryAt: clock.now() + 500,
      error: 'main is not up yet',
    });
    await clock.stepAsync(500);
    expect(client.state.getState().connection.retryAt).toBe(clock.now() + 1_000);
    await clock.stepAsync(1_000);
    await settle();
    expect(client.state.getState().connection.phase).toBe('open');
  });

  it('says hello again after a loss, resuming each subscription from its last applied seq', async () => {
    const { client, received, settle, main, ends, clock } = scripted();
    client.start();
    await settle();
    const id = await client.subscribe(pods);
    main({
      type: 'batch',
      subscriptionId: id,
      seq: 1,
      replace: true,
      snapshotEnd: true,
      upserts: [row('a')],
      deletes: [],
    });
    await settle();
    ends[0].client.close('lost');
    await clock.stepAsync(500);
    await settle();
    expect(received.filter((message) => message.type === 'hello').at(-1)).toMatchObject({
      resume: [{ subscriptionId: id, gvr: pods, lastSeq: 1 }],
    });
  });

  it('routes log messages by stream, and opens each log stream again when the link comes back', async () => {
    const { client, clock, received, settle, ends, main } = scripted();
    client.start();
    await settle();
    const target = { kind: 'pod' as const, namespace: 'shop', name: 'web-1', container: 'web' };
    const messages: string[] = [];
    let reopened = 0;
    const stream = client.openLogs(
      target,
      { follow: true, previous: false },
      (message) => messages.push(message.type === 'logNote' ? message.kind : message.type),
      () => reopened++,
    );
    await stream.opened;
    const open = received.find((message) => message.type === 'openLogs')!;
    const streamId = (open as { streamId: string }).streamId;
    main({ type: 'logLines', streamId, lines: [] });
    main({ type: 'logLines', streamId: 'someone-else', lines: [] });
    await settle();
    expect(messages).toEqual(['logLines']);
    ends[0].client.close('lost');
    expect(messages).toEqual(['logLines', 'reconnecting']);
    await clock.stepAsync(500);
    await settle();
    expect(reopened).toBe(1);
    expect(received.filter((message) => message.type === 'openLogs').at(-1)).toMatchObject({
      streamId,
      target,
    });
    stream.close();
    await settle();
    expect(received.at(-1)).toEqual({ type: 'closeLogs', streamId });
  });

  it('rejects requests in flight when the link drops', async () => {
    const { client, settle, ends } = scripted();
    client.start();
    await settle();
    ends[0].server.onMessage(() => {});
    const pending = client.listContexts();
    ends[0].client.close('lost');
    await expect(pending).rejects.toThrow(/connection to main lost: lost/);
  });

  /** A started client told context `one` (session 1), its pods mirrored with one row. */
  async function mirroringOnePod() {
    const script = scripted();
    script.client.start();
    await script.settle();
    script.main({ type: 'contexts', current: 'one', session: 1, contexts: [] });
    const id = await script.client.subscribe(pods);
    script.main({
      type: 'batch',
      subscriptionId: id,
      seq: 1,
      replace: true,
      snapshotEnd: true,
      upserts: [row('a')],
      deletes: [],
    });
    await script.settle();
    return { ...script, id };
  }

  it('resubscribes every mirrored kind when main reports a new current context', async () => {
    const { client, received, settle, main, id } = await mirroringOnePod();
    main({ type: 'contexts', current: 'two', session: 2, contexts: [] });
    await settle();
    expect(received.filter((message) => message.type === 'subscribe')).toHaveLength(2);
    expect(client.store.mirror(id)!.rows.size).toBe(0);
    expect(client.state.getState().contexts?.current).toBe('two');
  });

  it('resubscribes and reopens its logs when main opens the same context anew, not when only the context list changed', async () => {
    const { client, received, settle, main, id } = await mirroringOnePod();
    const subscribes = () => received.filter((message) => message.type === 'subscribe').length;
    // The kubeconfig gained a context: the same session, told the new list.
    main({ type: 'contexts', current: 'one', session: 1, contexts: [{ name: 'one', cluster: 'c' }] });
    await settle();
    expect(subscribes()).toBe(1);
    expect(client.store.mirror(id)!.rows.size).toBe(1);
    const target = { kind: 'pod' as const, namespace: 'shop', name: 'web-1', container: 'web' };
    let reopened = 0;
    await client.openLogs(
      target,
      { follow: true, previous: false },
      () => {},
      () => reopened++,
    ).opened;
    const logOpens = () => received.filter((message) => message.type === 'openLogs').length;
    // The context's kubeconfig entry changed: main opened it anew, its log streams ended with the old.
    main({ type: 'contexts', current: 'one', session: 2, contexts: [{ name: 'one', cluster: 'c' }] });
    await settle();
    expect(subscribes()).toBe(2);
    expect(client.store.mirror(id)!.rows.size).toBe(0);
    expect(reopened).toBe(1);
    expect(logOpens()).toBe(2);
    // A switch to another context does not reopen it: its pod is not there.
    main({ type: 'contexts', current: 'two', session: 3, contexts: [] });
    await settle();
    expect(logOpens()).toBe(2);
  });
});

describe('BridgeClient metrics', () => {
  it('keeps a metrics message sent in parts once it is whole, as if it had come in one', async () => {
    const { client, settle, main } = scripted();
    client.start();
    await settle();
    const keys = Array.from({ length: 25 }, (_, index) => `shop/web-${index}`);
    const whole: MetricsMessage = {
      type: 'metrics',
      resource: 'pods',
      availability: 'served',
      timestamp: 5_000,
      keys,
      cpu: keys.map((_, index) => index / 1000),
      memory: keys.map(() => 1024),
    };
    const parts = splitMetricsMessage(whole, 1, 10);
    for (const part of parts.slice(0, 2)) main(part);
    await settle();
    expect(client.metrics.of('pods').availability).toBeUndefined();
    main(parts[2]!);
    await settle();
    const latest = client.metrics.of('pods').latest;
    expect(latest.size).toBe(25);
    // The sample history keeps values as 32-bit floats.
    expect(latest.get('shop/web-24')).toEqual({ time: 5_000, cpu: Math.fround(0.024), memory: 1024 });
  });
});

describe("BridgeClient and a past moment's metrics", () => {
  it('joins an answer sent in parts into the answer, and withdraws a question for a moment left', async () => {
    const keys = Array.from({ length: 25 }, (_, index) => `shop/web-${index}`);
    const answer = {
      timestamp: 5_000,
      windowMs: 15_000,
      keys,
      cpu: keys.map((_, index) => index / 1000),
      memory: keys.map(() => 1024),
    };
    const { head, parts } = splitReplyValue(answer, { fields: ['keys', 'cpu', 'memory'], itemsPerPart: 10 })!;
    const { client, settle, received } = scripted({
      answer: (request, send) => {
        if (request.type !== 'historyMetrics') return false;
        // The question for 1 s is left unanswered; any other is answered in parts.
        if (request.time === 1_000) return true;
        parts.forEach((value, index) =>
          send({ type: 'replyPart', requestId: request.requestId, index, value }),
        );
        send({ type: 'reply', requestId: request.requestId, ok: true, value: head });
        return true;
      },
    });
    client.start();
    await settle();
    const joined = client.history({ type: 'historyMetrics', resource: 'pods', time: 2_000 });
    await settle();
    expect(await joined).toEqual(answer);
    // The view moves on from 1 s before it is answered: main is told to withdraw that question.
    client.metrics.past.load('pods', 1_000);
    client.metrics.past.load('pods', 3_000);
    await settle();
    const first = received.find((message) => message.type === 'historyMetrics' && message.time === 1_000) as {
      requestId: number;
    };
    expect(received.filter((message) => message.type === 'historyWithdraw')).toEqual([
      { type: 'historyWithdraw', requestId: expect.any(Number), withdrawnRequestId: first.requestId },
    ]);
  });
});

describe('BridgeClient subscriptions made before the connection is open', () => {
  it('sends those made while hello was in flight once it has been answered', async () => {
    const { client, received, settle, releaseHello } = scripted({ holdHello: true });
    client.start();
    await settle();
    expect(received.map((message) => message.type)).toEqual(['hello']);
    const id = await client.subscribe(pods);
    releaseHello();
    await settle();
    const sent = received.filter((message) => message.type === 'hello' || message.type === 'subscribe');
    const mentioned = sent.flatMap((message) =>
      message.type === 'hello'
        ? (message.resume ?? []).map((entry) => entry.subscriptionId)
        : [message.subscriptionId],
    );
    expect(mentioned).toEqual([id]);
  });

  it('acknowledges, once hello is answered, the batches of resumed subscriptions applied before', async () => {
    const { client, received, settle, main, releaseHello } = scripted({ holdHello: true });
    // Subscribed before the link is up: the subscription goes in hello's resume list.
    const subscribed = client.subscribe(pods);
    client.start();
    await settle();
    const id = await subscribed;
    expect(received.map((message) => message.type)).toEqual(['hello']);
    // Main resumes it before answering hello: its snapshot's first batches come first.
    main({ type: 'batch', subscriptionId: id, seq: 1, replace: true, upserts: [row('a')], deletes: [] });
    main({ type: 'batch', subscriptionId: id, seq: 2, upserts: [row('b')], deletes: [] });
    await settle();
    expect(client.store.mirror(id)!.lastSeq).toBe(2);
    expect(received.filter((message) => message.type === 'ack')).toEqual([]);
    releaseHello();
    await settle();
    expect(received.filter((message) => message.type === 'ack')).toEqual([
      { type: 'ack', subscriptionId: id, seq: 2 },
    ]);
  });
});
