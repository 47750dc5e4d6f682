import { EventEmitter } from 'node:events';
import { MessageChannel } from 'node:worker_threads';
import type { MessagePortMain } from 'electron';
import { ElectronTransport } from '../../../main/app/electron-transport';
import { encodeRows } from '../../../main/bridge/encoded-rows';
import { EncodedValue, jsonBytes } from '../../../main/bridge/encoded-value';
import type { MessagePort as NodeMessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { BridgeHost } from '../../../main/bridge/bridge-host';
import { ClusterSession } from '../../../main/bridge/cluster-session';
import { createLaunchSecret, listenWebSocketBridge } from '../../../main/bridge/websocket-server';
import { FakeClock } from '../../../main/cache/fake-clock';
import { ManualFrameScheduler } from '../../../renderer/store/frame-scheduler';
import { BridgeClient } from '../../../renderer/transport/bridge-client';
import { linkOverPort, openMessagePortLink } from '../../../renderer/transport/message-port-link';
import type { PortTarget } from '../../../renderer/transport/message-port-link';
import {
  openWebSocketLink,
  webSocketLinkOpener,
  webSocketLinkOptionsFrom,
} from '../../../renderer/transport/websocket-link';
import type { WebSocketConstructor } from '../../../renderer/transport/websocket-link';
import { sessionCookieName } from '../../../shared/protocol/websocket-handshake';
import { FakeApi, pod } from './fake-api';
import { row } from './fixtures';

/** ws's WebSocket sending a session cookie, as a browser does for a page main opened. */
function cookieWebSocket(port: number, secret: string): WebSocketConstructor {
  const headers = { Cookie: `${sessionCookieName(port)}=${secret}` };
  return class extends WebSocket {
    constructor(url: string, protocols: string[]) {
      super(url, protocols, { headers });
    }
  } as unknown as WebSocketConstructor;
}

const pods = { group: '', version: 'v1', resource: 'pods' };
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Moves the fake clock and lets real socket I/O happen, until `done` holds. */
async function until(clock: FakeClock, scheduler: ManualFrameScheduler, done: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 200 && !done(); attempt++) {
    await clock.stepAsync(50);
    scheduler.runFrame();
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  expect(done()).toBe(true);
}

describe('renderer links', () => {
  it('browser mode: mirrors a cluster over the authenticated WebSocket found from the page location', async () => {
    const clock = new FakeClock();
    const api = new FakeApi();
    api.apply(pod('default', 'a'));
    // Enough rows that the snapshot's batch is over compressAboveBytes: it crosses deflated.
    for (let index = 0; index < 600; index++) api.apply(pod('many', `pod-${index}`));
    const host = new BridgeHost({
      session: new ClusterSession({ context: 'sim', clock, newListerWatcher: () => api.listerWatcher() }),
      listContexts: () => [{ name: 'sim', cluster: 'sim', embedded: true }],
      openSession: () => Promise.reject(new Error('one context')),
      log: () => {},
    });
    const secret = createLaunchSecret();
    const server = await listenWebSocketBridge({
      secret,
      onConnection: (transport) => host.accept(transport),
    });
    cleanups.push(
      () => server.close(),
      () => host.close(),
    );
    const options = webSocketLinkOptionsFrom(new URL(`http://127.0.0.1:${server.port}/`));
    expect(options.url).toBe(`ws://127.0.0.1:${server.port}/bridge`);
    const scheduler = new ManualFrameScheduler();
    const client = new BridgeClient({
      scheduler,
      open: webSocketLinkOpener({ ...options, WebSocket: cookieWebSocket(server.port, secret) }),
    });
    cleanups.push(() => client.close());
    client.start();
    await until(clock, scheduler, () => client.state.getState().connection.phase === 'open');
    const subscriptionId = await client.subscribe(pods);
    await until(clock, scheduler, () => client.store.mirror(subscriptionId)!.rows.has('default/a'));
    expect(client.store.mirror(subscriptionId)!.rows.size).toBe(601);
    expect(client.state.getState().contexts?.current).toBe('sim');
  });

  it('browser mode: a wrong session cookie fails to open the link, with a reason', async () => {
    const server = await listenWebSocketBridge({ secret: createLaunchSecret(), onConnection: () => {} });
    cleanups.push(() => server.close());
    await expect(
      openWebSocketLink({
        url: `ws://127.0.0.1:${server.port}/bridge`,
        WebSocket: cookieWebSocket(server.port, 'guessed'),
      }),
    ).rejects.toThrow(/could not connect/);
  });

  it('Electron: accepts only the port announced with its own nonce, from its own window and origin', async () => {
    const listeners = new Set<(event: MessageEvent) => void>();
    const target: PortTarget = {
      addEventListener: (_type, listener) => listeners.add(listener),
      removeEventListener: (_type, listener) => listeners.delete(listener),
    };
    const post = (data: unknown, source: unknown, ports: unknown[], origin = 'kubetide://app') => {
      for (const listener of [...listeners])
        listener({ data, source, ports, origin } as unknown as MessageEvent);
    };
    const channel = new MessageChannel();
    const decoy = new MessageChannel();
    cleanups.push(() => {
      channel.port2.close();
      decoy.port1.close();
    });
    const linked = openMessagePortLink({
      target,
      origin: 'kubetide://app',
      newNonce: () => 'nonce-1',
      requestPort: (nonce) => {
        post({ kubetideBridgePort: 'someone-else' }, target, [decoy.port1]);
        post({ kubetideBridgePort: nonce }, {}, [decoy.port1]);
        post({ kubetideBridgePort: nonce }, target, [decoy.port1], 'https://evil.example');
        post({ kubetideBridgePort: nonce }, target, [channel.port1]);
      },
    });
    const link = await linked;
    const received = new Promise<unknown>((resolve) =>
      (channel.port2 as NodeMessagePort).once('message', resolve),
    );
    link.send({ type: 'listContexts', requestId: 1 });
    expect(await received).toEqual({ type: 'listContexts', requestId: 1 });
    const reply = new Promise<unknown>((resolve) => link.onMessage(resolve));
    channel.port2.postMessage({ type: 'rejected', reason: 'test' });
    expect(await reply).toEqual({ type: 'rejected', reason: 'test' });
    link.close();
  });

  it("Electron: a worker's encoded rows, reply value and reply parts cross as text, parsed in the renderer into the messages they stand for", async () => {
    const channel = new MessageChannel();
    cleanups.push(() => channel.port1.close());
    const link = linkOverPort(channel.port1 as unknown as MessagePort);
    const mainPort = new EventEmitter() as EventEmitter & { postMessage(data: unknown): void; start(): void };
    mainPort.postMessage = (data) => channel.port2.postMessage(data);
    mainPort.start = () => {};
    const transport = new ElectronTransport(mainPort as unknown as MessagePortMain, 'window 1');
    const received: unknown[] = [];
    const all = new Promise<void>((resolve) =>
      link.onMessage((message) => {
        received.push(message);
        if (received.length === 4) resolve();
      }),
    );
    const rows = [row('ns/web-1'), row('ns/web-2', '7', { labels: { app: 'caf\u00e9' } })];
    const batch = {
      type: 'batch' as const,
      subscriptionId: 's',
      seq: 1,
      upserts: rows,
      deletes: ['ns/gone'],
    };
    const value = { keys: ['ns/web-1'], cpu: [0.25], memory: [1024] };
    transport.send({ ...batch, upserts: encodeRows(rows) });
    transport.send({ type: 'replyPart', requestId: 4, index: 0, value: new EncodedValue(jsonBytes(value)) });
    transport.send({ type: 'reply', requestId: 4, ok: true, value: new EncodedValue(jsonBytes(value)) });
    transport.send({ type: 'rejected', reason: 'a value, as ever' });
    await all;
    expect(received).toEqual([
      batch,
      { type: 'replyPart', requestId: 4, index: 0, value },
      { type: 'reply', requestId: 4, ok: true, value },
      { type: 'rejected', reason: 'a value, as ever' },
    ]);
    link.close();
  });

  it('Electron: gives up with a reason when no port comes', async () => {
    const target: PortTarget = { addEventListener: () => {}, removeEventListener: () => {} };
    await expect(openMessagePortLink({ target, requestPort: () => {}, timeoutMs: 10 })).rejects.toThrow(
      /did not hand over a bridge port/,
    );
  });
});
